import { join } from 'node:path';
import type { ScriptedReply, ToolCallSeen } from '@distil/savings';

/** The two agents the harness drives. */
export type AgentKind = 'claude-code' | 'codex';

/** How a model asks one agent for the few things the scripted session does, and how it recognises them. */
export interface Toolbelt {
  shell(command: string, description: string): ScriptedReply;
  read(path: string): ScriptedReply;
  edit(path: string, before: string, after: string): ScriptedReply;
  isShell(call: ToolCallSeen, command: string): boolean;
  isRead(call: ToolCallSeen, path: string): boolean;
  isEdit(call: ToolCallSeen, path: string): boolean;
}

const field = (input: unknown, name: string): unknown =>
  input && typeof input === 'object' ? (input as Record<string, unknown>)[name] : undefined;

/**
 * Claude Code's tools as its 2.1.3xx tool list names them: Bash, Read (absolute paths, `N\t`-numbered
 * lines) and Edit (exact old_string / new_string; the file must have been read first).
 */
export function claudeCodeToolbelt(cwd: string): Toolbelt {
  const absolute = (path: string): string => (path.startsWith('/') ? path : join(cwd, path));
  return {
    shell: (command, description) => ({ kind: 'tool', name: 'Bash', input: { command, description } }),
    read: (path) => ({ kind: 'tool', name: 'Read', input: { file_path: absolute(path) } }),
    edit: (path, before, after) => ({
      kind: 'tool',
      name: 'Edit',
      input: { file_path: absolute(path), old_string: before, new_string: after },
    }),
    isShell: (call, command) => call.name === 'Bash' && field(call.input, 'command') === command,
    isRead: (call, path) => call.name === 'Read' && field(call.input, 'file_path') === absolute(path),
    isEdit: (call, path) => call.name === 'Edit' && field(call.input, 'file_path') === absolute(path),
  };
}

/**
 * Codex's tools: `exec_command` for the shell (a `max_output_tokens` budget above its 10,000-token
 * default when `fullOutput` is set, as a model asks for when it needs a whole log), `nl -ba` to read a
 * file with line numbers, and the freeform `apply_patch` tool for edits.
 */
export function codexToolbelt(fullOutput: boolean): Toolbelt {
  const exec = (cmd: string): ScriptedReply => ({
    kind: 'tool',
    name: 'exec_command',
    input: fullOutput ? { cmd, max_output_tokens: 200_000 } : { cmd },
  });
  return {
    shell: (command) => exec(command),
    read: (path) => exec(`nl -ba ${path}`),
    edit: (path, before, after) => ({
      kind: 'custom_tool',
      name: 'apply_patch',
      input: [
        '*** Begin Patch',
        `*** Update File: ${path}`,
        '@@',
        ...before.split('\n').map((line) => `-${line}`),
        ...after.split('\n').map((line) => `+${line}`),
        '*** End Patch',
        '',
      ].join('\n'),
    }),
    isShell: (call, command) => call.name === 'exec_command' && field(call.input, 'cmd') === command,
    isRead: (call, path) => call.name === 'exec_command' && field(call.input, 'cmd') === `nl -ba ${path}`,
    isEdit: (call, path) =>
      call.name === 'apply_patch' &&
      typeof call.input === 'string' &&
      call.input.includes(`*** Update File: ${path}`),
  };
}
