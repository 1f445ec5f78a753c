// Cheap checks that let the per-turn hooks return early without loading the
// parser, the consolidation core or the transcript reader: most turns end
// with no findings written and little new transcript.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type EchoPaths, isRoleName } from '../fs/echo-paths.ts';
import { readSessionState } from '../session/session-state.ts';
import { isFindingsFileName } from './role-listing.ts';

export function hasPendingFindings(paths: EchoPaths): boolean {
  let roles: string[];
  try {
    roles = readdirSync(paths.echoes);
  } catch {
    return false;
  }
  for (const role of roles) {
    if (!isRoleName(role)) continue;
    try {
      if (readdirSync(join(paths.echoes, role)).some((f) => isFindingsFileName(f))) return true;
    } catch {
      /* a file, or raced away */
    }
  }
  return false;
}

/**
 * Bytes of transcript this session's hooks have not read yet. The draft only
 * needs refreshing when this grows large: crash recovery and SessionEnd read
 * the rest from the saved offset, so skipping a refresh loses nothing; it
 * only bounds how much SessionEnd (≈1.5 s budget) must read.
 */
/** How old a session's "still running" note may get before Stop renews it (crash recovery orders by it). */
const TOUCH_AFTER_MS = 5 * 60 * 1000;

export function transcriptProgress(
  paths: EchoPaths,
  sessionId: string,
  transcriptPath: string,
  now: Date,
): { unread: number; known: boolean } {
  const state = readSessionState(paths, sessionId);
  // Known: the state already records this session as running, with this transcript, recently.
  const known =
    state !== null &&
    !state.ended &&
    state.transcriptPath === transcriptPath &&
    now.getTime() - Date.parse(state.updatedAt) < TOUCH_AFTER_MS;
  let size = 0;
  try {
    size = statSync(transcriptPath).size;
  } catch {
    return { unread: 0, known };
  }
  if (!state) return { unread: size, known };
  return { unread: size >= state.offset ? size - state.offset : size, known };
}
