import { renderEphemeral } from '../../core/session/session-records.ts';
import { didWork } from '../../core/session/session-work.ts';
import { oneLine } from '../../core/text.ts';
import { mtimeOf } from '../fs/atomic-file.ts';
import type { EchoPaths } from '../fs/echo-paths.ts';
import { type Deadline, NO_DEADLINE } from '../fs/role-lock.ts';
import { appendUsage } from '../usage/usage-log.ts';
import { advanceSession, checkpointSpan } from './session-lifecycle.ts';
import { pruneEndedStates, type SessionScan, type SessionState } from './session-state.ts';

/** Writes the final archive logs of sessions that ended (other than the one running). */
export async function flushEndedSessions(
  paths: EchoPaths,
  scan: SessionScan,
  now: Date,
  deadline: Deadline = NO_DEADLINE,
  log: (m: string) => void = () => {},
): Promise<void> {
  for (const s of scan.pendingFinal) {
    await isolated(s, log, () =>
      advanceSession(paths, s, { now, deadline, log, update: (state) => checkpointSpan(paths, state, 'session-end', now, deadline).state }),
    );
  }
  // Once per finished session is often enough to keep the settled states bounded.
  if (scan.pendingFinal.length > 0) pruneEndedStates(paths, now);
}

/** The hand-off of a crashed session that worked: its summary and when it was last seen (epoch ms). */
export interface RecoveredSession {
  text: string;
  at: number;
}

export async function recoverCrashedSessions(
  paths: EchoPaths,
  scan: SessionScan,
  now: Date,
  log: (m: string) => void,
  deadline: Deadline = NO_DEADLINE,
  /** Captures the lessons of a session that never ended (the caller's capture step, SPEC §6a). */
  capture: (state: SessionState) => SessionState = (state) => state,
): Promise<RecoveredSession | null> {
  const [latest, ...older] = scan.unfinished;
  const recover = async (s: SessionState) => {
    const state = await isolated(s, log, () =>
      advanceSession(paths, s, {
        now,
        deadline,
        log,
        update: (state) => ({ ...capture(checkpointSpan(paths, state, 'recovery', now, deadline).state), ended: true }),
      }),
    );
    // What a session that never ended used counts as if it had ended (its reads were watched for use); one that
    // worked counts in the relevance window even when it used nothing.
    const used = state?.draft?.used ?? [];
    if (state?.draft && (state.resumed ? state.resumed.worked : didWork(state.draft)))
      appendUsage(paths, { ts: now.toISOString(), session: s.sessionId, event: 'used', ids: used }, deadline);
    return state;
  };
  // Older unfinished sessions get their archive log but are not handed on.
  for (const s of older) await recover(s);
  if (latest) {
    const state = await recover(latest);
    // Only a session that worked is handed on (SPEC §8): one that did nothing leaves the hand-off as it is.
    if (state?.draft && (state.resumed ? state.resumed.worked : didWork(state.draft))) {
      log(`recovered the summary of session ${latest.sessionId}, which did not end cleanly`);
      // When it last worked: when its transcript was last written (Stop leaves the state as it was while little is unread).
      const stateAt = Date.parse(latest.updatedAt);
      return { text: renderEphemeral(state.draft), at: Math.max(Number.isFinite(stateAt) ? stateAt : 0, mtimeOf(state.transcriptPath)) };
    }
  }
  return null;
}

/** One session's recovery: whatever fails in it is logged, and the others still run. */
async function isolated(s: SessionState, log: (m: string) => void, run: () => Promise<SessionState>): Promise<SessionState | null> {
  try {
    return await run();
  } catch (err) {
    log(`session ${oneLine(s.sessionId).slice(0, 80)}: ${err instanceof Error ? err.message : String(err)}`);
    return null;
  }
}
