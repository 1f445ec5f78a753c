// Per-session hook state in .claude/echoes/.state/sessions/<id>.json: how far
// the transcript has been read, the running draft of the whole session (so a
// crash loses nothing) and the span not yet checkpointed to an archive log.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionSummary } from '../core/session-summary.ts';
import { readTextOrNull, writeFileAtomic } from './atomic-file.ts';
import type { EchoPaths } from './echo-paths.ts';

export interface SessionState {
  sessionId: string;
  transcriptPath: string;
  /** Byte offset of the first transcript line not yet read. */
  offset: number;
  draft: SessionSummary | null;
  /** What happened since the last archive log of this session. */
  span: SessionSummary | null;
  archiveLogs: number[];
  ended: boolean;
  updatedAt: string;
}

/** Session ids come from Claude Code (UUIDs); anything else is reduced to a safe file name. */
export const safeSessionKey = (id: string): string => (id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 100) || 'unknown');

const sessionsDir = (paths: EchoPaths) => join(paths.stateDir, 'sessions');
export const sessionStateFile = (paths: EchoPaths, id: string) => join(sessionsDir(paths), `${safeSessionKey(id)}.json`);

export function newSessionState(sessionId: string, transcriptPath: string, now: Date): SessionState {
  return { sessionId, transcriptPath, offset: 0, draft: null, span: null, archiveLogs: [], ended: false, updatedAt: now.toISOString() };
}

export function readSessionState(paths: EchoPaths, id: string): SessionState | null {
  const text = readTextOrNull(sessionStateFile(paths, id));
  if (text === null) return null;
  try {
    const v = JSON.parse(text) as SessionState;
    return typeof v.offset === 'number' && typeof v.sessionId === 'string' ? v : null;
  } catch {
    return null; // a torn or hand-edited state file: start over for this session
  }
}

export function writeSessionState(paths: EchoPaths, state: SessionState): void {
  writeFileAtomic(paths, sessionStateFile(paths, state.sessionId), JSON.stringify(state));
}

/** Sessions that started but never ended (crashed, killed), newest first. */
export function unfinishedSessions(paths: EchoPaths, exceptId: string): SessionState[] {
  let names: string[] = [];
  try {
    names = readdirSync(sessionsDir(paths));
  } catch {
    return [];
  }
  const out: SessionState[] = [];
  for (const n of names) {
    if (!n.endsWith('.json')) continue;
    const id = n.slice(0, -5);
    if (id === safeSessionKey(exceptId)) continue;
    const s = readSessionState(paths, id);
    if (s && !s.ended) out.push(s);
  }
  return out.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
}
