import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withoutInjectedContext } from './injected-context.js';

describe('withoutInjectedContext', () => {
  it('takes out the context Claude Code wraps into a user message', () => {
    const text =
      "<system-reminder>\nAs you answer the user's questions, you can use the following context:\n# currentDate\nToday's date is 2026-12-01.\n</system-reminder>\n\nwhy does test_login fail?";
    expect(withoutInjectedContext(text)).toBe('why does test_login fail?');
  });

  it("takes out Codex's environment context and an AGENTS.md body, whatever the tag's name", () => {
    expect(
      withoutInjectedContext(
        '<environment_context>\n  <cwd>/work</cwd>\n  <shell>bash</shell>\n</environment_context>',
      ),
    ).toBe('');
    expect(
      withoutInjectedContext(
        '# AGENTS.md instructions for /work\n\n<INSTRUCTIONS>\nUse pnpm.\n<rules>keep it small</rules>\n</INSTRUCTIONS>',
      ),
    ).toBe('# AGENTS.md instructions for /work');
    expect(withoutInjectedContext('<note kind="x">one line</note>\nfix the parser')).toBe('fix the parser');
  });

  it('keeps markup that is not a line-delimited element', () => {
    const texts = [
      'rename <Button> to <Link> in the header',
      'the tag <b>bold</b> is wrong here',
      '<unclosed>\nplease keep this',
      'a < b and c > d </not-a-closing',
    ];
    for (const text of texts) expect(withoutInjectedContext(text)).toBe(text);
  });

  it('leaves exactly the lines outside the elements, on generated texts', () => {
    const own = fc.array(fc.stringMatching(/^[a-z ]{1,12}$/), { minLength: 0, maxLength: 3 });
    const element = fc.record({
      name: fc.constantFrom('system-reminder', 'environment_context', 'INSTRUCTIONS', 'x'),
      body: fc.array(fc.stringMatching(/^[a-z<> ]{0,12}$/), { maxLength: 3 }),
    });
    fc.assert(
      fc.property(fc.array(fc.tuple(own, fc.option(element)), { minLength: 1, maxLength: 4 }), (pieces) => {
        const lines: string[] = [];
        const kept: string[] = [];
        for (const [words, wrapped] of pieces) {
          lines.push(...words);
          kept.push(...words);
          if (wrapped) lines.push(`<${wrapped.name}>`, ...wrapped.body, `</${wrapped.name}>`);
        }
        const anyElement = pieces.some(([, wrapped]) => wrapped !== null);
        const expected = anyElement ? kept.join('\n').trim() : lines.join('\n');
        expect(withoutInjectedContext(lines.join('\n'))).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });
});
