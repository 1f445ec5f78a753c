// PreCompact (manual|auto): checkpoint what is not yet archived for this session.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { captureOn } from '../core/config/config-defaults.ts';
import { CAPTURE_AGENT, CAPTURE_ROLE } from '../store/capture/capture-lessons.ts';
import { roleDir } from '../store/fs/echo-paths.ts';
import { claudeProcessId } from '../store/session/claude-process.ts';
import { advanceSession, checkpointSpan } from '../store/session/session-lifecycle.ts';
import { withCapture } from './capture-step.ts';
import { guarded, type HookContext } from './run-hook.ts';

export async function preCompact(ctx: HookContext): Promise<void> {
  const { paths, input, now, deadline } = ctx;
  if (!input.session_id || !input.transcript_path) return ctx.log('no session_id or transcript_path on stdin; nothing to checkpoint');
  const trigger = input.trigger === 'auto' ? 'precompact auto' : 'precompact manual';
  const ref = { sessionId: input.session_id, transcriptPath: input.transcript_path, ownerPid: claudeProcessId() };
  await advanceSession(paths, ref, {
    now,
    deadline,
    log: ctx.log,
    update: (state) => withCapture(ctx, checkpointSpan(paths, state, trigger, now, deadline).state, false),
  });
  // The lessons captured so far join the team's memory now: the compacted context no longer holds them.
  // (Only when capture wrote some: consolidating nothing would still create an empty MEMORY.md.)
  if (captureOn(ctx.config) && existsSync(join(roleDir(paths, CAPTURE_ROLE), `${CAPTURE_AGENT}-findings.md`))) {
    const { consolidateRole } = await import('../store/memory/role-consolidation.ts');
    await guarded(
      ctx,
      'consolidating captured lessons',
      () => consolidateRole(paths, ctx.config, CAPTURE_ROLE, { now, prune: false, events: [], deadline }),
      undefined,
    );
  }
}
