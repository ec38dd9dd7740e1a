import { SalienceKeepModel } from '@distil/codec';
import { TierConfig } from '@distil/contract';
import { pipelineCompressor, MemoryRestoreStore, simulate } from './src/index.js';
const price = { input: 3, output: 15, cacheWrite5m: 3.75, cacheWrite1h: 6, cacheRead: 0.3, minCacheableTokens: 1024 };
let ids = 0;
const block = (role: any, text: string, kind: any = 'tool_output') => ({ id: `b${ids++}`, role, kind, text, trusted: role !== 'tool' });
function module(n: number, version: number): string {
  let out = 'import os\nimport sys\n\n';
  for (let i = 0; i < n; i++) {
    out += `\ndef handler_${i}(request, retries=3):\n    """Handle request kind ${i}."""\n`;
    out += `    payload = request.get("payload_${i}")\n    if payload is None:\n        raise ValueError("missing payload ${i}")\n`;
    const limit = i === 7 ? 100 + version : 100;
    out += `    for attempt in range(retries):\n        if attempt > ${limit}:\n            break\n    return payload\n`;
  }
  return out;
}
function pytest(v: number): string {
  let out = '============================= test session starts ==============================\n';
  for (let i = 0; i < 30; i++) out += `tests/test_handlers.py::test_handler_${i} ${i === 7 && v < 9 ? 'FAILED' : 'PASSED'} [${Math.round((i / 30) * 100)}%]\n`;
  out += v < 9 ? `FAILED tests/test_handlers.py::test_handler_7 - AssertionError: attempt ${100 + v} > 10\n=== 1 failed, 29 passed in ${(1.5 + v / 10).toFixed(2)}s ===\n` : '=== 30 passed in 1.62s ===\n';
  return out;
}
const turns: any[] = [];
const system = block('system', `You are a coding agent. ${'Follow the repository conventions. '.repeat(120)}`, 'doc');
turns.push({ blocks: [system, block('user', 'handler_7 retries forever; fix it.', 'chat')], decision: { type: 'tool_call', tool: 'read', arguments: { path: 'app.py' } } });
for (let v = 0; v < 10; v++) {
  turns.push({ blocks: [block('assistant', `Reading app.py (pass ${v}).`, 'chat'), block('tool', module(40, v), 'source')], decision: { type: 'tool_call', tool: 'edit', arguments: { path: 'app.py', line: 60 + v } } });
  turns.push({ blocks: [block('assistant', 'Editing the retry limit.', 'chat'), block('tool', 'File updated.')], decision: { type: 'tool_call', tool: 'pytest', arguments: {} } });
  turns.push({ blocks: [block('assistant', 'Running the tests.', 'chat'), block('tool', pytest(v), 'log')], decision: { type: 'tool_call', tool: 'read', arguments: { path: 'app.py' } } });
}
const store = new MemoryRestoreStore(); const keepModel = new SalienceKeepModel();
const compress = pipelineCompressor({ keepModel, store, tiers: TierConfig.parse({}) });
const r = await simulate({ format: 'distil.trajectory/v1', id: 'x', turns, outcome: null }, price, ['cache-only', 'naive', 'distil'], { compress, store, keepModel });
for (const s of r.strategies) { console.log(s.label, s.totals.usd.toFixed(4)); console.log(s.turns.map(t => `${t.requestTokens}/${t.cacheRead}`).join(' ')); }
