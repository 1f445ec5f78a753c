// Records that a session is running, and where its transcript is, without
// reading the transcript: enough for crash recovery to find it later.

import type { EchoPaths } from '../fs/echo-paths.ts';
import { type Deadline, NO_DEADLINE, withLock } from '../fs/role-lock.ts';
import { claudeProcessId } from './claude-process.ts';
import { newSessionState, readSessionState, safeSessionKey, writeSessionState } from './session-state.ts';

export function touchSession(
  paths: EchoPaths,
  sessionId: string,
  transcriptPath: string,
  now: Date,
  deadline: Deadline = NO_DEADLINE,
): void {
  // Under the session lock, so a concurrent checkpoint's new offset is never rolled back.
  withLock(
    paths,
    `session-${safeSessionKey(sessionId)}`,
    () => {
      const state = readSessionState(paths, sessionId) ?? newSessionState(sessionId, transcriptPath, now);
      writeSessionState(paths, {
        ...state,
        // An ended session started again is a resume: what it did before was handed on already.
        ...(state.ended ? { resumed: { worked: false } } : {}),
        transcriptPath,
        ended: false,
        updatedAt: now.toISOString(),
        ownerPid: claudeProcessId(),
      });
    },
    { waitMs: 3000, deadline },
  );
}
