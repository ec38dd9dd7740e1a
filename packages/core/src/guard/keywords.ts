import { KeywordScanner } from '@distil/codec';

/*
 * Keyword gates for the guard's and the verdict test's word patterns (see KeywordScanner): one scan of a
 * line tells which of them can match, and a pattern runs only when its family was found. Each list holds
 * a word that every match of its pattern contains, compared without case, so a gate can let through more
 * lines than its pattern matches but never fewer: the answers stay exactly the patterns' own. Keep each
 * list in step with the pattern it gates.
 */

/** In surprise.ts, STRONG_WORDS (the strong patterns apart from the line-start markers). */
const STRONG = [
  'err', // errors?, err!?
  'fatal',
  'fail', // failed, failures?, fail, failing
  'exception',
  'traceback',
  'panic',
  'abort',
  'crash',
  'segfault',
  'segmentation fault',
  'core dumped',
  // timed? ?out, timeout
  'timeout',
  'time out',
  'timedout',
  'timed out',
  'deadline exceeded',
  'refused',
  'denied',
  'unauthori',
  'forbidden',
  'unreachable',
  'no such file',
  'undefined reference',
  'killed', // killed, oomkilled
  'evicted',
  'backoff', // crashloopbackoff, backoff
  'unhealthy',
  'assert',
  'expected ',
  // exit(?:ed)? (?:code|status|with)
  'exit code',
  'exit status',
  'exit with',
  'exited code',
  'exited status',
  'exited with',
  'returned non-zero',
  'non-zero exit',
  'stacktrace',
  'stack trace',
  'caused by',
];

/** In surprise.ts, WEAK. */
const WEAK = [
  'not found',
  'not defined',
  'undefined',
  'not recognized',
  'unknown ',
  'no such ',
  'cannot',
  "can't",
  'could not',
  "couldn't",
  'unable to',
  'missing',
  'unresolved',
  'invalid',
  'illegal',
  'unexpected',
  'mismatch',
  'conflict',
  'broken',
  'violation',
  'rejected',
  'degraded',
  'anomal',
];

/** In verdicts.ts, VERDICT_WORD (itself the cheap first test of VERDICT). */
const VERDICT = [
  'pass',
  'fail',
  'ok',
  'err',
  'test',
  'build',
  'ran ',
  'exit',
  'done',
  'finish',
  'complet',
  'vulnerab',
  'added',
  'install',
  'skipped',
  'pending',
  'broken',
  '___',
];

/**
 * In verdicts.ts, VERDICT apart from its `^\s*(?:FAIL|FAILED|PASS|ok|not ok)\s+\S` branch (tested on its own):
 * narrower than VERDICT_WORD, which lets through every line that mentions a test or an error.
 */
const VERDICT_SUMMARY = [
  ' passed',
  ' failed',
  ' failing',
  ' passing',
  ' error',
  ' skipped',
  ' pending',
  ' broken',
  'short test summary',
  'failures',
  'errors',
  'test ', // Tests? (?:run|Suites|Files)?:, test result:
  'tests ',
  'build ',
  'failed (',
  'ok (',
  'ran ',
  'completed with',
  'exited with',
  'finished with',
  'npm err! code',
  'done in ',
  'finished in ',
  'completed in ',
  'added ',
  'vulnerabilit',
  'successfully installed ',
  '___ ',
];

/** The bit of each family in {@link lineKeywords}' result. */
export const Keyword = Object.freeze({ strong: 1, weak: 2, verdict: 4, verdictSummary: 8 });

const SCANNER = new KeywordScanner([STRONG, WEAK, VERDICT, VERDICT_SUMMARY]);

/** Which keyword families (bits of {@link Keyword}) a line holds. */
export function lineKeywords(line: string): number {
  return SCANNER.scan(line);
}
