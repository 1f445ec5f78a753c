// Reads EPHEMERAL.md (or recovers a crashed session's summary), prunes
// between sessions, injects the digest, then consumes EPHEMERAL.md and logs
// the injected ids. Work that can wait (final archive logs of ended
// sessions) is left to the next SessionEnd.
import { readTextFile, readTextOrNull, writeFileAtomic } from '../store/fs/atomic-file.ts';
import { consolidateAll } from '../store/memory/consolidate-all.ts';
import { markHookRun } from '../store/hook-runs.ts';
import { digestFromStore } from '../store/recall/memory-digest.ts';
import { roleSummaries, type RoleSummary } from '../store/memory/entry-cache.ts';
import { ephemeralLockOptions, givenFile, scanSessions } from '../store/session/session-state.ts';
import { touchSession } from '../store/session/session-touch.ts';
import { appendUsage } from '../store/usage/usage-log.ts';
import { withLock } from '../store/fs/role-lock.ts';
import { latestLogSince } from '../store/session/archive-logs.ts';
import { statSync } from 'node:fs';
import type { HookContext, HookResult } from './run-hook.ts';

const mtimeMs = (path: string): number => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
};

export async function sessionStart(ctx: HookContext): Promise<HookResult> {
  const { paths, config, now, input } = ctx;
  markHookRun(paths, 'session-start', now);
  const sessionId = input.session_id ?? 'unknown';
  const compact = input.source === 'compact';
  let lastSession = '';
  let unreadable = false;
  let consumed = '';
  let roles: RoleSummary[] | undefined;
  if (!compact) {
    // This session is running (again, on resume): it is nobody's crash to recover.
    if (input.session_id) touchSession(paths, sessionId, input.transcript_path ?? '', now);
    const scan = scanSessions(paths, sessionId);
    // The transcript reader is loaded only when an earlier session crashed.
    let recovered: string | null = null;
    if (scan.unfinished.length) {
      const { recoverCrashedSessions } = await import('../store/session/session-recovery.ts');
      recovered = await recoverCrashedSessions(paths, scan, now, ctx.log);
    }
    const ephemeral = readTextFile(paths.ephemeral);
    consumed = ephemeral.text ?? '';
    lastSession = consumed;
    if (ephemeral.unreadable) {
      // Keep the file for the user to inspect; never inject or overwrite it.
      ctx.log(`${paths.ephemeral} is not text; left as it is and not injected`);
      lastSession = '';
      unreadable = true;
    }
    if (lastSession.trim() === '') lastSession = recovered ?? latestLogSince(paths, mtimeMs(givenFile(paths))) ?? '';
    roles = await roleSummaries(paths);
    const { errors, reports } = await consolidateAll(paths, config, now, true, roles);
    for (const e of errors) ctx.log(`consolidation: ${e}`);
    // Read again only if consolidation rewrote a memory file.
    if (reports.length) roles = await roleSummaries(paths);
  }
  if (ctx.env.RUNE_ECHOES_DISABLE === '1' || !config.inject) return {};
  // On compact the session gets what it was given at its start once more.
  if (compact) lastSession = readTextOrNull(givenFile(paths)) ?? '';
  const { digest, errors } = digestFromStore(paths, config, roles ?? (await roleSummaries(paths)), lastSession, now);
  for (const e of errors) ctx.log(e);
  if (!compact) {
    if (readTextOrNull(givenFile(paths)) !== lastSession) writeFileAtomic(paths, givenFile(paths), lastSession, { durable: false });
    // Consumed: the next session gets this one's summary, not the old one again. Cleared
    // only if unchanged since it was read: a summary another session wrote meanwhile stays.
    if (!unreadable && consumed) {
      try {
        withLock(paths, 'ephemeral', () => {
          if (readTextOrNull(paths.ephemeral) === consumed) writeFileAtomic(paths, paths.ephemeral, '');
        }, { ...ephemeralLockOptions(paths), waitMs: 300 });
      } catch (err) {
        // The digest is given regardless; the summary stays for the next start to consume.
        ctx.log(`EPHEMERAL.md not cleared: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }
  try {
    appendUsage(paths, { ts: now.toISOString(), session: sessionId, event: 'injected', ids: digest.injectedIds, tokens: digest.tokens });
  } catch (err) {
    // The digest is still given: a usage line is worth less than the session's context.
    ctx.log(`usage log: ${err instanceof Error ? err.message : String(err)}`);
  }
  return { additionalContext: digest.text };
}
