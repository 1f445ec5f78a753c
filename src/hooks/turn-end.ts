// Shared by Stop and SubagentStop: consolidation without pruning (never in the
// middle of a session), and for the main session, the running draft.
import { consolidateAll } from '../store/consolidate-all.ts';
import { markHookRun } from '../store/hook-runs.ts';
import { advanceSession } from '../store/session-lifecycle.ts';
import { claudeProcessId } from '../store/claude-process.ts';
import type { HookContext } from './run-hook.ts';

export async function turnEnd(ctx: HookContext, hook: 'stop' | 'subagent-stop', draft: boolean): Promise<void> {
  const { paths, config, now, input } = ctx;
  markHookRun(paths, hook, now);
  const { errors } = consolidateAll(paths, config, now, false);
  for (const e of errors) ctx.log(`consolidation: ${e}`);
  if (draft && !input.stop_hook_active && input.session_id && input.transcript_path) {
    await advanceSession(paths, { sessionId: input.session_id, transcriptPath: input.transcript_path, ownerPid: claudeProcessId() }, now, []);
  }
}
