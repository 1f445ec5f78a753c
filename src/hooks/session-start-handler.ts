// Reads EPHEMERAL.md (or recovers a crashed session's summary), prunes between
// sessions, injects the digest, then consumes EPHEMERAL.md and logs the ids.
import { readTextOrNull, writeFileAtomic } from '../store/atomic-file.ts';
import { consolidateAll } from '../store/consolidate-all.ts';
import { looksUnreadable } from '../store/echo-store.ts';
import { digestFromStore } from '../store/memory-digest.ts';
import { markHookRun } from '../store/hook-runs.ts';
import { recoverPreviousSession } from '../store/session-recovery.ts';
import { appendUsage } from '../store/usage-log.ts';
import { join } from 'node:path';
import type { HookContext, HookResult } from './run-hook.ts';

export async function sessionStart(ctx: HookContext): Promise<HookResult> {
  const { paths, config, now, input } = ctx;
  markHookRun(paths, 'session-start', now);
  if (ctx.env.RUNE_ECHOES_DISABLE === '1' || !config.inject) return {};
  const sessionId = input.session_id ?? 'unknown';
  // What this session was given at its start, kept so `compact` can give it again.
  const givenFile = join(paths.stateDir, 'given-last-session.md');
  let lastSession: string;
  let unreadable = false;
  if (input.source === 'compact') {
    lastSession = readTextOrNull(givenFile) ?? '';
  } else {
    lastSession = readTextOrNull(paths.ephemeral) ?? '';
    if (looksUnreadable(lastSession)) {
      // Keep the file for the user to inspect; never inject or overwrite it.
      ctx.log(`${paths.ephemeral} is not text; left as it is and not injected`);
      lastSession = '';
      unreadable = true;
    }
    if (lastSession.trim() === '') lastSession = (await recoverPreviousSession(paths, sessionId, now, ctx.log)) ?? '';
    const { errors } = consolidateAll(paths, config, now, true);
    for (const e of errors) ctx.log(`consolidation: ${e}`);
  }
  const { digest, errors } = digestFromStore(paths, config, lastSession, now);
  for (const e of errors) ctx.log(e);
  if (input.source !== 'compact') {
    writeFileAtomic(paths, givenFile, lastSession);
    // Consumed: the next session gets this one's summary, not the old one again.
    if (!unreadable && readTextOrNull(paths.ephemeral)) writeFileAtomic(paths, paths.ephemeral, '');
  }
  appendUsage(paths, { ts: now.toISOString(), session: sessionId, event: 'injected', ids: digest.injectedIds, tokens: digest.tokens });
  return { additionalContext: digest.text };
}
