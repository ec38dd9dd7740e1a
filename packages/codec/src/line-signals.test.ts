import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEBUG_PATTERN,
  ERROR_PATTERN,
  emptyCounts,
  hasDebugNoise,
  hasErrorWords,
  hasVerdict,
  isKeyValue,
  isLogfmtRecord,
  isTimestampOnly,
  KEY_VALUE_PATTERN,
  readLine,
  TIMESTAMP_ONLY_PATTERN,
  VERDICT_PATTERN,
} from './line-signals.js';

/** Pieces of every branch of the four gated patterns, and of the text around them. */
const PIECES = [
  // ERROR_PATTERN
  ...['error', 'TypeError', 'Exception', 'fail', 'failed', 'failing', 'FAILURES', 'fatal', 'panicked'],
  ...['Traceback', 'aborted', 'assertion', 'timeout', 'timed out', 'refused', 'denied', 'forbidden'],
  ...['unauthorized', 'not found', 'no such file', 'segmentation fault', 'segfault', 'core dumped'],
  ...['killed', 'OOMKilled', 'crashed', 'unhandled', 'undefined reference', 'cannot', "can't", 'could not'],
  ...['unable to', 'unresolved', 'unexpected', 'invalid', 'conflict', 'deadlock', 'CrashLoopBackOff'],
  ...['ImagePullBackOff', 'ErrImagePull', 'Evicted', 'BackOff', 'exit code 2', 'exited with code 1'],
  ...['exit status: 127', 'exit with status -3', 'exited status=1', 'non-zero exit', 'nonzero exit', 'E   x'],
  // VERDICT_PATTERN
  ...['3 passed', '1 failed', '2 failing', '4 passing', '5 errors', '2 skipped', '1 pending', '3 succeeded'],
  ...['0 broken', '1 xfailed', '2 xpassed', 'PASS', 'FAILED', 'PASSED', 'ERROR', 'OK', 'FAILURE'],
  ...['BUILD SUCCESS', 'BUILD FAILURE', 'BUILD SUCCESSFUL', 'Tests:', 'Test Suites: ', 'Test Files :'],
  ...['Snapshots: ', 'Suites: ', 'Ran 3 tests', 'Tests run: 5', '=== FAILURES', '___ ERRORS'],
  ...['--- short test summary info', 'All tests passed', 'No checks failed'],
  // DEBUG_PATTERN
  ...['DEBUG', 'TRACE', 'VERBOSE', 'Downloading', 'Downloaded', 'Collecting', 'Using cached'],
  ...['Requirement already satisfied', 'Installing collected', 'Fetching', 'Resolving deltas', 'Unpacking'],
  ...['Preparing', 'Building wheel', 'Progress', 'Receiving objects', 'Counting objects', 'remote: Counting'],
  ...['Compressing objects', 'Enumerating objects', 'npm http', 'npm sill', '[INFO] Downloaded', 'Get:1'],
  ...['Hit:2', 'Ign:3', '##[debug]', '##########', '██████████', '#█#█#█#█#█', '━━━━━━━━━━', '====>'],
  ...[
    '[==========]',
    '[##########]',
    '[>.........]',
    '[----------]',
    '[          ]',
    '50% |',
    '3.5%[',
    '7%  |',
  ],
  // KEY_VALUE_PATTERN
  ...['key: value', 'a = b', 'x=1', 'name:\tv', 'k:\u00a0v', 'k:\u3000v', 'INFO: x', 'note: y', '"k": v'],
  // around them
  ...[' ', '  ', '\t', '\u00a0', '|', '-', '_', '*', '[', ']', '(', ':', '=', ';', '{', '0', '42', 'é', '…'],
  ...['2024-05-01T12:00:00Z ', '12:00:00 ', 'word', 'Word'],
];

/** Flips the case of some of a piece's letters, as logs print ERROR, Error and error alike. */
const piece = fc
  .tuple(fc.constantFrom(...PIECES), fc.integer())
  .map(([p, bits]) =>
    [...p].map((c, i) => ((bits >> (i % 31)) & 1 ? c.toUpperCase() : c.toLowerCase())).join(''),
  );
const line = fc
  .array(fc.oneof(piece, fc.constantFrom(...PIECES), fc.string({ maxLength: 6 })), { maxLength: 8 })
  .map((parts) => parts.join(''));

const counts = emptyCounts();
const ALL = -1;

/** The gated tests that disagree with their pattern on `body` (`ALL` would open every gate). */
function disagreements(body: string): string[] {
  const words = readLine(body, counts);
  const found: string[] = [];
  if (hasErrorWords(body, words) !== ERROR_PATTERN.test(body)) found.push(`error: ${body}`);
  if (hasVerdict(body, words) !== VERDICT_PATTERN.test(body)) found.push(`verdict: ${body}`);
  if (hasDebugNoise(body, words) !== DEBUG_PATTERN.test(body)) found.push(`debug: ${body}`);
  if (isKeyValue(body, words) !== (KEY_VALUE_PATTERN.test(body) && !isLogfmtRecord(body))) {
    found.push(`key-value: ${body}`);
  }
  if (hasVerdict(body, ALL) !== VERDICT_PATTERN.test(body)) found.push(`open gate: ${body}`);
  return found;
}

