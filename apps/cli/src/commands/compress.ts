import { keepModelConfigFromFlag, loadKeepModel } from '@distil/codec';
import { ContentKind, parseOrThrow } from '@distil/contract';
import { collectAnchors, countTokens, detectKind, distilHome, openRestoreStore } from '@distil/core';
import { LearnedPolicy, type ProtectionSource, policyCompressor } from '@distil/replay';
import type { Command } from 'commander';
import { loadConfig } from '../config-file.js';
import { readInput } from '../read-input.js';

/** Above this many characters the summary estimates tokens (4 characters each) instead of counting. */
const EXACT_COUNT_LIMIT = 8 * 1024 * 1024;

interface CompressFlags {
  kind?: string;
  keepModel?: string;
  json?: boolean;
  handles?: boolean;
  lossless?: boolean;
  task?: string;
  config?: string;
}

/** `distil compress [FILE|-]`: compresses one tool output; folds go to the configured restore store. */
export function registerCompress(program: Command): void {
  program
    .command('compress')
    .description('compress a tool output (file or stdin); folded lines stay one `distil expand` away')
    .argument('[file]', 'file to compress, or - for stdin', '-')
    .option('--kind <kind>', `content kind (${ContentKind.options.join(', ')}); detected when omitted`)
    .option('--keep-model <model>', 'salience | logistic | transformer (overrides the config)')
    .option('--task <text>', 'what the output is read for: the task, for a keep model that conditions on it')
    .option('--lossless', 'apply only the lossless tier (nothing folded behind handles)')
    .option(
      '--json',
      'print { text, handles, tokens: { before, after }, tier, kind, keepModel, note? } as JSON',
    )
    .option('--handles', 'print only the handles of the folds, one per line')
    .action(async (file: string, _opts: unknown, cmd: Command) => {
      const flags = cmd.optsWithGlobals<CompressFlags>();
      const { config } = loadConfig(flags.config);
      const input = readInput(file);
      if (input.text === null) {
        // Bytes that are not UTF-8 text are never rewritten: they go out exactly as they came in.
        process.stderr.write(`distil: ${input.name} is not UTF-8 text; passed through unchanged\n`);
        if (flags.json) {
          const text = Buffer.from(input.bytes).toString('latin1');
          process.stdout.write(`${JSON.stringify({ text, handles: [], tier: 'none', binary: true })}\n`);
        } else process.stdout.write(input.bytes);
        return;
      }
      const kind = flags.kind ? parseOrThrow(ContentKind, flags.kind, '--kind') : detectKind(input.text);
      const keepModel = await loadKeepModel(
        flags.keepModel ? keepModelConfigFromFlag(flags.keepModel) : config.keepModel,
        (message) => process.stderr.write(`distil: ${message}\n`),
      );
      const store = await openRestoreStore(config.restoreStore);
      try {
        const block = { id: input.name, role: 'tool' as const, kind, text: input.text, trusted: false };
        // The policy the proxy compresses under: a signature agents keep expanding comes out byte-exact.
        const compress = policyCompressor(
          {
            keepModel,
            store,
            tiers: config.tiers,
            depth: flags.lossless ? 'lossless' : 'digest',
            // the task is trusted text, as in the proxy: its tokens anchor lines and the keep model reads it
            ...(flags.task ? { context: { task: flags.task }, anchors: collectAnchors([flags.task]) } : {}),
          },
          learnedPolicy(),
        );
        const result = await compress(block);
        if (flags.handles) {
          process.stdout.write(result.handles.map((h) => `${h}\n`).join(''));
          return;
        }
        if (!flags.json) {
          process.stdout.write(result.text);
          // the person-facing summary counts tokens exactly only where that is cheap
          const large = input.text.length > EXACT_COUNT_LIMIT;
          const count = large ? (t: string): number => Math.ceil(t.length / 4) : countTokens;
          const tokens = { before: count(input.text), after: count(result.text) };
          process.stderr.write(
            `${summary(result.tier, result.handles, tokens, result.note, keepModel.id, large)}\n`,
          );
          return;
        }
        const tokens = { before: countTokens(input.text), after: countTokens(result.text) };
        const report = {
          text: result.text,
          handles: result.handles,
          tokens,
          tier: result.tier,
          kind: result.kind,
          keepModel: keepModel.id,
          ...(result.note ? { note: result.note } : {}),
        };
        process.stdout.write(`${JSON.stringify(report)}\n`);
      } finally {
        await store.close();
      }
    });
}

/**
 * The learned policy of $DISTIL_HOME (`distil learn` shows it). Statistics that cannot be read never stop
 * a compression: it goes on without them, and says so.
 */
function learnedPolicy(): ProtectionSource {
  try {
    return LearnedPolicy.load(distilHome());
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    process.stderr.write(`distil: learned policy not applied: ${why}\n`);
    return { isProtected: () => false };
  }
}

/** One line for a person: what happened to the input and how to get folded lines back. */
function summary(
  tier: string,
  handles: readonly string[],
  tokens: { before: number; after: number },
  note: string | undefined,
  keepModel: string,
  estimated = false,
): string {
  const saved = tokens.before === 0 ? 0 : (100 * (tokens.before - tokens.after)) / tokens.before;
  const figures = `${estimated ? '≈' : ''}${tokens.before} → ${tokens.after} tokens (${saved.toFixed(1)}% saved)`;
  if (tier === 'none') return `distil: left unchanged (${note ?? 'nothing to do'}); ${figures}`;
  const expand = handles[0] ? `; get folded lines back with: distil expand ${handles[0]}` : '';
  return `distil: ${tier} tier, ${handles.length} fold(s) (keep model ${keepModel}), ${figures}${expand}`;
}
