import { SalienceKeepModel } from '@distil/codec';
import { type Block, TierConfig } from '@distil/contract';
import { describe, expect, it } from 'vitest';
import { MemoryRestoreStore } from '../store/memory-store.js';
import { compareSource } from './ast-delta.js';
import { pipelineCompressor } from './block-compressor.js';
import { deltaOf, restoreSentBlock } from './references.js';
import { Session } from './session.js';
import { detectSourceLanguage } from './source-outline.js';
import { applyTextDelta } from './text-delta.js';

const PYTHON = `import os
import sys


def load(path):
    """Read a config file."""
    with open(path) as handle:
        return handle.read()


class Cache:
    """A tiny cache."""

    def __init__(self, size):
        self.size = size
        self.items = {}

    def get(self, key, default=None):
        # look the key up
        return self.items.get(key, default)


def main(argv):
    config = load(argv[1])
    cache = Cache(10)
    print(config, cache.get("x"), file=sys.stderr)
    return 0
`;

/** The same program run through a different formatter, with comments edited: no definition changed. */
const PYTHON_REFORMATTED = `import os
import sys

def load( path ):
    """Read a config file."""
    with open( path ) as handle:
        return handle.read( )

class Cache :
    """A tiny cache."""
    def __init__( self, size ):
        self.size  =  size
        self.items = { }
    def get( self, key, default = None ):
        # find the key (comment reworded)
        return self.items.get( key,
                               default )

def main( argv ):
    config = load( argv[ 1 ] )
    cache = Cache( 10 )
    print( config, cache.get( "x" ), file = sys.stderr )
    return 0
`;

const TYPESCRIPT = `import { readFileSync } from 'node:fs';

/** Reads a config file. */
export function load(path: string): string {
  return readFileSync(path, 'utf8');
}

export class Cache<T> {
  private readonly items = new Map<string, T>();
  constructor(private readonly size: number) {}
  get(key: string, fallback?: T): T | undefined {
    // look the key up
    return this.items.get(key) ?? fallback;
  }
}

export const main = (argv: string[]): number => {
  const config = load(argv[1] ?? 'config.json');
  console.error(config, new Cache<string>(10).get('x'));
  return 0;
};
`;

const TYPESCRIPT_REFORMATTED = `import {readFileSync} from "node:fs"

/**
 * Reads a config file (doc comment reworded).
 */
export function load (path: string): string
{
    return readFileSync(path, "utf8")
}

export class Cache<T>
{
    private readonly items = new Map<string, T>()
    constructor (private readonly size: number) { }
    get (key: string, fallback?: T): T | undefined
    {
        return this.items.get(key) ?? fallback // comment moved
    }
}

export const main = (argv: string[]): number =>
{
    const config = load(argv[1] ?? "config.json")
    console.error(config, new Cache<string>(10).get("x"))
    return 0
}
`;

const keepModel = new SalienceKeepModel();
function newSession(): { session: Session; store: MemoryRestoreStore } {
  const store = new MemoryRestoreStore();
  return {
    session: new Session({
      compress: pipelineCompressor({ keepModel, store, tiers: TierConfig.parse({}) }),
      store,
    }),
    store,
  };
}
const source = (text: string): Block => ({ id: 'f', role: 'tool', kind: 'source', text, trusted: false });

describe('AST-structural delta', () => {
  it('detects the languages of the examples', () => {
    expect(detectSourceLanguage(PYTHON)).toBe('python');
    expect(detectSourceLanguage(TYPESCRIPT)).toBe('typescript');
  });

  it('recognises a reformat-only Python re-read as unchanged', async () => {
    expect(await compareSource('python', PYTHON, PYTHON_REFORMATTED)).toEqual({
      type: 'unchanged',
      definitions: 5,
    });
    const { session, store } = newSession();
    await session.addTurn([source(PYTHON)]);
    const { added } = await session.addTurn([source(PYTHON_REFORMATTED)]);
    expect(added[0]!.encoding).toBe('ast-unchanged');
    expect(added[0]!.text).toContain('none of its 5 top-level definitions changed');
    expect(await restoreSentBlock(added[0]!, store)).toBe(PYTHON_REFORMATTED);
  });

  it('recognises a reformat-only TypeScript re-read as unchanged', async () => {
    expect(await compareSource('typescript', TYPESCRIPT, TYPESCRIPT_REFORMATTED)).toEqual({
      type: 'unchanged',
      definitions: 4,
    });
    const { session } = newSession();
    await session.addTurn([source(TYPESCRIPT)]);
    const { added } = await session.addTurn([source(TYPESCRIPT_REFORMATTED)]);
    expect(added[0]!.encoding).toBe('ast-unchanged');
  });

  it('treats reordered imports as unchanged and reports only the definition that changed', async () => {
    const reordered = PYTHON.replace('import os\nimport sys', 'import sys\nimport os');
    expect((await compareSource('python', PYTHON, reordered)).type).toBe('unchanged');
    const edited = PYTHON_REFORMATTED.replace('return 0', 'return 1');
    const comparison = await compareSource('python', PYTHON, edited);
    expect(comparison.type).toBe('changed');
    if (comparison.type !== 'changed') return;
    expect(comparison.changed.map((d) => d.label)).toEqual(['def main']);
    expect(comparison.removed).toEqual([]);
  });

  it('falls back to the text diff when the re-read has a syntax error', async () => {
    const broken = PYTHON.replace('def main(argv):', 'def main(argv:');
    expect(await compareSource('python', PYTHON, broken)).toEqual({ type: 'unparsed' });
    const { session, store } = newSession();
    await session.addTurn([source(PYTHON)]);
    const { added } = await session.addTurn([source(broken)]);
    expect(added[0]!.encoding).toBe('diff');
    expect(applyTextDelta(PYTHON, deltaOf(added[0]!))).toBe(broken);
    expect(await restoreSentBlock(added[0]!, store)).toBe(broken);

    const brokenTs = TYPESCRIPT.replace('return 0;\n};', 'return 0;\n');
    expect(await compareSource('typescript', TYPESCRIPT, brokenTs)).toEqual({ type: 'unparsed' });
  });

  it('rebuilds the new file exactly from the earlier version and the diff', async () => {
    const edited = PYTHON.replace(
      '        self.size = size\n',
      '        self.size = max(1, size)\n        self.hits = 0\n',
    );
    const { session } = newSession();
    await session.addTurn([source(PYTHON)]);
    const { added } = await session.addTurn([source(edited)]);
    expect(added[0]!.encoding).toBe('diff');
    expect(applyTextDelta(PYTHON, deltaOf(added[0]!))).toBe(edited);
  });
});
