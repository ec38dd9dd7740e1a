#!/usr/bin/env bash
# Builds every package, packs it as npm would publish it, installs the tarballs with plain npm in an
# empty project (no workspace, no tsx, no sources), and drives the installed `distil` binary and each
# package's entry points. Proves the packages work installed on their own, not only inside the monorepo.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/packs" "$work/app"

cd "$root"
pnpm build
for dir in packages/* apps/*; do
  (cd "$dir" && pnpm pack --pack-destination "$work/packs" >/dev/null)
done

cd "$work/app"
npm init -y >/dev/null
# onnxruntime-node's install script fetches GPU libraries; the CPU binaries it needs are in the package.
npm install --ignore-scripts --no-audit --no-fund "$work"/packs/*.tgz >/dev/null
export DISTIL_HOME="$work/home"

fail() { echo "verify-packages: $*" >&2; exit 1; }
sample="$root/datasets/generated/tool_outputs/json-api/json-api-03-orders.json"
# Every installed package carries the license text and says where its source lives.
node -e '
  const fs = require("fs");
  for (const name of fs.readdirSync("node_modules/@distil")) {
    const dir = `node_modules/@distil/${name}`;
    if (!fs.readFileSync(`${dir}/LICENSE`, "utf8").includes("Apache License")) throw new Error(`${name}: no LICENSE`);
    const { repository } = JSON.parse(fs.readFileSync(`${dir}/package.json`, "utf8"));
    if (!repository || !repository.url || !repository.directory) throw new Error(`${name}: no repository`);
  }
' || fail "LICENSE and repository in every package"
[ "$(npx distil --version)" = "$(node -p "require('$root/apps/cli/package.json').version")" ] || fail "version"
npx distil compress "$sample" --json >out.json
handle="$(node -p "JSON.parse(require('fs').readFileSync('out.json','utf8')).handles.at(-1)")"
npx distil expand "$handle" | cmp - "$sample" || fail "expand did not give back the original bytes"
npx distil config check >/dev/null || fail "config check"
# The demo transformer installs inside @distil/codec: --keep-model transformer needs no further step.
npx distil compress "$root/datasets/generated/tool_outputs/maven/maven-04-compile-error.log" --keep-model transformer \
  2>summary.txt >/dev/null || fail "compress --keep-model transformer: $(cat summary.txt)"
grep -q "keep model transformer:" summary.txt || fail "the summary does not name the transformer: $(cat summary.txt)"
npx distil templates "$root/datasets/generated/tool_outputs/kubectl-logs/$(ls "$root/datasets/generated/tool_outputs/kubectl-logs" | head -n 1)" --json | head -n 1 | grep -q '"template"' || fail "templates"
node --input-type=module -e "
  const entries = ['@distil/contract', '@distil/codec', '@distil/codec/transformer', '@distil/core',
    '@distil/trajectories', '@distil/battery', '@distil/replay', '@distil/train', '@distil/proxy', '@distil/proxy/mcp', '@distil/savings', '@distil/cli'];
  for (const name of entries) {
    const m = await import(name);
    if (Object.keys(m).length === 0) throw new Error(name + ' exports nothing');
  }
  const { detectTrajectoryFormat } = await import('@distil/trajectories');
  if (detectTrajectoryFormat({ messages: [{ role: 'user', content: 'hi' }], model: 'claude-sonnet-4-5', max_tokens: 8 }) !== 'anthropic-messages')
    throw new Error('@distil/trajectories did not recognise an Anthropic request body');
  const { HOSTILE_CASES } = await import('@distil/battery');
  if (HOSTILE_CASES.length === 0) throw new Error('@distil/battery has no hostile cases');
  // o200k's table is built from the ranks file gpt-tokenizer ships, installed beside @distil/core.
  const { countTokens, sharedTokenTable } = await import('@distil/core');
  if (countTokens('hello world') !== 2 || !(sharedTokenTable() instanceof SharedArrayBuffer))
    throw new Error('@distil/core did not count o200k tokens');
  const { LogisticKeepModel } = await import('@distil/codec');
  const scores = await LogisticKeepModel.load().scoreLines(['ERROR: disk full', 'ok'], 'log');
  if (!(scores[0] > scores[1])) throw new Error('shipped logistic weights did not load');
" || fail "package entry points"
# The installed proxy starts its compress workers from dist/compress-worker.js and compresses a large
# new tool output in one, to the bytes it sends when compressing in its own thread.
node --input-type=module -e "
  import { createServer } from 'node:http';
  const { startProxy } = await import('@distil/proxy');
  const bodies = [];
  const upstream = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => { bodies.push(Buffer.concat(chunks).toString()); res.setHeader('content-type', 'application/json'); res.end('{}'); });
  });
  await new Promise((r) => upstream.listen(0, '127.0.0.1', r));
  const url = 'http://127.0.0.1:' + upstream.address().port;
  const log = Array.from({ length: 2000 }, (_, i) => i === 1000 ? 'ERROR step ' + i + ' failed' : 'INFO step ' + i + ' compiled module_' + i + '.ts').join('\\n');
  const body = JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 8, messages: [
    { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'bash', input: {} }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: log }] }] });
  for (const compressWorkers of [1, 0]) {
    const lines = [];
    const proxy = await startProxy({ port: 0, anthropicUpstream: url, learn: false, config: { proxy: { compressWorkers } }, log: (l) => lines.push(l) });
    await (await fetch(proxy.url + '/v1/messages', { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'k' }, body })).text();
    await proxy.close();
    if (compressWorkers === 1 && !lines.includes('1 compress worker ready')) throw new Error('no compress worker: ' + lines.join('; '));
    if (lines.some((line) => line.includes('tables of their own'))) throw new Error('the worker built its own token table: ' + lines.join('; '));
  }
  upstream.close();
  if (bodies.length !== 2 || bodies[0] !== bodies[1] || !bodies[0].includes('handle=dh_')) throw new Error('pool and in-thread bodies differ');
" || fail "compress workers of the installed proxy"
# distil savings on a small Claude Code log: the installed package finds its client profiles and replays
# the session through the proxy into its billing upstream.
node -e '
  const line = (o) => JSON.stringify({ sessionId: "s1", isSidechain: false, ...o });
  const log = Array.from({ length: 300 }, (_, i) => i === 150 ? "ERROR test_widget failed: expected 3" : `2026-11-30T10:00:${String(i % 60).padStart(2, "0")}Z INFO step ${i} ok`).join("\n");
  const usage = { input_tokens: 3, cache_creation_input_tokens: 9000, cache_read_input_tokens: 0, output_tokens: 40 };
  const lines = [
    line({ type: "user", message: { role: "user", content: "Why did CI fail?" } }),
    line({ type: "assistant", message: { id: "m1", role: "assistant", model: "claude-sonnet-4-5", usage, content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "cat ci.log" } }] } }),
    line({ type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: log }] } }),
    line({ type: "assistant", message: { id: "m2", role: "assistant", model: "claude-sonnet-4-5", usage, content: [{ type: "text", text: "test_widget failed: expected 3" }] } }),
  ];
  require("fs").writeFileSync("session.jsonl", lines.join("\n") + "\n");
'
npx distil savings session.jsonl --json >savings.json || fail "savings"
node -e '
  const { sessions } = JSON.parse(require("fs").readFileSync("savings.json", "utf8"));
  if (sessions.length !== 1 || !(sessions[0].distil < sessions[0].cacheOnly)) throw new Error("savings: " + JSON.stringify(sessions[0]));
' || fail "savings figures"
echo "verify-packages: 10 packages packed, installed with npm and run"
