import { KeywordScanner, NON_ASCII } from './keyword-scan.js';

/*
 * The keywords that gate the line-signal patterns (line-signals.ts): each pattern runs only on a line that
 * holds one of the keywords every match of it contains, found for all four families at once by one
 * KeywordScanner pass, so a line with none of them costs one scan instead of four regular expressions. A
 * gate can only let more lines through than its pattern matches, never fewer: the answers stay exactly the
 * patterns' own. Keep each list in step with its pattern (line-signals.test.ts checks them on word soup).
 */

/** Every match of ERROR_PATTERN holds one of these, apart from its `^E\s{2,}` branch (checked by hand). */
const ERROR_WORDS = [
  'error',
  'exception',
  'fail',
  'fatal',
  'panic',
  'traceback',
  'abort',
  'assert',
  'timeout',
  'timed out',
  'refused',
  'denied',
  'forbidden',
  'unauthorized',
  'not found',
  'no such file',
  'segmentation fault',
  'segfault',
  'core dumped',
  'killed',
  'crashed',
  'unhandled',
  'undefined reference',
  'cannot',
  "can't",
  'could not',
  'unable to',
  'unresolved',
  'unexpected',
  'invalid',
  'conflict',
  'deadlock',
  'backoff',
  'errimagepull',
  'evicted',
  // exit(?:ed)?(?: with)?(?: code| status)
  'exit code',
  'exit status',
  'exited code',
  'exited status',
  'with code',
  'with status',
  'non-zero exit',
  'nonzero exit',
];
/** Every match of VERDICT_PATTERN holds one of these (compared without case), apart from `^\s*OK`. */
const VERDICT_WORDS = [
  'pass',
  'fail',
  'error',
  'skipped',
  'pending',
  'succeeded',
  'broken',
  'build ',
  'test',
  'snapshots',
  'suites',
];
/** Every match of DEBUG_PATTERN holds one of these or a character outside ASCII (its progress bars). */
const DEBUG_WORDS = [
  'debug',
  'trace',
  'verbose',
  'download',
  'collecting',
  'using cached',
  'requirement already satisfied',
  'installing collected',
  'fetching',
  'resolving',
  'unpacking',
  'preparing',
  'building wheel',
  'progress',
  'receiving objects',
  'counting objects',
  'compressing objects',
  'enumerating objects',
  'remote: ',
  'npm ',
  'get:',
  'hit:',
  'ign:',
  '##########',
  '===>',
  '[=',
  '[#',
  '[>',
  '[.',
  '[-',
  '[ ',
  '%',
];
/** Every match of KEY_VALUE_PATTERN holds `=` or `:` and a space (or a space outside ASCII). */
const KEY_VALUE_MARKS = ['=', ': ', ':\t', ':\n', ':\v', ':\f', ':\r'];

/** The bits of each family in a scan's result; the debug and key-value gates also open on non-ASCII. */
export const SignalKeyword = Object.freeze({
  error: 1,
  verdict: 2,
  debug: 4 | NON_ASCII,
  keyValue: 8 | NON_ASCII,
});

/** The scanner of the four families, in the order of {@link SignalKeyword}. */
export const SIGNAL_KEYWORDS: KeywordScanner = new KeywordScanner([
  ERROR_WORDS,
  VERDICT_WORDS,
  DEBUG_WORDS,
  KEY_VALUE_MARKS,
]);
