// Reads EPHEMERAL.md (or recovers a crashed session's summary), prunes
// between sessions, injects the digest, then consumes EPHEMERAL.md and logs
// the injected ids. Work that can wait (final archive logs of ended
// sessions) is left to the next SessionEnd.

import { renameSync, statSync, utimesSync } from 'node:fs';
import { readTextFile, readTextOrNull, writeFileAtomic } from '../store/fs/atomic-file.ts';
import { assertWritable, type EchoPaths } from '../store/fs/echo-paths.ts';
import { withLock } from '../store/fs/role-lock.ts';
import { awaitWorkers } from '../store/hook-workers.ts';
import { consolidateAll } from '../store/memory/consolidate-all.ts';
import { type RoleSummary, roleSummaries } from '../store/memory/entry-cache.ts';
import { autoPruneBudget, spendAutoPrune } from '../store/memory/prune-budget.ts';
import { digestKey, type PreparedDigest, prepareDigest, readDigestCache } from '../store/recall/digest-cache.ts';
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

/** The workers whose writes a new session reads: the last hand-off, and checkpoints. */
const HAND_OFF_WORKERS = ['session-end', 'pre-compact'] as const;
const WORKER_WAIT_MS = 3000;

export async function sessionStart(ctx: HookContext): Promise<HookResult> {
  const { paths, config, now, input, deadline } = ctx;
  const sessionId = input.session_id ?? 'unknown';
  const compact = input.source === 'compact';
  let lastSession = '';
  let unreadable = false;
  let consumed = '';
  let roles: RoleSummary[] | undefined;
  let cachedDigest: PreparedDigest | null = null;
  // Every step is guarded: the digest is what the user needs, and no broken
  // part of the store (a crashed session's unreadable transcript, a read-only
  // store, a full disk) may cost it.
  if (!compact) {
    // A previous session's end may still be written by its worker (a start right after an exit):
    // wait for it, briefly, rather than miss its hand-off or take that session for a crashed one.
    if (!(await guarded(ctx, 'waiting for background work', () => awaitWorkers(paths, HAND_OFF_WORKERS, WORKER_WAIT_MS), true)))
      ctx.log(`background work of an earlier session still running after ${WORKER_WAIT_MS} ms; starting without waiting longer`);
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
    // The worker that ended the last session usually computed this digest already: then only
    // line counts are needed here (for the prune check), not the entries.
    cachedDigest = await guarded(ctx, 'digest cache', () => readDigestCache(paths, digestKey(paths, config, lastSession, now)), null);
    roles = cachedDigest ? cachedDigest.lines.map((l) => ({ ...l, entries: [] })) : await roleSummaries(paths);
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
    // Consolidation rewrote a memory file: the cached digest is out of date, and the entries are read again.
    if (reports.length) {
      cachedDigest = null;
      roles = await roleSummaries(paths);
    }
  }
  if (ctx.env.RUNE_ECHOES_DISABLE === '1' || !config.inject) return {};
  // On compact the session gets what it was given at its start once more.
  if (compact) lastSession = readTextOrNull(paths, givenFile(paths)) ?? '';
  const { digest, errors } =
    cachedDigest ?? (await prepareDigest(paths, config, lastSession, now, cachedDigest || compact ? undefined : roles));
  for (const e of errors) ctx.log(e);
  if (!compact) {
    // Consumed: the next session gets this one's summary, not the old one again. EPHEMERAL.md
    // becomes what this session was given (one rename), only if unchanged since it was read:
    // a summary another session wrote meanwhile stays. If that fails, the digest is given
    // regardless and the next start consumes it.
    const fromEphemeral = !unreadable && consumed !== '' && consumed === lastSession;
    if (fromEphemeral) {
      await guarded(
        ctx,
        'EPHEMERAL.md not cleared',
        () => {
          withLock(
            paths,
            'ephemeral',
            () => {
              if (readTextOrNull(paths, paths.ephemeral) === consumed) moveTo(paths, paths.ephemeral, givenFile(paths), consumed);
            },
            { ...ephemeralLockOptions(paths, deadline), waitMs: 300 },
          );
        },
        undefined,
      );
    } else {
      await guarded(
        ctx,
        'given summary',
        () => {
          if (readTextOrNull(paths, givenFile(paths)) !== lastSession)
            writeFileAtomic(paths, givenFile(paths), lastSession, { durable: false });
        },
        undefined,
      );
      if (!unreadable && consumed)
        await guarded(ctx, 'EPHEMERAL.md not cleared', () => writeFileAtomic(paths, paths.ephemeral, ''), undefined);
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

/** `from` becomes `to` by one rename; across file systems (user-scope hand-off) by a copy and an emptied `from`. */
function moveTo(paths: EchoPaths, from: string, to: string, text: string): void {
  try {
    renameSync(assertWritable(paths, from), assertWritable(paths, to));
    // Its time is when it was given (archive logs written before that are not "since" it).
    const now = new Date();
    utimesSync(to, now, now);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV' && (err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    writeFileAtomic(paths, to, text, { durable: false });
    writeFileAtomic(paths, from, '');
  }
}
