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

  it('recognises a Markdown document, with CRLF line ends, fenced examples or a capped Codex header', () => {
    const doc = [
      '# Quickstart: Workflow Integration',
      '',
      '## Prerequisites',
      '- Python 3.11 with Poetry installed',
      '- A broker reachable at `amqp://localhost:5672//` for the workers to use',
      '',
      '## Setup Steps',
      '1. **Install dependencies**',
      '   ```bash',
      '   poetry install',
      '   poetry run alembic upgrade head',
      '   ```',
      'Add the following to your `.env` so the worker picks up the right broker settings:',
      '| Setting | Meaning |',
      '|---|---|',
      '| BROKER_URL | where tasks are queued |',
    ].join('\n');
    expect(detectKind(doc)).toBe('doc');
    expect(detectKind(doc.replaceAll('\n', '\r\n'))).toBe('doc');
    expect(detectKind(`Total output lines: 143\n\n${doc}`)).toBe('doc');
  });

  it('does not take a log, a status listing or a test report with heading-like lines for a document', () => {
    const ci = ['##[group]Run npm test', '> app@1.0.0 test', '> jest', '##[endgroup]', 'PASS src/a.test.ts'];
    expect(detectKind(ci.join('\n'))).not.toBe('doc');
    const status = ['## main...origin/main', ...Array.from({ length: 30 }, (_, i) => ` M src/file${i}.ts`)];
    expect(detectKind(status.join('\n'))).toBe('tool_output');
    const pytest = [
      '============================= test session starts ==============================',
      '# collected 3 items',
      '# tests/test_a.py .F.',
      '=================================== FAILURES ===================================',
      '____________________________________ test_b ____________________________________',
      '    def test_b():',
      '>       assert add(1, 2) == 4',
      'E       assert 3 == 4',
    ];
    expect(detectKind(pytest.join('\n'))).not.toBe('doc');
  });

  it('reads a shell script as source, and a CI log that echoes shell commands as a log or output', () => {
    const script = [
      '#!/usr/bin/env bash',
      'set -e',
      '',
      'check_feature_branch() {',
      '    local branch="$1"',
      '    if [[ ! "$branch" =~ ^[0-9]{3}- ]]; then',
      '        echo "ERROR: Not on a feature branch" >&2',
      '        return 1',
      '    fi',
      '}',
      '',
      'for arg in "$@"; do',
      '    case "$arg" in',
      '        --json) JSON_MODE=true ;;',
      '    esac',
      'done',
    ];
    expect(detectKind(script.join('\n'))).toBe('source');
    const ci = Array.from({ length: 30 }, (_, i) =>
      i % 3 === 0 ? `+ if [ -f build/${i}.o ]; then rm build/${i}.o; fi` : `compiling module ${i} ... ok`,
    );
    expect(detectKind(ci.join('\n'))).toBe('tool_output');
  });
});
