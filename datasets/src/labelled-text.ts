import type { ContentKind } from '../../packages/contract/src/index.js';
import type { Rng } from './prng.js';

/**
 * A text built line by line that remembers which of its lines decide the agent's next action.
 *
 * The generators know where they put the failing assertion or the crashing pod, so labels are recorded at
 * the moment a line is written instead of being guessed afterwards. Line numbers are 1-based and count
 * `\n` only (a progress-bar redraw with a bare `\r` stays inside its line, as in a captured terminal).
 */
export class LabelledText {
  private readonly rows: string[] = [];
  private readonly keepRows = new Set<number>();
  private prefix: (() => string) | null = null;

  /**
   * Sets a function whose result is put before every following line (a CI runner's timestamp), so a
   * tool's renderer can be embedded in a CI log unchanged; null removes it.
   */
  setPrefix(prefix: (() => string) | null): void {
    this.prefix = prefix;
  }

  /** Appends one line (no `\n` inside) and returns its 1-based number. */
  add(line: string, keep = false): number {
    if (line.includes('\n')) throw new Error(`a line may not contain a newline: ${JSON.stringify(line)}`);
    this.rows.push(this.prefix ? `${this.prefix()}${line}` : line);
    const n = this.rows.length;
    if (keep) this.keepRows.add(n);
    return n;
  }

  /** Appends several lines with the same label. */
  addAll(lines: readonly string[], keep = false): void {
    for (const line of lines) this.add(line, keep);
  }

  /** Marks an already written line as decisive. */
  markKeep(lineNumber: number): void {
    if (lineNumber < 1 || lineNumber > this.rows.length) throw new Error(`no line ${lineNumber} to mark`);
    this.keepRows.add(lineNumber);
  }

  /** How many lines have been written. */
  get lineCount(): number {
    return this.rows.length;
  }

  /** The text (ending in a newline) and the sorted keep list. */
  finish(): { text: string; keep: number[] } {
    return { text: `${this.rows.join('\n')}\n`, keep: [...this.keepRows].sort((x, y) => x - y) };
  }
}

/** One generated tool output with its label, before it is placed in a family folder. */
export interface ToolOutputDraft {
  /** File name without extension, unique within the family. */
  readonly name: string;
  readonly ext: string;
  readonly kind: ContentKind;
  readonly text: string;
  /** 1-based numbers of the decisive lines, ascending. */
  readonly keep: readonly number[];
  /** The question the agent was working on when it ran the tool. */
  readonly task: string;
  /** Why the kept lines are the ones that decide the next action. */
  readonly why: string;
}

/** How large a generated output should be; each family maps the scale to its own unit (tests, pods, …). */
export type Scale = 'small' | 'medium' | 'large' | 'huge';

/** Upper bounds on line counts per scale, used by generators to size their loops. */
export const SCALE_LINES: Readonly<Record<Scale, readonly [number, number]>> = Object.freeze({
  small: [20, 80],
  medium: [100, 400],
  large: [450, 1200],
  huge: [1800, 3000],
});

/** A generator family: how many files it writes and how to write the i-th. */
export interface Family {
  /** Folder name under `tool_outputs/`. */
  readonly name: string;
  /** The scale of each file, in order; its length is the number of files. */
  readonly scales: readonly Scale[];
  readonly generate: (rng: Rng, scale: Scale, index: number) => ToolOutputDraft;
}
