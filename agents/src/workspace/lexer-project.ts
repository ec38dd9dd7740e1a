/**
 * The small project the scripted agents work on: a shell-word tokenizer with one planted bug (a
 * backslash-escaped quote ends a quoted string), its node:test suite, and the edit that fixes the bug.
 * Plain JavaScript, so `node --test` runs it with no build step in the agent's own shell.
 */

/** Path of the module, relative to the workspace. */
export const SOURCE_PATH = 'src/tokenize.js';
/** Path of its tests, relative to the workspace. */
export const TEST_PATH = 'test/tokenize.test.js';
/** The test the bug breaks. */
export const FAILING_TEST = 'keeps escaped quotes inside strings';

/** The lines of readString that drop escapes: what the fix replaces. */
export const BUGGY_LOOP = `  while (i < src.length && src[i] !== quote) {
    value += src[i];
    i += 1;
  }`;

/** The fixed loop: a backslash takes the next character literally. */
export const FIXED_LOOP = `  while (i < src.length && src[i] !== quote) {
    if (src[i] === '\\\\' && i + 1 < src.length) {
      value += src[i + 1];
      i += 2;
      continue;
    }
    value += src[i];
    i += 1;
  }`;

/** The module as the CI run saw it (with the bug). */
export const TOKENIZE_SOURCE = `// Splits a command line into tokens the way a POSIX shell reads words.
// Supports single and double quotes, operators, comments, numbers and $VARIABLES.

export class TokenizeError extends Error {
  constructor(message, offset) {
    super(\`\${message} at offset \${offset}\`);
    this.name = 'TokenizeError';
    this.offset = offset;
  }
}

const OPERATORS = ['&&', '||', '>>', '<<', '|', '&', ';', '>', '<', '(', ')'];
const WHITESPACE = new Set([' ', '\\t', '\\n', '\\r']);

function isDigit(ch) {
  return ch >= '0' && ch <= '9';
}

function isWordChar(ch) {
  return ch !== undefined && !WHITESPACE.has(ch) && !OPERATORS.some((op) => op[0] === ch) && ch !== '#';
}

function readOperator(src, start) {
  for (const op of OPERATORS) {
    if (src.startsWith(op, start)) return { type: 'operator', value: op, start, end: start + op.length };
  }
  return null;
}

function readComment(src, start) {
  let i = start;
  while (i < src.length && src[i] !== '\\n') i += 1;
  return { type: 'comment', value: src.slice(start + 1, i).trim(), start, end: i };
}

function readVariable(src, start) {
  let i = start + 1;
  if (src[i] === '{') {
    const close = src.indexOf('}', i);
    if (close === -1) throw new TokenizeError('unterminated \${', start);
    return { type: 'variable', value: src.slice(i + 1, close), start, end: close + 1 };
  }
  while (i < src.length && /[A-Za-z0-9_]/.test(src[i])) i += 1;
  return { type: 'variable', value: src.slice(start + 1, i), start, end: i };
}

function readNumber(src, start) {
  let i = start;
  while (i < src.length && isDigit(src[i])) i += 1;
  if (isWordChar(src[i])) return null;
  return { type: 'number', value: Number(src.slice(start, i)), start, end: i };
}

function readString(src, start) {
  const quote = src[start];
  let i = start + 1;
  let value = '';
${BUGGY_LOOP}
  if (i >= src.length) throw new TokenizeError('unterminated string', start);
  return { type: 'string', value, start, end: i + 1 };
}

function readWord(src, start) {
  let i = start;
  while (isWordChar(src[i]) && src[i] !== '"' && src[i] !== "'" && src[i] !== '$') i += 1;
  return { type: 'word', value: src.slice(start, i), start, end: i };
}

/** Returns the tokens of \`src\`, each with its type, value and source offsets. */
export function tokenize(src) {
  const tokens = [];
  let i = 0;
  while (i < src.length) {
    const ch = src[i];
    if (WHITESPACE.has(ch)) {
      i += 1;
      continue;
    }
    let token;
    if (ch === '#') token = readComment(src, i);
    else if (ch === '"' || ch === "'") token = readString(src, i);
    else if (ch === '$') token = readVariable(src, i);
    else if (isDigit(ch)) token = readNumber(src, i) ?? readWord(src, i);
    else token = readOperator(src, i) ?? readWord(src, i);
    if (token.end <= i) throw new TokenizeError(\`unexpected \${JSON.stringify(ch)}\`, i);
    tokens.push(token);
    i = token.end;
  }
  return tokens;
}

/** The token values only: what most callers want. */
export function words(src) {
  return tokenize(src)
    .filter((token) => token.type !== 'comment')
    .map((token) => token.value);
}

/** Joins tokens back into a command line that tokenizes to the same values. */
export function join(values) {
  return values
    .map((value) => {
      const text = String(value);
      if (text !== '' && [...text].every((ch) => isWordChar(ch) && ch !== '"' && ch !== "'")) return text;
      return \`"\${text.replaceAll('\\\\\\\\', '\\\\\\\\\\\\\\\\').replaceAll('"', '\\\\\\\\"')}"\`;
    })
    .join(' ');
}
`;

/** The module's tests; FAILING_TEST fails until the bug is fixed. */
export const TOKENIZE_TEST = `import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { join, tokenize, TokenizeError, words } from '../src/tokenize.js';

describe('tokenize', () => {
  it('splits words on whitespace', () => {
    assert.deepEqual(words('git  commit\\t-m'), ['git', 'commit', '-m']);
  });

  it('reads operators between words', () => {
    assert.deepEqual(words('make && make test || echo failed'), ['make', '&&', 'make', 'test', '||', 'echo', 'failed']);
  });

  it('reads numbers as numbers', () => {
    assert.deepEqual(words('head -n 20'), ['head', '-n', 20]);
  });

  it('keeps numbers glued to words as words', () => {
    assert.deepEqual(words('sleep 5s'), ['sleep', '5s']);
  });

  it('reads single- and double-quoted strings', () => {
    assert.deepEqual(words(\`echo 'a b' "c d"\`), ['echo', 'a b', 'c d']);
  });

  it('${FAILING_TEST}', () => {
    assert.deepEqual(words('echo "say \\\\"hi\\\\" now"'), ['echo', 'say "hi" now']);
  });

  it('reads variables with and without braces', () => {
    assert.deepEqual(tokenize('echo $HOME \${PATH}').map((t) => t.type), ['word', 'variable', 'variable']);
  });

  it('drops comments from words()', () => {
    assert.deepEqual(words('ls -la # list everything'), ['ls', '-la']);
  });

  it('reports an unterminated string with its offset', () => {
    assert.throws(() => tokenize('echo "open'), TokenizeError);
  });

  it('joins values back into an equivalent command line', () => {
    const values = ['printf', '%s\\\\n', 'two words'];
    assert.deepEqual(words(join(values)), values);
  });
});
`;

/** The 1-based line of TOKENIZE_TEST that holds FAILING_TEST's assertion (its stack frame in the log). */
export function failingAssertionLine(): number {
  const lines = TOKENIZE_TEST.split('\n');
  const title = lines.findIndex((line) => line.includes(`it('${FAILING_TEST}'`));
  return title + 2;
}
