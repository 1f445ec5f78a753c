// Between sessions, at SessionStart: close what earlier sessions left open.
// - Ended sessions keep their last span until now, so a `--resume` followed
//   by /compact checkpoints it together with the new turns; here it becomes
//   the session's final archive log.
// - A session that never ended (crash, kill) is recovered (SPEC §8,
//   recall-echo): its Stop draft plus the rest of its transcript become the
//   summary handed on, and its span a `recovery` archive log. Without any
//   state, the latest archive log written since the last start stands in.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { renderEphemeral } from '../core/session-records.ts';
import { isEmptySummary } from '../core/summary-merge.ts';
import { readTextOrNull } from './atomic-file.ts';
import { listArchiveLogs, logFileName } from './archive-logs.ts';
import type { EchoPaths } from './echo-paths.ts';
import { advanceSession, checkpointSpan } from './session-lifecycle.ts';
import { givenFile, pruneEndedStates, type SessionScan } from './session-state.ts';


/** Writes the final archive logs of sessions that ended since the last start. */
export async function flushEndedSessions(paths: EchoPaths, scan: SessionScan, now: Date): Promise<void> {
  for (const s of scan.pendingFinal) {
    await advanceSession(paths, s, now, [], (state) => checkpointSpan(paths, state, 'session-end', now).state);
  }
  // Once per finished session is often enough to keep the settled states bounded.
  if (scan.pendingFinal.length > 0) pruneEndedStates(paths, now);
}

export async function recoverPreviousSession(paths: EchoPaths, scan: SessionScan, now: Date, log: (m: string) => void): Promise<string | null> {
  const [latest, ...older] = scan.unfinished;
  // Older unfinished sessions get their archive log but are not handed on.
  for (const s of older) {
    await advanceSession(paths, s, now, [], (state) => ({ ...checkpointSpan(paths, state, 'recovery', now).state, ended: true }));
  }
  if (latest) {
    const state = await advanceSession(paths, latest, now, [], (s) => ({ ...checkpointSpan(paths, s, 'recovery', now).state, ended: true }));
    if (state.draft && !isEmptySummary(state.draft)) {
      log(`recovered the summary of session ${latest.sessionId}, which did not end cleanly`);
      return renderEphemeral(state.draft);
    }
  }
  const seq = listArchiveLogs(paths).at(-1);
  if (seq === undefined) return null;
  const file = join(paths.memoriesDir, logFileName(seq));
  let consumedAt = 0;
  try { consumedAt = statSync(givenFile(paths)).mtimeMs; } catch { /* first session */ }
  try {
    if (statSync(file).mtimeMs <= consumedAt) return null;
  } catch {
    return null;
  }
  return readTextOrNull(file);
}

