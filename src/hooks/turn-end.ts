// Shared by Stop and SubagentStop: consolidation without pruning (never in the
// middle of a session), and for the main session, the running draft. Heavy
// code is imported only when there is work, so a quiet turn costs little more
// than starting node.
import { hasPendingFindings, transcriptProgress } from '../store/memory/pending-work.ts';
import { dropSlashArgs } from '../store/session/slash-args.ts';
import { guarded, type HookContext } from './run-hook.ts';

/** Unread transcript above which Stop refreshes the draft (keeps SessionEnd's read short). */
export const DRAFT_REFRESH_BYTES = 512 * 1024;

export async function turnEnd(ctx: HookContext, draft: boolean): Promise<void> {
  const { paths, config, now, input, deadline } = ctx;
  // A `/rune:echoes` prompt's arguments, kept as typed for the command's CLI call, go at the turn's end.
  if (draft && input.session_id) dropSlashArgs(paths, input.session_id);
  // Merging findings and reading a long transcript tail need not hold up the turn: a background worker
  // does them. The CLI's reading commands wait for it, so a parent that looks finds its subagent's lessons.
  const pending = hasPendingFindings(paths);
  const progress =
    draft && !input.stop_hook_active && input.session_id && input.transcript_path
      ? transcriptProgress(paths, input.session_id, input.transcript_path, now)
      : null;
  if ((pending || (progress && progress.unread >= DRAFT_REFRESH_BYTES)) && (await ctx.later())) return;
  if (pending) {
    const { consolidateAll } = await import('../store/memory/consolidate-all.ts');
    const { errors, reports } = await consolidateAll(paths, config, { now, prune: false, deadline });
    for (const e of errors) ctx.log(`consolidation: ${e}`);
    // A worker brings the index and the subagents' role digests up to date with the new entries,
    // so that the next prompt's recall and the next subagent's start need not.
    if (reports.length && ctx.env.RUNE_ECHOES_WORKER === '1') {
      const { refreshIndex } = await import('../store/recall/search-index.ts');
      await guarded(ctx, 'search index', () => refreshIndex(paths, deadline), undefined);
      const { prepareRoleDigests } = await import('../store/recall/role-digest-cache.ts');
      await guarded(ctx, 'role digests', () => prepareRoleDigests(paths, config, now), undefined);
    }
  }
  if (!progress || !input.session_id || !input.transcript_path) return;
  const { unread, known } = progress;
  if (unread < DRAFT_REFRESH_BYTES) {
    // Note that this session is alive and where its transcript is, for crash recovery,
    // unless the state already says so.
    if (!known) {
      const { touchSession } = await import('../store/session/session-touch.ts');
      touchSession(paths, input.session_id, input.transcript_path, now, deadline);
    }
    return;
  }
  const { advanceSession } = await import('../store/session/session-lifecycle.ts');
  const { claudeProcessId } = await import('../store/session/claude-process.ts');
  await advanceSession(
    paths,
    { sessionId: input.session_id, transcriptPath: input.transcript_path, ownerPid: claudeProcessId() },
    { now, deadline, log: ctx.log },
  );
}
