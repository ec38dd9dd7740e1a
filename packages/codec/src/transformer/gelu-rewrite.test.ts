import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import onnxProto from 'onnx-proto';
import { afterAll, describe, expect, it } from 'vitest';
import { fusableGelu } from './gelu-rewrite.js';
import { writeBertModelFolder } from './tiny-model.test-helper.js';

const { onnx } = onnxProto;
const SHIPPED = fileURLToPath(new URL('../../models/keep-transformer/onnx/model.onnx', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'distil-gelu-'));

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Op types of the nodes that read an Erf's input, one per Erf. */
function erfInputs(model: Uint8Array): string[] {
  const nodes = onnx.ModelProto.decode(model).graph?.node ?? [];
  const producer = new Map(nodes.flatMap((n) => (n.output ?? []).map((o) => [o, n.opType] as const)));
  return nodes.filter((n) => n.opType === 'Erf').map((n) => producer.get(n.input?.[0] ?? '') ?? '');
}

describe('fusableGelu', () => {
  it('writes every Mul by 1/√2 before an Erf as a Div by √2, and drops the unused constant', async () => {
    const shipped = readFileSync(SHIPPED);
    expect(erfInputs(shipped)).toEqual(['Mul', 'Mul']);
    const rewritten = await fusableGelu(shipped);
    expect(rewritten).not.toBeNull();
    expect(erfInputs(rewritten!)).toEqual(['Div', 'Div']);
    const graph = onnx.ModelProto.decode(rewritten!).graph;
    const read = new Set((graph?.node ?? []).flatMap((n) => n.input ?? []));
    for (const t of graph?.initializer ?? []) expect(read.has(t.name ?? ''), t.name ?? '').toBe(true);
    // Nothing else moved: as many nodes and initializers (one constant swapped for another).
    const before = onnx.ModelProto.decode(shipped).graph;
    expect(graph?.node).toHaveLength(before?.node?.length ?? -1);
    expect(graph?.initializer).toHaveLength(before?.initializer?.length ?? -1);
  });

  it('leaves a graph already in the Div form, and bytes that are no model, alone', async () => {
    const written = writeBertModelFolder(join(root, 'tiny'));
    expect(await fusableGelu(readFileSync(join(written.folder, 'onnx', 'model.onnx')))).toBeNull();
    expect(await fusableGelu(new Uint8Array([1, 2, 3, 250]))).toBeNull();
  });
});
