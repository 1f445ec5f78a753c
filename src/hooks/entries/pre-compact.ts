// PreCompact (manual|auto): checkpoint what is not yet archived for this session.
import { checkpointSpan, advanceSession } from '../../store/session/session-lifecycle.ts';
import { markHookRun } from '../../store/hook-runs.ts';
import { claudeProcessId } from '../../store/session/claude-process.ts';
import { runHook } from '../run-hook.ts';

runHook('pre-compact', 'PreCompact', async ({ paths, input, now, log }) => {
  markHookRun(paths, 'pre-compact', now);
  if (!input.session_id || !input.transcript_path) return log('no session_id or transcript_path on stdin; nothing to checkpoint');
  const trigger = input.trigger === 'auto' ? 'precompact auto' : 'precompact manual';
  await advanceSession(paths, { sessionId: input.session_id, transcriptPath: input.transcript_path, ownerPid: claudeProcessId() }, now, [], (state) => checkpointSpan(paths, state, trigger, now).state);
}, 25_000);