describe('keyword gates of the line signals', () => {
  it('answer exactly as the patterns do, on word soup in any case', () => {
    fc.assert(
      fc.property(line, (body) => {
        expect(disagreements(body)).toEqual([]);
      }),
      { numRuns: 10_000 },
    );
  });

  it('answer exactly as the patterns do on every line of the bundled tool outputs', () => {
    const dir = join(import.meta.dirname, '../../../datasets/generated/tool_outputs');
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.includes('.'));
    const lines = new Set(files.flatMap((f) => readFileSync(join(dir, f), 'utf8').split(/\r\n|\r|\n/)));
    expect(lines.size).toBeGreaterThan(1000);
    expect([...lines].flatMap(disagreements)).toEqual([]);
  });
});

describe('readLine', () => {
  it('counts character classes as a plain loop would', () => {
    fc.assert(
      fc.property(fc.oneof(line, fc.string({ unit: 'binary', maxLength: 80 })), (body) => {
        readLine(body, counts);
        const units = Array.from({ length: body.length }, (_, i) => body.charCodeAt(i));
        expect(counts).toEqual({
          nonSpace: units.filter((c) => !(c === 32 || (c >= 9 && c <= 13))).length,
          digits: units.filter((c) => c >= 48 && c <= 57).length,
          letters: units.filter((c) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122)).length,
          upper: units.filter((c) => c >= 65 && c <= 90).length,
          pipes: units.filter((c) => c === 124).length,
        });
      }),
      { numRuns: 3000 },
    );
  });
});

describe('the line patterns written without adjacent optional spaces', () => {
  // The patterns as first written, with `\s*[mark]?\s*`: the same texts match, in quadratic time.
  const KEY_VALUE_BEFORE =
    /^\s*[-*]?\s*["']?(?!(?:INFO|DEBUG|TRACE|NOTE|info|debug|trace|note)\b)[A-Za-z_][\w .\-/]{0,40}["']?(?::\s+|\s*=\s*)(?=\S)(?!.*[;{]\s*$)/;
  const TIMESTAMP_ONLY_BEFORE =
    /^\s*[[(]?\d{2,4}[-/.]\d{1,2}[-/.]\d{1,4}(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?)?(?:Z|[+-]\d{2}:?\d{2})?[\])]?\s*(?:(?:INFO|DEBUG|TRACE)\b\s*[:-]?\s*)?$|^\s*[[(]?\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?[\])]?\s*$/;
  const LEVEL_ONLY_BEFORE = /^\s*(?:(?:INFO|DEBUG|TRACE)\b\s*[:-]?\s*)?$/;
  const ARROW_BEFORE = /={3,}>/;
  const ARROW = new RegExp(DEBUG_PATTERN.source.split('|').find((branch) => branch.endsWith('={3,}>'))!);
  const text = fc
    .array(
      fc.constantFrom(
        '>',
        '===',
        ' ',
        '  ',
        '\t',
        '-',
        '*',
        ':',
        '=',
        '"',
        'INFO',
        'note',
        'key',
        'a_b',
        '/',
        ';',
        '{',
        '2024-01-02',
        '12:30:45',
        'Z',
        'x',
      ),
      { maxLength: 14 },
    )
    .map((pieces) => pieces.join(''));

  it('match what they matched, whatever the text', () => {
    fc.assert(
      fc.property(text, (body) => {
        expect(KEY_VALUE_PATTERN.test(body)).toBe(KEY_VALUE_BEFORE.test(body));
        expect(TIMESTAMP_ONLY_PATTERN.test(body)).toBe(TIMESTAMP_ONLY_BEFORE.test(body));
        expect(ARROW.test(body)).toBe(ARROW_BEFORE.test(body));
        // a body shorter than its line: the level-only test
        expect(isTimestampOnly(`2024-01-02T10:00:00Z ${body}`, body, 1)).toBe(LEVEL_ONLY_BEFORE.test(body));
      }),
      { numRuns: 3000 },
    );
  });

  it('read a long run of spaces once', () => {
    const spaces = ' '.repeat(200_000);
    expect(KEY_VALUE_PATTERN.test(`${spaces}!`)).toBe(false);
    expect(DEBUG_PATTERN.test(`${'='.repeat(200_000)}!`)).toBe(false);
    expect(TIMESTAMP_ONLY_PATTERN.test(`2024-01-02 INFO${spaces}:${spaces}!`)).toBe(false);
    expect(
      isTimestampOnly(`2024-01-02T10:00:00Z INFO${spaces}-${spaces}!`, `INFO${spaces}-${spaces}!`, 1),
    ).toBe(false);
  });
});
