import { z } from 'zod';

/** A text part of a message, as SWE-agent, Anthropic and OpenAI all write it. */
const TextPart = z.object({ type: z.string(), text: z.string().optional() }).loose();

/** Message content: a string, or a list of parts of which the text parts are read. */
export const MessageText = z.union([z.string(), z.array(TextPart), z.null()]);
export type MessageText = z.infer<typeof MessageText>;

/** The text of message content: the string itself, or its text parts joined by newlines. */
export function textOf(content: MessageText | undefined): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  return content
    .map((part) => part.text)
    .filter((text): text is string => typeof text === 'string')
    .join('\n');
}

/**
 * Splits a shell-like command line into words, honouring single and double quotes and backslash escapes.
 * Written here rather than pulled in: importers only need the words of an agent's command, not a shell.
 */
export function commandWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote) {
      if (ch === quote) quote = null;
      else if (ch === '\\' && quote === '"' && i + 1 < line.length) word += line[++i];
      else word += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (ch === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}
