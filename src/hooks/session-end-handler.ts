import { consolidateAll } from '../store/consolidate-all.ts';
import { readAllEntries } from '../store/echo-store.ts';
import { syncGitignore } from '../store/gitignore.ts';
import { markHookRun } from '../store/hook-runs.ts';
import { advanceSession, checkpointSpan, writeEphemeral } from '../store/session-lifecycle.ts';
import { appendUsage, compactUsage } from '../store/usage-log.ts';
import { referencedIds, watchTermsOf } from '../store/usage-references.ts';
import type { HookContext } from './run-hook.ts';

export async function sessionEnd(ctx: HookContext): Promise<void> {
  const { paths, config, now, input } = ctx;
  markHookRun(paths, 'session-end', now);
  syncGitignore(paths, config.versionControlled);
  const { errors } = consolidateAll(paths, config, now, true);
  for (const e of errors) ctx.log(`consolidation: ${e}`);
  if (!input.session_id || !input.transcript_path) return ctx.log('no session_id or transcript_path on stdin; no summary written');
  const entries = readAllEntries(paths, config).roles.flatMap((r) => r.entries);
  const state = await advanceSession(paths, { sessionId: input.session_id, transcriptPath: input.transcript_path }, now, watchTermsOf(entries), (s) => {
    const { state: after } = checkpointSpan(paths, s, 'session-end', now);
    writeEphemeral(paths, after.draft);
    return { ...after, ended: true };
  });
  if (state.draft) {
    appendUsage(paths, { ts: now.toISOString(), session: input.session_id, event: 'referenced', ids: referencedIds(entries, state.draft) });
  }
  compactUsage(paths, config.relevanceWindow);
}
