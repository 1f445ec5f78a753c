// Reads EPHEMERAL.md (or recovers a crashed session's summary), prunes
// between sessions, injects the digest, then consumes EPHEMERAL.md and logs
// the injected ids. Work that can wait (final archive logs of ended
// sessions) is left to the next SessionEnd.

import { statSync } from 'node:fs';
import { readTextFile, readTextOrNull, writeFileAtomic } from '../store/fs/atomic-file.ts';
import { withLock } from '../store/fs/role-lock.ts';
import { consolidateAll } from '../store/memory/consolidate-all.ts';
import { type RoleSummary, roleSummaries } from '../store/memory/entry-cache.ts';
import { autoPruneBudget, spendAutoPrune } from '../store/memory/prune-budget.ts';
import { digestFromStore } from '../store/recall/memory-digest.ts';
import { latestLogSince } from '../store/session/archive-logs.ts';
import { ephemeralLockOptions, givenFile, scanSessions } from '../store/session/session-state.ts';
import { touchSession } from '../store/session/session-touch.ts';
import { appendUsage } from '../store/usage/usage-log.ts';
import { guarded, type HookContext, type HookResult } from './run-hook.ts';

const mtimeMs = (path: string): number => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
};

export async function sessionStart(ctx: HookContext): Promise<HookResult> {
  const { paths, config, now, input, deadline } = ctx;
  const sessionId = input.session_id ?? 'unknown';
  const compact = input.source === 'compact';
  let lastSession = '';
  let unreadable = false;
  let consumed = '';
  let roles: RoleSummary[] | undefined;
  // Every step is guarded: the digest is what the user needs, and no broken
  // part of the store (a crashed session's unreadable transcript, a read-only
  // store, a full disk) may cost it.
  if (!compact) {
    // This session is running (again, on resume): it is nobody's crash to recover.
    if (input.session_id)
      await guarded(ctx, 'session state', () => touchSession(paths, sessionId, input.transcript_path ?? '', now, deadline), undefined);
    const scan = await guarded(ctx, 'session scan', () => scanSessions(paths, sessionId), { unfinished: [], pendingFinal: [] });
    // The transcript reader is loaded only when an earlier session crashed.
    let recovered: string | null = null;
    if (scan.unfinished.length) {
      const { recoverCrashedSessions } = await import('../store/session/session-recovery.ts');
      recovered = await guarded(ctx, 'crash recovery', () => recoverCrashedSessions(paths, scan, now, ctx.log, deadline), null);
    }
    const ephemeral = await guarded(ctx, 'EPHEMERAL.md', () => readTextFile(paths, paths.ephemeral), { text: null, unreadable: false });
    consumed = ephemeral.text ?? '';
    lastSession = consumed;
    if (ephemeral.unreadable) {
      // Keep the file for the user to inspect; never inject or overwrite it.
      ctx.log(`${paths.ephemeral} is not text; left as it is and not injected`);
      lastSession = '';
      unreadable = true;
    }
    if (lastSession.trim() === '') {
      lastSession =
        recovered ?? (await guarded(ctx, 'latest archive log', () => latestLogSince(paths, mtimeMs(givenFile(paths))), null)) ?? '';
    }
    roles = await roleSummaries(paths);
    // Automatic pruning moves a few entries per session at most; `prune` does the rest when the user runs it.
    const maxMoves = await guarded(ctx, 'prune budget', () => autoPruneBudget(paths, sessionId, config.prunePerSession), 0);
    const { errors, reports, moved } = await guarded(
      ctx,
      'consolidation',
      () => consolidateAll(paths, config, { now, prune: true, summaries: roles, deadline, maxMoves }),
      { errors: [], reports: [], moved: 0 },
    );
    for (const e of errors) ctx.log(`consolidation: ${e}`);
    await guarded(ctx, 'prune budget', () => spendAutoPrune(paths, sessionId, moved, deadline), undefined);
    // Read again only if consolidation rewrote a memory file.
    if (reports.length) roles = await roleSummaries(paths);
  }
  if (ctx.env.RUNE_ECHOES_DISABLE === '1' || !config.inject) return {};
  // On compact the session gets what it was given at its start once more.
  if (compact) lastSession = readTextOrNull(paths, givenFile(paths)) ?? '';
  const { digest, errors } = digestFromStore(paths, config, roles ?? (await roleSummaries(paths)), lastSession, now);
  for (const e of errors) ctx.log(e);
  if (!compact) {
    await guarded(
      ctx,
      'given summary',
      () => {
        if (readTextOrNull(paths, givenFile(paths)) !== lastSession)
          writeFileAtomic(paths, givenFile(paths), lastSession, { durable: false });
      },
      undefined,
    );
    // Consumed: the next session gets this one's summary, not the old one again. Cleared
    // only if unchanged since it was read: a summary another session wrote meanwhile stays.
    // If it cannot be cleared, the digest is given regardless and the next start consumes it.
    if (!unreadable && consumed) {
      await guarded(
        ctx,
        'EPHEMERAL.md not cleared',
        () => {
          withLock(
            paths,
            'ephemeral',
            () => {
              if (readTextOrNull(paths, paths.ephemeral) === consumed) writeFileAtomic(paths, paths.ephemeral, '');
            },
            { ...ephemeralLockOptions(paths, deadline), waitMs: 300 },
          );
        },
        undefined,
      );
    }
  }
  // A usage line is worth less than the session's context: the digest is given either way.
  await guarded(
    ctx,
    'usage log',
    () =>
      appendUsage(
        paths,
        { ts: now.toISOString(), session: sessionId, event: 'injected', ids: digest.injectedIds, tokens: digest.tokens },
        deadline,
      ),
    undefined,
  );
  return { additionalContext: digest.text };
}
