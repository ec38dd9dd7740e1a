import { writeHeapSnapshot } from 'node:v8';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import { MemoryRestoreStore } from '@distil/core';
import { startProxy } from '@distil/proxy';
import { conversation } from './proxy-dialects.js';
import { MESSAGES_REPLY } from './wire-fixtures.js';

const up = createServer((req, res) => { req.resume(); req.on('end', () => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(JSON.stringify(MESSAGES_REPLY)); }); });
await new Promise<void>((r) => up.listen(0, '127.0.0.1', r));
const port = (up.address() as { port: number }).port;
const proxy = await startProxy({ port: 0, anthropicUpstream: `http://127.0.0.1:${port}`, openaiUpstream: `http://127.0.0.1:${port}`, store: new MemoryRestoreStore(), home: mkdtempSync(join(tmpdir(), 'hp-')), compressWorkers: Number(process.env.W ?? 0), log: () => {} } as never);
const mb = () => { const m = process.memoryUsage(); return `rss ${(m.rss / 2 ** 20).toFixed(0)} heapUsed ${(m.heapUsed / 2 ** 20).toFixed(0)} heapTotal ${(m.heapTotal / 2 ** 20).toFixed(0)} ext ${(m.external / 2 ** 20).toFixed(0)} ab ${(m.arrayBuffers / 2 ** 20).toFixed(0)}`; };
console.log('start', mb());
const N = Number(process.env.N ?? 100);
for (let i = 0; i < N; i++) {
  const r = await fetch(`${proxy.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'k', 'anthropic-version': '2023-06-01', 'x-distil-session': `live-${i}` }, body: conversation(2000 + i, 'messages') });
  await r.text();
  if (i === 0) console.log('after 1', mb());
}
console.log(`after ${N}`, mb());
(globalThis as { gc?: () => void }).gc?.();
console.log('after gc', mb());
if (process.env.SNAP) console.log(writeHeapSnapshot('/tmp/heap/p.heapsnapshot'));
await proxy.close(); up.close();
