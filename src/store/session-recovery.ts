// Crash recovery (SPEC §8, recall-echo): when EPHEMERAL.md is empty because
// the previous session never reached SessionEnd, rebuild its summary from the
// draft its Stop hooks kept and the rest of its transcript, or fall back to
// the latest archive log.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { renderEphemeral } from '../core/session-records.ts';
import { readTextOrNull } from './atomic-file.ts';
import { listArchiveLogs, logFileName } from './archive-logs.ts';
import type { EchoPaths } from './echo-paths.ts';
import { advanceSession, checkpointSpan } from './session-lifecycle.ts';
import { unfinishedSessions, writeSessionState } from './session-state.ts';
import { isEmptySummary } from '../core/summary-merge.ts';

export async function recoverPreviousSession(paths: EchoPaths, currentId: string, now: Date, log: (m: string) => void): Promise<string | null> {
  const [latest, ...older] = unfinishedSessions(paths, currentId);
  // Older unfinished sessions are closed without a summary; only the latest is handed on.
  for (const s of older) writeSessionState(paths, { ...s, ended: true });
  if (latest) {
    const state = await advanceSession(paths, latest, now, [], (s) => {
      const { state: after } = checkpointSpan(paths, s, 'recovery', now);
      return { ...after, ended: true };
    });
    if (state.draft && !isEmptySummary(state.draft)) {
      log(`recovered the summary of session ${latest.sessionId}, which did not end cleanly`);
      return renderEphemeral(state.draft);
    }
  }
  const seq = listArchiveLogs(paths).at(-1);
  if (seq === undefined) return null;
  const file = join(paths.memoriesDir, logFileName(seq));
  let consumedAt = 0;
  try { consumedAt = statSync(join(paths.stateDir, 'given-last-session.md')).mtimeMs; } catch { /* first session */ }
  try {
    if (statSync(file).mtimeMs <= consumedAt) return null;
  } catch {
    return null;
  }
  return readTextOrNull(file);
}
