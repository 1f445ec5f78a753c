// Reads EPHEMERAL.md (or recovers a crashed session's summary), closes what
// earlier sessions left open, prunes between sessions, injects the digest,
// then consumes EPHEMERAL.md and logs the injected ids.
import { readTextOrNull, writeFileAtomic } from '../store/atomic-file.ts';
import { claudeProcessId } from '../store/claude-process.ts';
import { consolidateAll } from '../store/consolidate-all.ts';
import { looksUnreadable } from '../store/echo-store.ts';
import { markHookRun } from '../store/hook-runs.ts';
import { digestFromStore } from '../store/memory-digest.ts';
import { advanceSession } from '../store/session-lifecycle.ts';
import { flushEndedSessions, givenFile, recoverPreviousSession, scanSessions } from '../store/session-recovery.ts';
import { appendUsage } from '../store/usage-log.ts';
import type { HookContext, HookResult } from './run-hook.ts';

export async function sessionStart(ctx: HookContext): Promise<HookResult> {
  const { paths, config, now, input } = ctx;
  markHookRun(paths, 'session-start', now);
  const sessionId = input.session_id ?? 'unknown';
  const compact = input.source === 'compact';
  let lastSession = '';
  let unreadable = false;
  if (!compact) {
    if (input.session_id) {
      // This session is running (again, on resume): it is nobody's crash to recover.
      const ref = { sessionId, transcriptPath: input.transcript_path ?? '', ownerPid: claudeProcessId() };
      await advanceSession(paths, ref, now, [], (s) => ({ ...s, ended: false }));
    }
    const scan = scanSessions(paths, sessionId, now);
    await flushEndedSessions(paths, scan, now);
    const recovered = await recoverPreviousSession(paths, scan, now, ctx.log);
    lastSession = readTextOrNull(paths.ephemeral) ?? '';
    if (looksUnreadable(lastSession)) {
      // Keep the file for the user to inspect; never inject or overwrite it.
      ctx.log(`${paths.ephemeral} is not text; left as it is and not injected`);
      lastSession = '';
      unreadable = true;
    }
    if (lastSession.trim() === '') lastSession = recovered ?? '';
    const { errors } = consolidateAll(paths, config, now, true);
    for (const e of errors) ctx.log(`consolidation: ${e}`);
  }
  if (ctx.env.RUNE_ECHOES_DISABLE === '1' || !config.inject) return {};
  // On compact the session gets what it was given at its start once more.
  if (compact) lastSession = readTextOrNull(givenFile(paths)) ?? '';
  const { digest, errors } = digestFromStore(paths, config, lastSession, now);
  for (const e of errors) ctx.log(e);
  if (!compact) {
    if (readTextOrNull(givenFile(paths)) !== lastSession) writeFileAtomic(paths, givenFile(paths), lastSession, { durable: false });
    // Consumed: the next session gets this one's summary, not the old one again.
    if (!unreadable && readTextOrNull(paths.ephemeral)) writeFileAtomic(paths, paths.ephemeral, '');
  }
  appendUsage(paths, { ts: now.toISOString(), session: sessionId, event: 'injected', ids: digest.injectedIds, tokens: digest.tokens });
  return { additionalContext: digest.text };
}
