import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseOrThrow, Trajectory, ValidationError } from '@distil/contract';
import { parse as parseYamlText, YAMLParseError } from 'yaml';
import { importClaudeCode, looksLikeClaudeCode } from './claude-code.js';
import { importOpenHands, looksLikeOpenHands } from './openhands.js';
import { importAnthropicBody, importOpenAIBody, requestBodyFlavour } from './request-body.js';
import { importSweAgent, looksLikeSweAgent } from './swe-agent.js';

/** A trajectory format Distil reads. */
export type TrajectoryFormat =
  | 'distil'
  | 'swe-agent'
  | 'openhands'
  | 'claude-code'
  | 'anthropic-messages'
  | 'openai-chat';

/** What an importer gets: one JSON document, or the records of a JSON Lines file. */
type Parsed =
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'jsonl'; readonly records: unknown[] };

interface Importer {
  readonly detect: (input: Parsed) => boolean;
  readonly read: (input: Parsed, name: string) => Trajectory[];
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const looksLikeDistil = (v: unknown): boolean =>
  isObject(v) &&
  (v['format'] === 'distil.trajectory/v1' || (Array.isArray(v['turns']) && typeof v['id'] === 'string'));
const records = (input: Parsed): unknown[] => (input.kind === 'jsonl' ? input.records : [input.value]);

/** Every importer, tried in this order; the first whose `detect` accepts the input reads it. */
export const TRAJECTORY_IMPORTERS: Readonly<Record<TrajectoryFormat, Importer>> = Object.freeze({
  distil: {
    detect: (input) => records(input).every(looksLikeDistil),
    read: (input, name) =>
      records(input).map((r, i) =>
        parseOrThrow(
          Trajectory,
          r,
          input.kind === 'jsonl' ? `trajectory ${name}, line ${i + 1}` : `trajectory ${name}`,
        ),
      ),
  },
  'swe-agent': {
    detect: (input) => input.kind === 'json' && looksLikeSweAgent(input.value),
    read: (input, name) => [importSweAgent(records(input)[0], name)],
  },
  openhands: {
    detect: (input) => records(input).every(looksLikeOpenHands),
    read: (input, name) =>
      records(input).map((r, i) =>
        importOpenHands(r, `${name}#${i + 1}`, input.kind === 'jsonl' ? `line ${i + 1}` : name),
      ),
  },
  'claude-code': {
    detect: (input) => looksLikeClaudeCode(records(input)),
    read: (input, name) => [importClaudeCode(records(input), name)],
  },
  'anthropic-messages': {
    detect: (input) => input.kind === 'json' && requestBodyFlavour(input.value) === 'anthropic',
    read: (input, name) => [importAnthropicBody(records(input)[0], name)],
  },
  'openai-chat': {
    detect: (input) => input.kind === 'json' && requestBodyFlavour(input.value) === 'openai',
    read: (input, name) => [importOpenAIBody(records(input)[0], name)],
  },
});

/** The format of some text or parsed JSON, or null when no importer recognises it. */
export function detectTrajectoryFormat(input: string | object): TrajectoryFormat | null {
  const parsed =
    typeof input === 'string' ? parseText(input, 'input') : { kind: 'json' as const, value: input };
  return formatOf(parsed);
}

/**
 * Every trajectory in `input`: a file path, the text of a file (JSON or JSON Lines), or parsed JSON.
 * Reads Distil's own format, SWE-agent `.traj` (and its YAML demonstrations, from a `.yaml` file), OpenHands `output.jsonl` (one run per line), Claude Code
 * session `.jsonl`, and Anthropic Messages or OpenAI Chat Completions request bodies. Throws a
 * ValidationError naming the line or field it cannot read.
 */
export function importTrajectories(input: string | object, name?: string): Trajectory[] {
  let label = name ?? 'input';
  let parsed: Parsed;
  if (typeof input === 'string') {
    const trimmed = input.trimStart();
    const isText = trimmed.startsWith('{') || trimmed.startsWith('[');
    if (!isText) label = name ?? basename(input).replace(/\.(json|jsonl|traj|ya?ml)$/, '');
    parsed = isText
      ? parseText(input, label)
      : /\.ya?ml$/i.test(input)
        ? parseYaml(readFileOrThrow(input), label)
        : parseText(readFileOrThrow(input), label);
  } else {
    parsed = { kind: 'json', value: input };
  }
  const format = formatOf(parsed);
  if (format === null) {
    throw new ValidationError(`trajectory ${label}`, [
      {
        path: '(file)',
        message: `unrecognised format: expected one of ${Object.keys(TRAJECTORY_IMPORTERS).join(', ')}`,
      },
    ]);
  }
  const trajectories = TRAJECTORY_IMPORTERS[format].read(parsed, label);
  return trajectories.map((t) => parseOrThrow(Trajectory, t, `trajectory ${t.id} (imported as ${format})`));
}

/**
 * The trajectory in `input` (see importTrajectories). A file holding several runs (OpenHands output.jsonl)
 * gives its first; use importTrajectories for all of them.
 */
export function importTrajectory(input: string | object, name?: string): Trajectory {
  return importTrajectories(input, name)[0]!;
}

function formatOf(parsed: Parsed): TrajectoryFormat | null {
  for (const [format, importer] of Object.entries(TRAJECTORY_IMPORTERS)) {
    if (importer.detect(parsed)) return format as TrajectoryFormat;
  }
  return null;
}

function readFileOrThrow(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ValidationError(`trajectory ${path}`, [{ path: '(file)', message: `cannot read: ${reason}` }]);
  }
}

/** A YAML document (SWE-agent writes its demonstrations as YAML); the error names the line. */
function parseYaml(text: string, label: string): Parsed {
  try {
    return { kind: 'json', value: parseYamlText(text) };
  } catch (error) {
    const where =
      error instanceof YAMLParseError && error.linePos ? `line ${error.linePos[0].line}` : '(file)';
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new ValidationError(`trajectory ${label}`, [{ path: where, message: `not valid YAML: ${reason}` }]);
  }
}

/**
 * One JSON document, else JSON Lines (blank lines skipped). A bad last line is a log cut off mid-write
 * (agents append to their logs as they run) and is dropped; a bad line anywhere else is reported by its
 * number.
 */
function parseText(text: string, label: string): Parsed {
  try {
    return { kind: 'json', value: JSON.parse(text) };
  } catch {
    // not one document: try JSON Lines
  }
  const parsedRecords: unknown[] = [];
  const lines = text.split('\n');
  const last = lines.findLastIndex((line) => line.trim().length > 0);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line.length === 0) continue;
    try {
      parsedRecords.push(JSON.parse(line));
    } catch (error) {
      if (i === last && parsedRecords.length > 0) break;
      const reason = error instanceof Error ? error.message : String(error);
      throw new ValidationError(`trajectory ${label}`, [
        { path: `line ${i + 1}`, message: `not valid JSON: ${reason}` },
      ]);
    }
  }
  if (parsedRecords.length === 0) {
    throw new ValidationError(`trajectory ${label}`, [{ path: '(file)', message: 'empty: no JSON found' }]);
  }
  return { kind: 'jsonl', records: parsedRecords };
}
