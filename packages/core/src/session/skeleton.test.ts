import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { restoreBlock } from '../pipeline/restore-block.js';
import { MemoryRestoreStore } from '../store/memory-store.js';
import { SKELETON_MIN_LINES, skeletonDigest } from './skeleton.js';

/** The algorithm's tests use small modules; the default threshold has a test of its own. */
const SMALL = { minLines: 80 };

function pythonModule(functions: number): string {
  let out = 'import json\nfrom pathlib import Path\n\n\nclass Store:\n    """Keeps records on disk."""\n\n';
  for (let i = 0; i < functions; i++) {
    out += `    def method_${i}(self, key: str) -> dict:\n        """Return record ${i}."""\n`;
    for (let j = 0; j < 6; j++) out += `        value_${j} = self.read(key, ${i * 10 + j})\n`;
    out += '        return {"ok": True}\n\n';
  }
  return `${out}\ndef main() -> None:\n    store = Store()\n    for i in range(3):\n        print(store.method_0(str(i)))\n        print(i)\n`;
}

function typescriptModule(functions: number): string {
  let out =
    "import { readFile } from 'node:fs/promises';\n\n/** A store of records. */\nexport class Store {\n";
  for (let i = 0; i < functions; i++) {
    out += `  /** Returns record ${i}. */\n  async method${i}(key: string): Promise<number> {\n`;
    for (let j = 0; j < 6; j++) out += `    const v${j} = await this.read(key, ${i * 10 + j});\n`;
    out += '    return v0 + v5;\n  }\n\n';
  }
  return `${out}}\n\nexport function main(): void {\n  const store = new Store();\n  void store.method0('a');\n  console.log('started');\n  console.log('done');\n}\n`;
}

describe('skeletonDigest', () => {
  it('leaves a file under the default threshold whole: an agent reading it by name wants its lines', async () => {
    const store = new MemoryRestoreStore();
    const text = pythonModule(30);
    expect(text.split('\n').length).toBeLessThan(SKELETON_MIN_LINES);
    expect(await skeletonDigest(text, store)).toBeNull();
    expect(await skeletonDigest(text, store, SMALL)).not.toBeNull();
  });

  it('keeps Python signatures and docstrings, folds bodies, and restores byte for byte', async () => {
    const store = new MemoryRestoreStore();
    const text = pythonModule(12);
    const skeleton = await skeletonDigest(text, store, SMALL);
    expect(skeleton?.outline).toBe('python');
    expect(skeleton!.text).toContain(
      '    def method_3(self, key: str) -> dict:\n        """Return record 3."""\n        << +7 lines, handle=',
    );
    expect(skeleton!.text).toContain('import json');
    expect(skeleton!.text).not.toContain('value_4 = self.read');
    expect(skeleton!.text.length).toBeLessThan(text.length / 2);
    expect(await restoreBlock(skeleton!.text, skeleton!.handles, store)).toBe(text);
  });

  it('keeps TypeScript signatures and doc comments, folds bodies, and restores byte for byte', async () => {
    const store = new MemoryRestoreStore();
    const text = typescriptModule(12);
    const skeleton = await skeletonDigest(text, store, SMALL);
    expect(skeleton?.outline).toBe('typescript');
    expect(skeleton!.text).toContain(
      '  /** Returns record 2. */\n  async method2(key: string): Promise<number> {\n    << +7 lines',
    );
    expect(await restoreBlock(skeleton!.text, skeleton!.handles, store)).toBe(text);
  });

  it('folds indented runs of other languages and of source that does not parse', async () => {
    const store = new MemoryRestoreStore();
    const broken = pythonModule(12).replace('def main() -> None:', 'def main( -> None:');
    const skeleton = await skeletonDigest(broken, store, SMALL);
    expect(skeleton?.outline).toBe('indentation');
    expect(await restoreBlock(skeleton!.text, skeleton!.handles, store)).toBe(broken);
    const c = Array.from(
      { length: 10 },
      (_, i) => `int f${i}(int x) {\n${'  x = x * 3 + 1;\n'.repeat(6)}  return x;\n}\n`,
    ).join('\n');
    const cSkeleton = await skeletonDigest(c, store, SMALL);
    expect(cSkeleton?.text).toContain('int f4(int x) {\n  << +7 lines, handle=');
    expect(await restoreBlock(cSkeleton!.text, cSkeleton!.handles, store)).toBe(c);
  });

  it('leaves short files and files that already print stub syntax alone', async () => {
    const store = new MemoryRestoreStore();
    expect(await skeletonDigest(pythonModule(1), store, SMALL)).toBeNull();
    expect(
      await skeletonDigest(`${pythonModule(12)}# << +3 lines, handle=dh_000000000000 >>\n`, store, SMALL),
    ).toBeNull();
  });

  it('keeps bodies whose handle was expanded', async () => {
    const store = new MemoryRestoreStore();
    const text = pythonModule(12);
    const first = await skeletonDigest(text, store, SMALL);
    const expanded = first!.handles[2]!;
    const again = await skeletonDigest(text, store, { ...SMALL, keepFull: (h) => h === expanded });
    expect(again!.handles).not.toContain(expanded);
    expect(again!.handles).toHaveLength(first!.handles.length - 1);
    expect(await restoreBlock(again!.text, again!.handles, store)).toBe(text);
  });

  it('is reversible on any indented text (property)', async () => {
    const line = fc
      .tuple(
        fc.constantFrom('', '  ', '\t', '    '),
        fc.constantFrom('x = 1', 'call(a)', '', 'if y:', '}', 'end'),
      )
      .map(([i, t]) => i + t);
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { minLength: 80, maxLength: 160 }),
        fc.boolean(),
        async (lines, crlf) => {
          const store = new MemoryRestoreStore();
          const text = lines.join(crlf ? '\r\n' : '\n');
          const skeleton = await skeletonDigest(text, store, { ...SMALL, minFoldLines: 2 });
          if (skeleton) expect(await restoreBlock(skeleton.text, skeleton.handles, store)).toBe(text);
        },
      ),
      { numRuns: 300 },
    );
  });
});
