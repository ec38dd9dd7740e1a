import cliProgress from 'cli-progress';
import type { EpochSummary, TrainingObserver } from './bert-trainer.js';

/** Where progress goes: a bar stream (stderr) and a line logger (stdout). */
export interface ProgressSinks {
  readonly bar?: NodeJS.WriteStream;
  readonly log: (line: string) => void;
}

const fixed = (x: number, digits: number) => (Number.isFinite(x) ? x.toFixed(digits) : '—');

/** The per-epoch summary line, in the spec's `Epoch 1/3  train_loss=0.4821` form plus dev figures. */
export function formatEpochLine(s: EpochSummary): string {
  const dev = Number.isFinite(s.devLoss)
    ? `  dev_loss=${fixed(s.devLoss, 4)}  dev_f1=${fixed(s.devF1, 4)}`
    : '';
  const mark = s.best && Number.isFinite(s.devLoss) ? '  (best)' : '';
  return `Epoch ${s.epoch}/${s.epochs}  train_loss=${fixed(s.trainLoss, 4)}${dev}  ${Math.round(s.tokensPerSecond)} tok/s  ${fixed(s.seconds, 1)}s${mark}`;
}

/**
 * A progress bar per epoch (loss, tokens/s, ETA) on a terminal, and one summary line per epoch either way.
 * cli-progress draws nothing when the stream is not a TTY, so logs and CI stay clean.
 */
export function progressObserver(sinks: ProgressSinks): TrainingObserver {
  let bar: cliProgress.SingleBar | undefined;
  return {
    epochStart(epoch, epochs, steps) {
      const stream = sinks.bar;
      if (!stream?.isTTY) return;
      bar = new cliProgress.SingleBar(
        {
          stream,
          format: `Epoch ${epoch}/${epochs} |{bar}| {value}/{total} steps  loss={loss}  {tps} tok/s  ETA {eta_formatted}`,
          hideCursor: true,
          clearOnComplete: true,
          etaBuffer: 20,
        },
        cliProgress.Presets.shades_classic,
      );
      bar.start(steps, 0, { loss: '—', tps: '—' });
    },
    step(done, loss, tokensPerSecond) {
      bar?.update(done, { loss: loss.toFixed(4), tps: Math.round(tokensPerSecond) });
    },
    epochEnd(summary) {
      bar?.stop();
      bar = undefined;
      sinks.log(formatEpochLine(summary));
    },
  };
}
