// Reads EPHEMERAL.md (or recovers a crashed session's summary), prunes
// between sessions, injects the digest and logs the injected ids. EPHEMERAL.md
// stays: the next session that works replaces it when it ends. Work that can
// wait (final archive logs of ended sessions) is left to the next SessionEnd.

import { isOwnHandOff } from '../core/session/hand-off-owner.ts';
import { mtimeOf, readTextFile, readTextOrNull, writeFileAtomic } from '../store/fs/atomic-file.ts';
import { withLock } from '../store/fs/role-lock.ts';
import { awaitWorkers } from '../store/hook-workers.ts';
import { consolidateAll } from '../store/memory/consolidate-all.ts';
import { type RoleSummary, roleSummaries } from '../store/memory/entry-cache.ts';
import { autoPruneBudget, spendAutoPrune } from '../store/memory/prune-budget.ts';
import { digestKey, type PreparedDigest, prepareDigest, readDigestCache } from '../store/recall/digest-cache.ts';
import { addGiven, fileGivenKey, givenHandOff, keepGivenHandOff, readGiven, resetGiven } from '../store/recall/session-given.ts';
import { latestLogSince } from '../store/session/archive-logs.ts';
import type { RecoveredSession } from '../store/session/session-recovery.ts';
import { ephemeralLockOptions, givenFile, scanSessions } from '../store/session/session-state.ts';
import { touchSession } from '../store/session/session-touch.ts';
import { appendUsage } from '../store/usage/usage-log.ts';
import { guarded, type HookContext, type HookResult } from './run-hook.ts';

/** The workers whose writes a new session reads: the last hand-off, and checkpoints. */
const HAND_OFF_WORKERS = ['session-end', 'pre-compact'] as const;
const WORKER_WAIT_MS = 3000;

