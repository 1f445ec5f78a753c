// Bundle entry: PreCompact (manual|auto) checkpoints the conversation into an archive log.
// The transcript keeps every line after compaction, so the checkpoint is written by a
// background worker while the session goes on; the handler's code is loaded only there.
import { runHook } from '../run-hook.ts';

runHook('pre-compact', async (ctx) => {
  if (ctx.input.session_id && ctx.input.transcript_path && (await ctx.later())) return;
  const { preCompact } = await import('../pre-compact-handler.ts');
  await preCompact(ctx);
});
