import { PricingConfig, ValidationError } from '@distil/contract';
import { describe, expect, it } from 'vitest';
import { knownModels, PRICE_CATALOG, resolvePrice } from './price-catalog.js';

describe('the price catalog', () => {
  it('is dated and covers current Claude and GPT models with cache prices', () => {
    expect(PRICE_CATALOG.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const model of [
      'claude-opus-4-8',
      'claude-sonnet-4-5',
      'claude-haiku-4-5',
      'gpt-5',
      'gpt-4.1',
      'gpt-4o',
    ]) {
      expect(PRICE_CATALOG.models[model], model).toBeDefined();
    }
    for (const [name, p] of Object.entries(PRICE_CATALOG.models)) {
      expect(p.cacheRead, name).toBeLessThan(p.input);
      expect(p.cacheWrite5m, name).toBeGreaterThanOrEqual(p.input);
      expect(p.cacheWrite1h, name).toBeGreaterThanOrEqual(p.cacheWrite5m);
      expect(p.minCacheableTokens, name).toBeGreaterThanOrEqual(1024);
    }
  });

  it('resolves the configured model, dated snapshots, and models added in the config', () => {
    const config = PricingConfig.parse({
      model: 'claude-sonnet-4-5',
      models: {
        'my-model': {
          input: 1,
          output: 2,
          cacheWrite5m: 1.25,
          cacheWrite1h: 2,
          cacheRead: 0.1,
          minCacheableTokens: 2048,
        },
        'gpt-4o': {
          input: 9,
          output: 9,
          cacheWrite5m: 9,
          cacheWrite1h: 9,
          cacheRead: 1,
          minCacheableTokens: 1024,
        },
      },
    });
    expect(resolvePrice(undefined, config)).toMatchObject({
      model: 'claude-sonnet-4-5',
      price: { input: 3, cacheRead: 0.3 },
    });
    expect(resolvePrice('claude-sonnet-4-5-20250929').model).toBe('claude-sonnet-4-5');
    expect(resolvePrice('my-model', config)).toMatchObject({
      source: 'config (pricing.models)',
      price: { input: 1 },
    });
    expect(resolvePrice('gpt-4o', config).price.input).toBe(9);
    expect(resolvePrice('gpt-4o').price.input).toBe(2.5);
    expect(knownModels(config)).toContain('my-model');
  });

  it('names the field and the known models for an unknown model', () => {
    expect(() => resolvePrice('claude-nonexistent')).toThrow(ValidationError);
    expect(() => resolvePrice('claude-nonexistent')).toThrow(
      /pricing\.model: unknown model "claude-nonexistent"; known: .*claude-opus-4-8/,
    );
  });
});
