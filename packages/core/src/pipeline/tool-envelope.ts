/**
 * The wrapper an agent's client puts around a tool's own output before it reaches the model. The wrapper
 * is the client talking (how the command ended, where the full output went, a reminder to the model),
 * so it goes out verbatim and is never folded; the body between is the tool's output and is compressed
 * like any other block, its kind read from the body alone.
 *
 * Recognised, each from its client's source:
 * - Codex exec output (codex-rs `format_exec_output_str`): `Exit code: N`, `Wall time: S seconds`, an
 *   optional `Total output lines: N`, then `Output:`; unified exec (`exec_command`) writes `Chunk ID: …`,
 *   `Wall time: …`, `Process exited with code N` / `Process running with session ID N`, `Original token
 *   count: N`, then `Output:`. A capped output opens with `Warning: truncated output (original token
 *   count: N)` and/or `Total output lines: N` and a blank line (codex-rs `formatted_truncate_text`).
 * - Claude Code's `<persisted-output>` preview (a Bash output over 30,000 characters saved to a file):
 *   `<persisted-output>`, `Output too large (…). Full output saved to: PATH`, a blank line, `Preview
 *   (first 2KB):`, the preview, then `...` and `</persisted-output>`.
 * - A `<system-reminder>` element a client appends to a tool result (Claude Code after a Read).
 */
export interface ToolEnvelope {
  /** The client's lines before the tool's output ('' when none). */
  readonly prefix: string;
  /** The tool's own output. */
  readonly body: string;
  /** The client's lines after it ('' when none). */
  readonly suffix: string;
}

/** A wrapper's header is a handful of short lines; anything longer is the tool's own text. */
const MAX_HEADER_LINES = 8;
const MAX_HEADER_LINE = 160;
/** A client's note at the end is a paragraph; a longer element is treated as the tool's output. */
const MAX_REMINDER_CHARS = 8192;

const CODEX_FIRST = /^(?:Exit code: -?\d+|Chunk ID: \S+|Wall time: [\d.]+ seconds)$/;
const CODEX_FIELD =
  /^(?:Exit code: -?\d+|Wall time: [\d.]+ seconds|Total output lines: \d+|Chunk ID: \S+|Process exited with code -?\d+|Process running with session ID \S+|Original token count: \d+)$/;
const CODEX_CAPPED = /^(?:Warning: truncated output \(original token count: \d+\)|Total output lines: \d+)$/;
const PERSISTED_PREVIEW = /^Preview \(first [^)\n]*\):$/;

/** Splits `text` into its client wrapper and the tool's output; `prefix + body + suffix === text`. */
export function splitEnvelope(text: string): ToolEnvelope {
  const { body: rest, suffix: reminder } = splitReminder(text);
  const codex = codexHeader(rest);
  if (codex > 0) return { prefix: rest.slice(0, codex), body: rest.slice(codex), suffix: reminder };
  const persisted = persistedParts(rest);
  if (persisted) return { ...persisted, suffix: persisted.suffix + reminder };
  return { prefix: '', body: rest, suffix: reminder };
}

/** Whether `text` has a client wrapper at all. */
export function hasEnvelope(envelope: ToolEnvelope): boolean {
  return envelope.prefix.length > 0 || envelope.suffix.length > 0;
}

/** The trailing `<system-reminder>…</system-reminder>` element, with the blank lines before it. */
function splitReminder(text: string): { body: string; suffix: string } {
  const close = '</system-reminder>';
  const trimmed = text.trimEnd();
  if (!trimmed.endsWith(close)) return { body: text, suffix: '' };
  const open = trimmed.lastIndexOf('<system-reminder>');
  if (open < 0 || text.length - open > MAX_REMINDER_CHARS) return { body: text, suffix: '' };
  // the element starts a line, and takes the line breaks before it along
  if (open > 0 && text[open - 1] !== '\n' && text[open - 1] !== '\r') return { body: text, suffix: '' };
  let start = open;
  while (start > 0 && (text[start - 1] === '\n' || text[start - 1] === '\r')) start--;
  // the line break that ends the body's last line stays with the body
  if (start > 0 && start < open) start += text.startsWith('\r\n', start) ? 2 : 1;
  if (start === 0) return { body: text, suffix: '' };
  return { body: text.slice(0, start), suffix: text.slice(start) };
}

/**
 * Length of a Codex exec header (through `Output:\n` and a capped output's own header), or 0. Earlier
 * releases, which send the output as JSON, open a capped output with its own header alone.
 */
function codexHeader(text: string): number {
  const lines = firstLines(text, MAX_HEADER_LINES + 1);
  if (lines.length === 0) return 0;
  if (lines.length > 1 && CODEX_CAPPED.test(lines[0]!.line) && lines[1]!.line === '') return lines[1]!.end;
  if (!CODEX_FIRST.test(lines[0]!.line)) return 0;
  let k = 1;
  while (k < lines.length && CODEX_FIELD.test(lines[k]!.line)) k++;
  if (k >= lines.length || lines[k]!.line !== 'Output:') return 0;
  let end = lines[k]!.end;
  // a capped output: its header lines, then one blank line
  const capped = firstLines(text.slice(end), 3);
  let c = 0;
  while (c < capped.length && CODEX_CAPPED.test(capped[c]!.line)) c++;
  if (c > 0 && c < capped.length && capped[c]!.line === '') end += capped[c]!.end;
  return end;
}

/** The `<persisted-output>` header and footer around a preview, or null. */
function persistedParts(text: string): ToolEnvelope | null {
  if (!text.startsWith('<persisted-output>')) return null;
  const lines = firstLines(text, 5);
  const preview = lines.findIndex((l) => PERSISTED_PREVIEW.test(l.line));
  if (preview < 1) return null;
  const headerEnd = lines[preview]!.end;
  const trimmed = text.trimEnd();
  if (!trimmed.endsWith('</persisted-output>')) return null;
  let footer = trimmed.length - '</persisted-output>'.length;
  if (footer < headerEnd) return null;
  // the `...` line that says the preview stops short goes with the footer
  const before = text.slice(headerEnd, footer);
  const dots = /(?:^|\n)\.\.\.\n$/.exec(before);
  if (dots) footer -= dots[0].length - (dots[0].startsWith('\n') ? 1 : 0);
  return {
    prefix: text.slice(0, headerEnd),
    body: text.slice(headerEnd, footer),
    suffix: text.slice(footer),
  };
}

/** Up to `max` first lines of `text`, each with the offset just past its terminator. */
function firstLines(text: string, max: number): { line: string; end: number }[] {
  const out: { line: string; end: number }[] = [];
  let start = 0;
  while (out.length < max && start < text.length) {
    const lf = text.indexOf('\n', start);
    const end = lf < 0 ? text.length : lf + 1;
    const line = text.slice(start, lf < 0 ? text.length : lf).replace(/\r$/, '');
    if (line.length > MAX_HEADER_LINE) break;
    out.push({ line, end });
    if (lf < 0) break;
    start = end;
  }
  return out;
}
