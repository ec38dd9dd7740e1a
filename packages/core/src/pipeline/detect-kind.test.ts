import { describe, expect, it } from 'vitest';
import { detectKind } from './detect-kind.js';

describe('detectKind', () => {
  it('recognises JSON, diffs, source, logs and plain tool output', () => {
    expect(detectKind('  {"items": [{"id": 1}]}')).toBe('json');
    expect(detectKind('[1, 2, 3]\n')).toBe('json');
    expect(detectKind('diff --git a/x.ts b/x.ts\n--- a/x.ts\n+++ b/x.ts\n@@ -1,2 +1,2 @@\n-a\n+b\n')).toBe(
      'diff',
    );
    const ts =
      "import { a } from './a.js';\n\nexport function f(x: number): number {\n  return x;\n}\nexport const g = 1;\nclass K {}\n";
    expect(detectKind(ts)).toBe('source');
    const py =
      'from os import path\nimport sys\n\n\ndef main(argv):\n    return 0\n\nclass Thing:\n    pass\n';
    expect(detectKind(py)).toBe('source');
    const log = Array.from(
      { length: 20 },
      (_, i) => `2024-01-02T03:04:${String(i).padStart(2, '0')}Z INFO request ${i} served`,
    ).join('\n');
    expect(detectKind(log)).toBe('log');
    expect(detectKind('total 12\ndrwxr-xr-x 2 root root 4096 a\n-rw-r--r-- 1 root root 10 b\n')).toBe(
      'tool_output',
    );
  });

  it('treats text that only starts like JSON as not JSON', () => {
    expect(detectKind('{ not json at all\nline two\n')).toBe('tool_output');
    expect(detectKind('')).toBe('tool_output');
  });
});
