export { decisionText } from './decision-text.js';
export {
  knownModels,
  PRICE_CATALOG,
  PriceCatalog,
  type ResolvedPrice,
  resolvePrice,
} from './price-catalog.js';
export type { TurnCost } from './request-cost.js';
export { billTurn, type Caching, type RequestSegment, TokenMeter } from './request-cost.js';
export {
  type SimulateOptions,
  type SimulationReport,
  type StrategyReport,
  simulate,
} from './simulate.js';
export { STRATEGIES, type Strategy, type StrategyContext, type StrategyName } from './strategies.js';
