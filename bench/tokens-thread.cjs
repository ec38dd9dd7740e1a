// The entry of bench/tokens.ts's worker threads. On Node 20 a worker thread gets tsx's require hook from
// `--import`, but not its import hooks, so the TypeScript is loaded with require.
require('./tokens-thread.ts');
