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
[ "$(npx distil --version)" = "$(node -p "require('$root/apps/cli/package.json').version")" ] || fail "version"
npx distil compress "$sample" --json >out.json
handle="$(node -p "JSON.parse(require('fs').readFileSync('out.json','utf8')).handles.at(-1)")"
npx distil expand "$handle" | cmp - "$sample" || fail "expand did not give back the original bytes"
npx distil config check >/dev/null || fail "config check"
npx distil templates "$root/datasets/generated/tool_outputs/kubectl-logs/$(ls "$root/datasets/generated/tool_outputs/kubectl-logs" | head -n 1)" --json | head -n 1 | grep -q '"template"' || fail "templates"
node --input-type=module -e "
  const entries = ['@distil/contract', '@distil/codec', '@distil/codec/transformer', '@distil/core',
    '@distil/replay', '@distil/train', '@distil/proxy', '@distil/proxy/mcp', '@distil/cli'];
  for (const name of entries) {
    const m = await import(name);
    if (Object.keys(m).length === 0) throw new Error(name + ' exports nothing');
  }
  const { LogisticKeepModel } = await import('@distil/codec');
  const scores = await LogisticKeepModel.load().scoreLines(['ERROR: disk full', 'ok'], 'log');
  if (!(scores[0] > scores[1])) throw new Error('shipped logistic weights did not load');
" || fail "package entry points"
echo "verify-packages: 7 packages packed, installed with npm and run"
