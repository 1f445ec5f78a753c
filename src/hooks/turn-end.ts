// Shared by Stop and SubagentStop: consolidation without pruning (never in the
// middle of a session), and for the main session, the running draft. Heavy
// code is imported only when there is work, so a quiet turn costs little more
// than starting node.
import { hasPendingFindings, transcriptProgress } from '../store/memory/pending-work.ts';
import type { HookContext } from './run-hook.ts';

/** Unread transcript above which Stop refreshes the draft (keeps SessionEnd's read short). */
export const DRAFT_REFRESH_BYTES = 512 * 1024;

export async function turnEnd(ctx: HookContext, draft: boolean): Promise<void> {
  const { paths, config, now, input, deadline } = ctx;
  // Findings are merged before the turn goes on (a parent reads its subagent's lessons at once);
  // reading a long transcript tail for the draft is left to a background worker.
  if (hasPendingFindings(paths)) {
    const { consolidateAll } = await import('../store/memory/consolidate-all.ts');
    const { errors } = await consolidateAll(paths, config, { now, prune: false, deadline });
    for (const e of errors) ctx.log(`consolidation: ${e}`);
  }
  if (!draft || input.stop_hook_active || !input.session_id || !input.transcript_path) return;
  const { unread, known } = transcriptProgress(paths, input.session_id, input.transcript_path, now);
  if (unread < DRAFT_REFRESH_BYTES) {
    // Note that this session is alive and where its transcript is, for crash recovery,
    // unless the state already says so.
    if (!known) {
      const { touchSession } = await import('../store/session/session-touch.ts');
      touchSession(paths, input.session_id, input.transcript_path, now, deadline);
    }
    return;
  }
  if (await ctx.later()) return;
  const { advanceSession } = await import('../store/session/session-lifecycle.ts');
  const { claudeProcessId } = await import('../store/session/claude-process.ts');
  await advanceSession(
    paths,
    { sessionId: input.session_id, transcriptPath: input.transcript_path, ownerPid: claudeProcessId() },
    { now, deadline, log: ctx.log },
  );
}
