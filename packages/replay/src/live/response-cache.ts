import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Decision } from '@distil/contract';
import { z } from 'zod';
import { writeFileAtomic } from '../atomic-file.js';

const CachedDecision = z.object({ version: z.literal(1), decision: Decision }).strict();

/**
 * Decisions of a live model, cached by the SHA-256 of the exact request (endpoint, model, temperature,
 * tools, the whole rendered transcript), one file per request under `folder`. At temperature 0 the same
 * request gets the same decision, so a replay that repeats a context — the full context of a turn is asked
 * for once per ablated block and per dial setting — is paid once. Files are written atomically; one that
 * does not parse is ignored and asked for again.
 */
export class ResponseCache {
  constructor(private readonly folder: string) {}

  /** The content hash of a request. */
  static keyOf(request: unknown): string {
    return createHash('sha256').update(JSON.stringify(request)).digest('hex');
  }

  private pathOf(key: string): string {
    return join(this.folder, key.slice(0, 2), `${key}.json`);
  }

  /** The cached decision for `key`, or undefined. */
  get(key: string): Decision | undefined {
    let text: string;
    try {
      text = readFileSync(this.pathOf(key), 'utf8');
    } catch {
      return undefined;
    }
    try {
      const parsed = CachedDecision.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data.decision : undefined;
    } catch {
      return undefined;
    }
  }

  /** Stores the decision for `key`. */
  put(key: string, decision: Decision): void {
    writeFileAtomic(this.pathOf(key), `${JSON.stringify({ version: 1, decision })}\n`);
  }
}
