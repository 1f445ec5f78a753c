// Per-session hook state in .claude/echoes/.state/sessions/<id>.json: how far
// the transcript has been read, the running draft of the whole session (so a
// crash loses nothing) and the span not yet checkpointed to an archive log.
import { mkdirSync, readdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { CaptureState } from '../../core/capture/capture-tracker.ts';
import { isEmptySummary, type SessionSummary } from '../../core/session/summary-model.ts';
import { compareText } from '../../core/text.ts';
import { readTextOrNull, removeFile, writeFileAtomic } from '../fs/atomic-file.ts';
import type { EchoPaths } from '../fs/echo-paths.ts';
import type { Deadline } from '../fs/role-lock.ts';
import { processAlive } from './claude-process.ts';

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
  /** The Claude Code process that last ran a hook for this session. */
  ownerPid?: number;
  /**
   * Set when an ended session was resumed: whether the part since did work. Only then does it
   * hand itself on again (a resumed session that only says hello must not replace a newer hand-off).
   */
  resumed?: { worked: boolean };
  /** What capture gathered from the transcript so far (SPEC §6a). */
  capture?: CaptureState;
  /** Signatures of the lessons capture already gave for this session (an earlier capture, before a compaction). */
  captured?: string[];
  /** How far each subagent transcript (`<transcript>/subagents/agent-*.jsonl`) was read, by file name. */
  subagents?: Record<string, number>;
  /** Set when the transcript could not be read: not tried again until its size changes. */
  transcriptError?: { path: string; size: number; message: string };
}

/** EPHEMERAL.md's lock sits beside the session files: in user scope they are shared by every project. */
export const ephemeralLockOptions = (paths: EchoPaths, deadline: Deadline) => ({
  waitMs: 3000,
  dir: join(paths.memoriesDir, '.locks'),
  deadline,
});

/** What the current session was given at its start, so `compact` can give it again. */
export const givenFile = (paths: EchoPaths): string => join(paths.stateDir, 'given-last-session.md');

/** Session ids come from Claude Code (UUIDs); anything else is reduced to a safe file name. */
export const safeSessionKey = (id: string): string => id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 100) || 'unknown';

// Sessions that are running or have work left sit in sessions/; ended and
// fully archived ones move to sessions/ended/, so the scan at every
// SessionStart reads only the few that matter, however long the history.
const sessionsDir = (paths: EchoPaths) => join(paths.stateDir, 'sessions');
const endedDir = (paths: EchoPaths) => join(sessionsDir(paths), 'ended');
export const sessionStateFile = (paths: EchoPaths, id: string) => join(sessionsDir(paths), `${safeSessionKey(id)}.json`);
const endedStateFile = (paths: EchoPaths, id: string) => join(endedDir(paths), `${safeSessionKey(id)}.json`);
// An ended session whose span holds nothing is settled too: otherwise every later SessionEnd and search would take it up again.
const isSettled = (s: SessionState) => s.ended && (s.span === null || isEmptySummary(s.span));

export function newSessionState(sessionId: string, transcriptPath: string, now: Date): SessionState {
  return { sessionId, transcriptPath, offset: 0, draft: null, span: null, archiveLogs: [], ended: false, updatedAt: now.toISOString() };
}

export function readSessionState(paths: EchoPaths, id: string): SessionState | null {
  const text = readTextOrNull(paths, sessionStateFile(paths, id)) ?? readTextOrNull(paths, endedStateFile(paths, id));
  if (text === null) return null;
  try {
    const v = JSON.parse(text) as SessionState;
    return typeof v.offset === 'number' && typeof v.sessionId === 'string' ? v : null;
  } catch {
    return null; // a torn or hand-edited state file: start over for this session
  }
}

export function writeSessionState(paths: EchoPaths, state: SessionState): void {
  const active = sessionStateFile(paths, state.sessionId);
  const ended = endedStateFile(paths, state.sessionId);
  // Always written where readers look first; a settled state then moves by one rename,
  // so a kill at any instant leaves one current copy, never an old one in front.
  writeFileAtomic(paths, active, JSON.stringify(state), { durable: false });
  if (isSettled(state)) {
    mkdirSync(endedDir(paths), { recursive: true });
    renameSync(active, ended);
  } else {
    removeFile(paths, ended);
  }
}

/** Deletes settled states older than `maxAgeMs`; run once in a while, not on every hook. */
export function pruneEndedStates(paths: EchoPaths, now: Date, maxAgeMs = KEEP_ENDED_MS): number {
  let removed = 0;
  let names: string[] = [];
  try {
    names = readdirSync(endedDir(paths));
  } catch {
    return 0;
  }
  for (const n of names) {
    const file = join(endedDir(paths), n);
    try {
      if (now.getTime() - statSync(file).mtimeMs > maxAgeMs) {
        removeFile(paths, file);
        removed++;
      }
    } catch {
      /* raced away */
    }
  }
  return removed;
}

/** How long the state of an ended, fully archived session is kept (for a late --resume). */
export const KEEP_ENDED_MS = 30 * 24 * 3600 * 1000;

export interface SessionScan {
  /** Started but never ended (crashed, killed), newest first. */
  unfinished: SessionState[];
  /** Ended, with a span still waiting for its final archive log. */
  pendingFinal: SessionState[];
}

/**
 * One pass over the other sessions' state files in sessions/. A settled one
 * found there is moved to ended/ (see pruneEndedStates for deletion).
 */
export function scanSessions(paths: EchoPaths, exceptId: string): SessionScan {
  let names: string[] = [];
  try {
    names = readdirSync(sessionsDir(paths));
  } catch {
    return { unfinished: [], pendingFinal: [] };
  }
  const unfinished: SessionState[] = [];
  const pendingFinal: SessionState[] = [];
  for (const n of names) {
    if (!n.endsWith('.json')) continue;
    const id = n.slice(0, -5);
    if (id === safeSessionKey(exceptId)) continue;
    const s = readSessionState(paths, id);
    if (!s) continue;
    // A session whose Claude Code process still runs (another terminal) is live, not crashed.
    if (!s.ended) {
      if (!processAlive(s.ownerPid)) unfinished.push(s);
    } else if (!isSettled(s)) pendingFinal.push(s);
    else writeSessionState(paths, s); // settled: moves it to ended/
  }
  const newestFirst = (a: SessionState, b: SessionState) => compareText(b.updatedAt, a.updatedAt);
  return { unfinished: unfinished.sort(newestFirst), pendingFinal: pendingFinal.sort((a, b) => -newestFirst(a, b)) };
}
