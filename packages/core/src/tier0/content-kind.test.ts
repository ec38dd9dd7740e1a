import { describe, expect, it } from 'vitest';
import { detectKind } from './content-kind.js';

describe('detectKind', () => {
  it('recognises JSON documents, and JSON Lines as a log', () => {
    expect(detectKind('  {"items": [{"id": 1}]}\n')).toBe('json');
    expect(detectKind('[1, 2, 3]')).toBe('json');
    const jsonl = Array.from({ length: 5 }, (_, i) => `{"level":"info","msg":"tick ${i}"}`).join('\n');
    expect(detectKind(jsonl)).toBe('log');
  });

  it('recognises unified diffs', () => {
    expect(
      detectKind(
        'diff --git a/x.ts b/x.ts\nindex 83db48f..bf269f4 100644\n--- a/x.ts\n+++ b/x.ts\n@@ -1,2 +1,2 @@\n-a\n+b\n',
      ),
    ).toBe('diff');
  });

  it('recognises source code', () => {
    const ts =
      'import { x } from "./x.js";\n\nexport function f(a: number): number {\n  const b = a + 1;\n  return b;\n}\n';
    const py =
      'import os\n\n\ndef main():\n    path = os.getcwd()\n    return path\n\n\nclass A:\n    pass\n';
    expect(detectKind(ts)).toBe('source');
    expect(detectKind(py)).toBe('source');
  });

  it('recognises logs by timestamps or levels', () => {
    const log = Array.from(
      { length: 20 },
      (_, i) => `2024-01-02 03:04:${String(i).padStart(2, '0')},123 INFO worker ${i} ready`,
    ).join('\n');
    expect(detectKind(log)).toBe('log');
    const syslog =
      'Dec 10 06:55:46 LabSZ sshd[24200]: Invalid user webmaster\nDec 10 06:55:48 LabSZ sshd[24200]: Failed password\n';
    expect(detectKind(syslog)).toBe('log');
    expect(detectKind('[INFO] Building jar\n[INFO] BUILD SUCCESS\n[ERROR] boom\n')).toBe('log');
  });

  it('recognises prose documents', () => {
    const doc =
      '# Getting started\n\nDistil sits between an agent and the model API. It makes every request cheaper, without changing decisions.\n\n' +
      '- Install it with your package manager, then point the agent at the proxy.\n' +
      'The proxy forwards requests, and it reports the savings it measured.\n';
    expect(detectKind(doc)).toBe('doc');
  });

  it('falls back to tool output', () => {
    expect(detectKind('')).toBe('tool_output');
    expect(detectKind('total 8\ndrwxr-xr-x 2 root root 4096 a\n-rw-r--r-- 1 root root 10 b\n')).toBe(
      'tool_output',
    );
    expect(detectKind('FAIL src/a.test.ts\n  ✕ adds (3 ms)\nTests: 1 failed, 4 passed\n')).toBe(
      'tool_output',
    );
  });

  it('looks at a bounded sample only', () => {
    const big = `${'x'.repeat(50)}\n`.repeat(200_000);
    expect(detectKind(big)).toBe('tool_output');
  });
});
