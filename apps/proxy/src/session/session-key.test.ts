import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sessionKey } from './session-key.js';

const headers = { 'x-api-key': 'key-a' };

describe('sessionKey', () => {
  it('gives a conversation one key every turn, and another conversation another', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 200, maxLength: 600 }),
        fc.string({ maxLength: 40 }),
        fc.nat(),
        (system, first, at) => {
          const key = sessionKey(headers, 'anthropic', [system, first]);
          // the same texts as new strings (a later turn parsed again): the same key
          expect(sessionKey(headers, 'anthropic', [`${system} `.slice(0, -1), `${first}`])).toBe(key);
          // one character of the long text changed: another key
          const i = at % system.length;
          const changed = system.slice(0, i) + (system[i] === 'x' ? 'y' : 'x') + system.slice(i + 1);
          expect(sessionKey(headers, 'anthropic', [changed, first])).not.toBe(key);
          // other credentials or another dialect: another key
          expect(sessionKey({ 'x-api-key': 'key-b' }, 'anthropic', [system, first])).not.toBe(key);
          expect(sessionKey(headers, 'openai-chat', [system, first])).not.toBe(key);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('never mistakes a short text for a long one that is hashed by its digest', () => {
    const long = 'system prompt '.repeat(40);
    const digest = createHash('sha256').update(long).digest('hex');
    const byLong = sessionKey(headers, 'anthropic', [long]);
    expect(sessionKey(headers, 'anthropic', [`#${digest}`])).not.toBe(byLong);
    expect(sessionKey(headers, 'anthropic', [digest])).not.toBe(byLong);
  });

  it('uses the session the client names, scoped to its credential', () => {
    const named = { ...headers, 'x-distil-session': 'run-7' };
    expect(sessionKey(named, 'anthropic', ['a'])).toBe(sessionKey(named, 'anthropic', ['b']));
    expect(sessionKey(named, 'anthropic', ['a'])).not.toBe(
      sessionKey({ ...named, 'x-api-key': 'key-b' }, 'anthropic', ['a']),
    );
  });
});
