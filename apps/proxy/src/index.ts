export { RewriteMemory } from './context/last-rewrite.js';
export {
  type DashboardData,
  dashboardData,
  frontierPath,
} from './operate/dashboard/dashboard-data.js';
export { formatUsd, renderDashboard } from './operate/dashboard/dashboard-page.js';
export type { ExchangeObserver, ObservedExchange } from './operate/exchange-observer.js';
export {
  readShadowStats,
  ShadowRunFile,
  type ShadowStats,
  type SkipReason,
  shadowFolder,
} from './operate/shadow/shadow-ledger.js';
export type { ShadowOptions } from './operate/shadow/shadow-sampler.js';
export { type ProportionInterval, wilsonInterval } from './operate/shadow/wilson-interval.js';
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
