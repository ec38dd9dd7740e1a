import { ModelPrice, type PricingConfig, parseOrThrow, ValidationError } from '@distil/contract';
import { z } from 'zod';
import shipped from './catalog.json' with { type: 'json' };

/** One catalog entry: a model's prices and which provider bills it. */
const CatalogEntry = ModelPrice.extend({ provider: z.enum(['anthropic', 'openai', 'other']) });

/** The dated price catalog shipped with Distil (`catalog.json`): list prices, USD per million tokens. */
export const PriceCatalog = z
  .object({
    asOf: z.iso.date(),
    currency: z.string(),
    kind: z.string(),
    notes: z.array(z.string()),
    sources: z.array(z.string()),
    models: z.record(z.string().min(1), CatalogEntry),
  })
  .strict();
export type PriceCatalog = z.infer<typeof PriceCatalog>;

/** A model's prices, with where they came from. */
export interface ResolvedPrice {
  readonly model: string;
  readonly price: ModelPrice;
  /** `catalog (list prices as of DATE)` or `config (pricing.models)`. */
  readonly source: string;
}

/** The shipped catalog, validated once. */
export const PRICE_CATALOG: PriceCatalog = parseOrThrow(PriceCatalog, shipped, 'pricing catalog.json');

/** Every model name a lookup can resolve: the catalog's plus the config's (config wins on a clash). */
export function knownModels(config?: Pick<PricingConfig, 'models'>): string[] {
  return [...new Set([...Object.keys(PRICE_CATALOG.models), ...Object.keys(config?.models ?? {})])].sort();
}

/**
 * The prices of `model` (default: the config's `pricing.model`). Models in `pricing.models` override and
 * extend the catalog. A dated snapshot name (`claude-sonnet-4-5-20250929`, `gpt-4o-2024-08-06`) resolves
 * to its base model. An unknown model is a ValidationError listing the known ones.
 */
export function resolvePrice(model: string | undefined, config?: PricingConfig): ResolvedPrice {
  const wanted = model ?? config?.model ?? 'claude-sonnet-4-5';
  for (const name of [wanted, withoutSnapshotDate(wanted)]) {
    const configured = config?.models[name];
    if (configured) return { model: name, price: configured, source: 'config (pricing.models)' };
    const entry = PRICE_CATALOG.models[name];
    if (entry) {
      const { provider: _provider, ...price } = entry;
      return { model: name, price, source: `catalog (list prices as of ${PRICE_CATALOG.asOf})` };
    }
  }
  throw new ValidationError('pricing', [
    {
      path: 'pricing.model',
      message: `unknown model "${wanted}"; known: ${knownModels(config).join(', ')} (add others under pricing.models)`,
    },
  ]);
}

function withoutSnapshotDate(model: string): string {
  return model.replace(/-(\d{8}|\d{4}-\d{2}-\d{2})$/, '');
}
