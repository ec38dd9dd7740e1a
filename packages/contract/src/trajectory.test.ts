import { describe, expect, it } from 'vitest';
import { Trajectory } from './trajectory.js';
import { parseOrThrow, ValidationError } from './validation.js';

const valid = {
  id: 'sre-disk-incident',
  turns: [
    {
      blocks: [
        { id: 'system', role: 'system', kind: 'doc', text: 'You are an SRE.', trusted: true },
        { id: 'obs-0', role: 'tool', kind: 'tool_output', text: '/dev/sda1 94% /var', tool: 'bash' },
      ],
      decision: { type: 'tool_call', tool: 'bash', arguments: { command: 'du -sh /var/log' } },
    },
    { blocks: [], decision: { type: 'final', text: 'DECISION: rotate /var/log/app.log' } },
  ],
};

describe('Trajectory', () => {
  it('parses a valid trajectory and fills defaults', () => {
    const t = Trajectory.parse(valid);
    expect(t.format).toBe('distil.trajectory/v1');
    expect(t.outcome).toBeNull();
    expect(t.turns[0]?.blocks[1]?.trusted).toBe(false);
  });

  it('names the turn, block and field that is wrong', () => {
    const bad = structuredClone(valid) as { turns: { blocks: { kind: string }[]; decision: unknown }[] };
    bad.turns[0]!.blocks[1]!.kind = 'binary';
    bad.turns[1]!.decision = { type: 'tool_call' };
    try {
      parseOrThrow(Trajectory, bad, 'trajectory');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      const paths = (error as ValidationError).issues.map((i) => i.path);
      expect(paths).toEqual(['turns.0.blocks.1.kind', 'turns.1.decision.tool']);
    }
  });

  it('needs at least one turn', () => {
    expect(Trajectory.safeParse({ id: 'x', turns: [] }).success).toBe(false);
  });
});
