export type { BilledUsage } from './savings/billed-usage.js';
export {
  costUsd,
  type RequestAccount,
  type RequestSavings,
  type SavingsTotals,
  uncompressedUsage,
} from './savings/savings-ledger.js';
export { ADMIN_TOKEN_HEADER, isLoopback, UnsafeBindError } from './server/bind-policy.js';
export { ADMIN_PREFIX, type AdminHandler } from './server/routes.js';
export { type RunningProxy, type StartProxyOptions, startProxy } from './start-proxy.js';
