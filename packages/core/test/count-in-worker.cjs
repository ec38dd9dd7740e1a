// The entry of the worker thread tokens.test.ts starts. On Node 20 a worker thread gets tsx's require hook
// from `--import`, but not its import hooks (nor does an eval'd entry get either), so the TypeScript is
// loaded with require from a file; piscina's workers load the proxy's compress worker the same way.
require('./count-in-worker.ts');