export async function sessionStart(ctx: HookContext): Promise<HookResult> {
  const { paths, config, now, input, deadline } = ctx;
  const sessionId = input.session_id ?? 'unknown';
  const compact = input.source === 'compact';
  let lastSession = '';
  let ownHandOff = false;
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
    let recovered: RecoveredSession | null = null;
    if (scan.unfinished.length) {
      const { recoverCrashedSessions } = await import('../store/session/session-recovery.ts');
      // A session that never ended has its lessons captured now, as its end would have.
      const { withCapture } = await import('./capture-step.ts');
      recovered = await guarded(
        ctx,
        'crash recovery',
        () => recoverCrashedSessions(paths, scan, now, ctx.log, deadline, (state) => withCapture(ctx, state, true)),
        null,
      );
    }
    const ephemeral = await guarded(ctx, 'EPHEMERAL.md', () => readTextFile(paths, paths.ephemeral), { text: null, unreadable: false });
    lastSession = ephemeral.text ?? '';
    if (ephemeral.unreadable) {
      // Keep the file for the user to inspect; never inject or overwrite it.
      ctx.log(`${paths.ephemeral} is not text; left as it is and not injected`);
      lastSession = '';
    }
    // EPHEMERAL.md holds the last session that worked, and stays until the next one that works
    // ends (SPEC §8): it is not cleared here, so a session that does nothing leaves it for the next.
    // A crashed session that worked after it was written takes its place.
    if (recovered && !ephemeral.unreadable && (lastSession.trim() === '' || recovered.at > mtimeOf(paths.ephemeral))) {
      const before = ephemeral.text;
      const text = recovered.text;
      lastSession = text;
      await guarded(
        ctx,
        'EPHEMERAL.md not replaced by the recovered session',
        () =>
          withLock(
            paths,
            'ephemeral',
            () => {
              if (readTextOrNull(paths, paths.ephemeral) === before) writeFileAtomic(paths, paths.ephemeral, text);
            },
            { ...ephemeralLockOptions(paths, deadline), waitMs: 300 },
          ),
        undefined,
      );
    }
    if (lastSession.trim() === '') {
      // No text in EPHEMERAL.md (none yet, one an older plugin cleared, or not text): a log written since
      // the last hand-off, else that hand-off again — a session that did no work leaves it to the next.
      lastSession =
        (await guarded(ctx, 'latest archive log', () => latestLogSince(paths, mtimeOf(givenFile(paths))), null)) ??
        readTextOrNull(paths, givenFile(paths)) ??
        '';
    }
    // A resumed session holds its own conversation: its own hand-off is not given to it again, nor one
    // it was given at its start (its conversation holds that block too).
    if (
      input.source === 'resume' &&
      input.session_id &&
      (isOwnHandOff(lastSession, sessionId) || givenHandOff(paths, sessionId) === lastSession)
    )
      ownHandOff = true;
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
  // On compact the session gets what it was given at its start once more: its own copy (another
  // session may have started since and been given something else), else the store's last. Never its
  // own summary: the compaction's summary holds what it did.
  if (compact) {
    const start = (input.session_id ? givenHandOff(paths, sessionId) : null) ?? readTextOrNull(paths, givenFile(paths)) ?? '';
    lastSession = input.session_id && isOwnHandOff(start, sessionId) ? '' : start;
  }
  // Entries whose evidence changed since they were verified are marked, and lose their recency (the
  // cache is kept only while the cited files and the repository are as they were).
  const prepared = cachedDigest ?? (await prepareDigest(paths, config, lastSession, now, { roles: compact ? undefined : roles, deadline }));
  const { errors } = prepared;
  // A resumed session whose own summary the hand-off is gets the digest without it (the same lessons).
  const own = ownHandOff ? prepared.digest.withoutSession : undefined;
  const digest = own ? { ...prepared.digest, text: own.text, tokens: own.tokens } : prepared.digest;
  for (const e of errors) ctx.log(e);
  // A resumed session's conversation holds the blocks it was given since its start or last compaction:
  // say nothing again when no entry is new to it (nor a hand-off, left out above when it holds it).
  const resumed = input.source === 'resume' && input.session_id !== undefined && givenHandOff(paths, sessionId) !== null;
  const held = resumed ? readGiven(paths, sessionId) : null;
  if (held && (ownHandOff || lastSession.trim() === '') && digest.injectedKeys.every((k) => held.has(k))) return {};
  if (!compact && !ownHandOff) {
    await guarded(
      ctx,
      'given summary',
      () => {
        if (readTextOrNull(paths, givenFile(paths)) !== lastSession)
          writeFileAtomic(paths, givenFile(paths), lastSession, { durable: false });
        if (input.session_id) keepGivenHandOff(paths, sessionId, lastSession);
      },
      undefined,
    );
  }
  // What this session holds now: prompt-time recall never gives these again (after a compaction, only these).
  // A resumed session still holds what it was given before; a compaction or a new session starts over.
  if (input.session_id)
    await guarded(
      ctx,
      'given entries',
      () => {
        // And the files its lines named: a prompt naming one of them is not told it again (a resumed
        // session given the digest without its hand-off is given neither line).
        const keys = [...digest.injectedKeys, ...(own ? [] : (digest.namedFiles ?? [])).map(fileGivenKey)];
        return held ? addGiven(paths, sessionId, keys) : resetGiven(paths, sessionId, keys, now);
      },
      undefined,
    );
  // An empty store gives nothing: no wrapper, no pointer, no usage line.
  if (digest.text === '') return {};
  // A usage line is worth less than the session's context: the digest is given either way.
  await guarded(
    ctx,
    'usage log',
    () =>
      appendUsage(
        paths,
        {
          ts: now.toISOString(),
          session: sessionId,
          event: 'injected',
          via: 'session-start',
          ids: digest.injectedKeys,
          tokens: digest.tokens,
        },
        deadline,
      ),
    undefined,
  );
  return { additionalContext: digest.text };
}
