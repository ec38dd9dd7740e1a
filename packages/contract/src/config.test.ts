import { describe, expect, it } from 'vitest';
import { DistilConfig } from './config.js';
import { parseOrThrow, ValidationError } from './validation.js';

function issuesOf(input: unknown): string[] {
  try {
    parseOrThrow(DistilConfig, input, 'config');
  } catch (error) {
    if (error instanceof ValidationError) return error.issues.map((i) => `${i.path}: ${i.message}`);
    throw error;
  }
  return [];
}

describe('DistilConfig', () => {
  it('fills every default from an empty object', () => {
    const config = DistilConfig.parse({});
    expect(config.keepModel).toEqual({ type: 'salience' });
    expect(config.restoreStore).toEqual({ type: 'disk', maxBytes: 1024 ** 3, maxAgeDays: 30 });
    expect(config.tiers.keepThreshold).toBe(0.6);
    expect(config.proxy).toMatchObject({
      host: '127.0.0.1',
      port: 8788,
      expandLoopCap: 5,
      maxSessions: 1024,
      awakeSessions: 64,
    });
    expect(config.pricing.model).toBe('claude-sonnet-4-5');
  });

  it('accepts each keep model and store variant', () => {
    const config = DistilConfig.parse({
      keepModel: { type: 'transformer', model: './my-model', fallback: 'salience' },
      restoreStore: { type: 'redis', url: 'redis://127.0.0.1:6379' },
    });
    expect(config.keepModel).toEqual({ type: 'transformer', model: './my-model', fallback: 'salience' });
    expect(config.restoreStore).toMatchObject({ type: 'redis', ttlSeconds: 604800 });
    expect(DistilConfig.parse({ keepModel: { type: 'logistic' } }).keepModel.type).toBe('logistic');
  });

  it('names the field of every error', () => {
    const issues = issuesOf({
      keepModel: { type: 'bert' },
      restoreStore: { type: 'redis', url: 'http://x' },
      tiers: { headLines: -1, extra: 1 },
      proxy: { port: 'x', openaiUpstream: 'ftp://x', awakeSessions: -1 },
    });
    expect(issues).toEqual([
      'keepModel.type: expected type to be one of "salience" | "logistic" | "transformer"',
      'restoreStore.url: expected a redis:// or rediss:// URL',
      'tiers.headLines: Too small: expected number to be >=0',
      'tiers.extra: unknown field',
      'proxy.port: Invalid input: expected number, received string',
      'proxy.openaiUpstream: expected an http:// or https:// URL',
      'proxy.awakeSessions: Too small: expected number to be >=0',
    ]);
  });

  it('rejects unknown top-level fields and short admin tokens', () => {
    expect(issuesOf({ keepModle: {} })).toEqual(['keepModle: unknown field']);
    expect(issuesOf({ proxy: { adminToken: 'short' } })).toEqual([
      'proxy.adminToken: an admin token needs at least 16 characters',
    ]);
  });

  it('validates user-supplied model prices', () => {
    const price = { input: 3, output: 15, cacheWrite5m: 3.75, cacheWrite1h: 6, cacheRead: 0.3 };
    expect(issuesOf({ pricing: { models: { mine: price } } })).toEqual([
      'pricing.models.mine.minCacheableTokens: Invalid input: expected number, received undefined',
    ]);
    const ok = DistilConfig.parse({ pricing: { models: { mine: { ...price, minCacheableTokens: 1024 } } } });
    expect(ok.pricing.models['mine']?.cacheRead).toBe(0.3);
  });
});
