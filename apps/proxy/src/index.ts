export { type RunningProxy, type StartProxyOptions, startProxy } from './start-proxy.js';
