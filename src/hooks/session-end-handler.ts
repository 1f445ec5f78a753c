// SessionEnd has about 1.5 s in all (Claude Code cancels it after that), so
// the summary for the next session is written first, from the transcript's
// tail only; everything after it is housekeeping that may be cut short.

import { usageKey } from '../core/lifecycle/usage-events.ts';
import { didWork } from '../core/session/session-work.ts';
import { CAPTURE_ROLE, reinforceUsed } from '../store/capture/capture-lessons.ts';
import { pastDeadline } from '../store/fs/role-lock.ts';
import { syncGitignore } from '../store/gitignore.ts';
import { consolidateAll } from '../store/memory/consolidate-all.ts';
import { roleSummaries } from '../store/memory/entry-cache.ts';
import { autoPruneBudget, spendAutoPrune } from '../store/memory/prune-budget.ts';
import { archivedEntries, reactivateEntries } from '../store/memory/role-pruning.ts';
import { handedOnText, prepareDigest } from '../store/recall/digest-cache.ts';
import { refreshIndex } from '../store/recall/search-index.ts';
import { claudeProcessId } from '../store/session/claude-process.ts';
import { advanceSession, foldTranscript, writeEphemeral } from '../store/session/session-lifecycle.ts';
import { readSessionState, type SessionState, scanSessions } from '../store/session/session-state.ts';
import { appendUsage, compactUsage } from '../store/usage/usage-log.ts';
import { usedKeys, useWatch } from '../store/usage/usage-references.ts';
import { withCapture } from './capture-step.ts';
import { guarded, type HookContext } from './run-hook.ts';

/** No entries to watch: the hand-off's read does not wait for the store to be parsed. */
const NO_WATCH = { entries: [], terms: [] };

export async function sessionEnd(ctx: HookContext): Promise<void> {
  const { paths, config, now, input, deadline } = ctx;
  // Each step is on its own: one that fails is logged and the next still runs. Once the
  // budget is spent the rest is left for the next session (Claude Code would kill us mid-way).
  const step = async (what: string, fn: () => unknown): Promise<void> => {
    if (pastDeadline(deadline)) return ctx.log(`${what}: skipped, out of time; the next session does it`);
    await guarded(ctx, what, fn, undefined);
  };
  // The hand-off comes first, before the store is read: its entries (a 20 MB MEMORY.md parses for seconds)
  // are needed only for use and housekeeping, which may be cut short. The last part of the transcript is
  // read once for the hand-off, and read again for use once the entries are loaded.
  let summaries: Awaited<ReturnType<typeof roleSummaries>> | undefined;
  if (input.session_id && input.transcript_path) {
    const sessionId = input.session_id;
    // Where this read starts: the part it adds is the one read again below for use.
    const before = readSessionState(paths, sessionId);
    let ended: SessionState | null = null;
    // The span stays in the state: a --resume may still add to it, and the
    // next session's end writes it as this session's final archive log.
    const ref = { sessionId, transcriptPath: input.transcript_path, ownerPid: claudeProcessId() };
    await step('summary', async () => {
      ended = await advanceSession(paths, ref, {
        now,
        deadline,
        log: ctx.log,
        use: NO_WATCH,
        update: (s) => {
          // A resumed session hands itself on again only if the part since the resume worked.
          if (s.resumed && !s.resumed.worked) return { ...s, ended: true };
          if (writeEphemeral(paths, s.draft, deadline) === 'kept-unreadable')
            ctx.log(`${paths.ephemeral} is not text; left as it is, summary not written there`);
          return { ...withCapture(ctx, s, true), ended: true };
        },
      });
    });
    await step('use', async () => {
      summaries = await roleSummaries(paths);
      const state = ended as SessionState | null;
      const items = summaries.flatMap((r) => r.entries.map((entry) => ({ role: r.role, entry })));
      // Only use raises Relevance (SPEC §8), and only a session that worked used anything: one that only
      // listed memory (`/rune:echoes show` naming every id) used none of it.
      if (!state?.draft || !didWork(state.draft)) return;
      // Entries pruning archived are watched too: one the session used comes back.
      const archived = summaries.flatMap((r) =>
        archivedEntries(paths, r.role, new Set(r.entries.map((e) => e.id))).map((entry) => ({ role: r.role, entry })),
      );
      if (items.length + archived.length === 0) return;
      const watch = await useWatch([...items, ...archived], paths.project);
      const used = new Set(usedKeys(watch, state.draft));
      // A captured lesson this session met again (its error, its commands, the user's rule said anew) mattered to it.
      const metAgain = new Set(state.captured ?? []);
      for (const { role, entry } of items)
        if (role === CAPTURE_ROLE && entry.captured && entry.signature && metAgain.has(entry.signature)) used.add(usageKey(role, entry.id));
      // Earlier parts were read for use by the hooks that read them; the part this end added is read again.
      const from = before?.transcriptPath === state.transcriptPath ? before.offset : 0;
      if (state.offset > from) {
        const again = await foldTranscript(state.transcriptPath, before?.draft ?? null, { fromOffset: from, use: watch, sessionId });
        for (const key of usedKeys(watch, again.piece)) used.add(key);
      }
      appendUsage(paths, { ts: now.toISOString(), session: sessionId, event: 'used', ids: [...used] }, deadline);
      for (const role of new Set(archived.map((a) => a.role)))
        reactivateEntries(
          paths,
          role,
          archived.filter((a) => a.role === role && used.has(usageKey(role, a.entry.id))).map((a) => a.entry.id),
          now,
        );
      // A captured lesson this session used is seen again: it rises as if captured anew (merged with the findings below).
      const team = summaries.find((r) => r.role === CAPTURE_ROLE)?.entries ?? [];
      reinforceUsed(paths, config, sessionId, [...used], team, now, state.captured ?? []);
    });
  } else {
    ctx.log('no session_id or transcript_path on stdin; no summary written');
  }
  await step('consolidation', async () => {
    // SessionStart and SessionEnd of one session share one small pruning budget.
    const sessionId = input.session_id ?? 'unknown';
    const maxMoves = autoPruneBudget(paths, sessionId, config.prunePerSession);
    const { errors, moved } = await consolidateAll(paths, config, { now, prune: true, summaries, deadline, maxMoves });
    for (const e of errors) ctx.log(`consolidation: ${e}`);
    spendAutoPrune(paths, sessionId, moved, deadline);
  });
  await step('usage log', () => compactUsage(paths, config.relevanceWindow, deadline));
  // Sessions that ended before this one get their final archive logs now.
  await step('archive logs', async () => {
    const scan = scanSessions(paths, input.session_id ?? '');
    if (scan.pendingFinal.length === 0) return;
    const { flushEndedSessions } = await import('../store/session/session-recovery.ts');
    await flushEndedSessions(paths, scan, now, deadline, ctx.log);
  });
  await step('.gitignore', () => syncGitignore(paths, config.versionControlled));
  // Last, once the store holds everything this session leaves: the next start's digest and the
  // search index (which the next prompt's recall reads), ready.
  if (config.inject) await step('digest for the next session', () => prepareDigest(paths, config, handedOnText(paths), now, { deadline }));
  await step('search index', () => refreshIndex(paths, deadline));
  await step('subagent starts for the next session', async () => {
    const { prepareRoleDigests } = await import('../store/recall/role-digest-cache.ts');
    await prepareRoleDigests(paths, config, now, { forNextSession: true });
  });
}
