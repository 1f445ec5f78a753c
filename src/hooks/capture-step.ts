// The capture step of SessionEnd and PreCompact (SPEC §6a): under the
// session's lock, the lessons gathered so far become findings of the team
// role; the signatures given are kept with the session so a later capture of
// it (after a compaction, or a re-run after a kill) counts them against the
// per-session cap instead of adding more. A failure is logged, never thrown:
// the hand-off and the checkpoint must not depend on it.
import { captureOn } from '../core/config/config-defaults.ts';
import { oneLine } from '../core/text.ts';
import { captureLessons } from '../store/capture/capture-lessons.ts';
import type { SessionState } from '../store/session/session-state.ts';
import type { HookContext } from './run-hook.ts';

/** `ended`: the session is over (SessionEnd, a crashed one recovered), not only compacted. */
export function withCapture(ctx: HookContext, state: SessionState, ended: boolean): SessionState {
  if (!captureOn(ctx.config) || !state.capture) return state;
  try {
    const { given } = captureLessons(
      ctx.paths,
      ctx.config,
      { sessionId: state.sessionId, capture: state.capture, draft: state.draft, given: state.captured ?? [], ended },
      ctx.now,
      ctx.deadline,
    );
    return { ...state, captured: given };
  } catch (err) {
    ctx.log(`capture: ${oneLine(err instanceof Error ? err.message : String(err)).slice(0, 300)}`);
    return state;
  }
}
