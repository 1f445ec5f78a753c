// Bundle entry: SessionEnd writes EPHEMERAL.md for the next session, then housekeeping.
// Nothing here needs Claude Code to wait: a detached worker does it, with time to spare, and
// only that worker loads the handler's code. If it dies, the session is left as a crash would
// leave it, and the next start recovers it.
import { runHook } from '../run-hook.ts';

runHook('session-end', async (ctx) => {
  if (await ctx.later()) return;
  const { sessionEnd } = await import('../session-end-handler.ts');
  await sessionEnd(ctx);
});
