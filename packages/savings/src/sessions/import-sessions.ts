import { readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { importClaudeCodeLog, looksLikeClaudeCodeLog } from './claude-code-log.js';
import { importCodexRollout, looksLikeCodexRollout } from './codex-rollout.js';
import { sessionsFromTrajectories } from './from-trajectory.js';
import { readJsonLines } from './json-lines.js';
import type { RecordedSession } from './recorded-session.js';

/** A file that held no session, and why. */
export interface SkippedFile {
  readonly file: string;
  readonly reason: string;
}

/** What a search for sessions found. */
export interface FoundSessions {
  readonly sessions: RecordedSession[];
  readonly skipped: SkippedFile[];
}

/** Where the agents keep their logs: Claude Code's projects folder and Codex's sessions folder. */
export function defaultSessionFolders(env: NodeJS.ProcessEnv = process.env): string[] {
  const claude = env['CLAUDE_CONFIG_DIR'] ?? join(homedir(), '.claude');
  const codex = env['CODEX_HOME'] ?? join(homedir(), '.codex');
  return [join(claude, 'projects'), join(codex, 'sessions')];
}

/** The files a session can be read from. */
const SESSION_FILE = /\.(jsonl|json|traj|ya?ml)$/i;

/**
 * Every session in `paths` (files, or folders searched recursively), in path order: Claude Code logs
 * (subagent logs included), Codex rollouts, SWE-agent `.traj` files and demonstrations, OpenHands
 * `output.jsonl`, and Distil trajectories. `since` keeps only files modified at or after it. A file that
 * holds no session, or that no importer reads, is listed with its reason; it never stops the search.
 */
export function importSessions(paths: readonly string[], since?: Date): FoundSessions {
  const sessions: RecordedSession[] = [];
  const skipped: SkippedFile[] = [];
  for (const file of paths.flatMap((p) => sessionFiles(p))) {
    if (since && statSync(file).mtime < since) continue;
    try {
      const found = importFile(file);
      if (found.length === 0) skipped.push({ file, reason: 'not a session log of a known agent' });
      for (const session of found) {
        if (session.calls.length === 0) skipped.push({ file, reason: 'no model call in it' });
        else sessions.push(session);
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      skipped.push({ file, reason: message.replace(/\s*\n\s*/g, ' ').slice(0, 240) });
    }
  }
  return { sessions, skipped };
}

/** The sessions of one file; throws, naming the line or field, when it is not one Distil reads. */
export function importFile(file: string): RecordedSession[] {
  if (/\.jsonl$/i.test(file)) {
    const { records, skipped } = readJsonLines(file);
    if (looksLikeCodexRollout(records)) return [importCodexRollout(records, file, skipped.length)];
    if (looksLikeClaudeCodeLog(records)) return [importClaudeCodeLog(records, file, skipped.length)];
  }
  // Anything else must be a trajectory; when it is not, the error says which formats were tried.
  return sessionsFromTrajectories(file);
}

function sessionFiles(path: string): string[] {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return [];
  if (stat.isFile()) return [path];
  const out: string[] = [];
  for (const entry of readdirSync(path, { withFileTypes: true }).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    const full = join(path, entry.name);
    if (entry.isDirectory()) out.push(...sessionFiles(full));
    else if (entry.isFile() && SESSION_FILE.test(entry.name)) out.push(full);
  }
  return out;
}
