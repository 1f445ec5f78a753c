// The session side of the hooks (SPEC §8): read the transcript incrementally,
// keep the draft, checkpoint archive logs, write EPHEMERAL.md at the end.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type CaptureState, emptyCaptureState } from '../../core/capture/capture-tracker.ts';
import type { UseWatch } from '../../core/lifecycle/entry-use.ts';
import {
  type ArchiveTrigger,
  archiveIndexText,
  archiveLogIdentity,
  describeArchiveLog,
  filterSummary,
  renderArchiveLog,
  renderEphemeral,
} from '../../core/session/session-records.ts';
import { didWork } from '../../core/session/session-work.ts';
import { mergeSummaries } from '../../core/session/summary-merge.ts';
import type { SessionSummary } from '../../core/session/summary-model.ts';
import { emptySummary, isEmptySummary } from '../../core/session/summary-model.ts';
import { oneLine } from '../../core/text.ts';
import { readTextFile, writeFileAtomic } from '../fs/atomic-file.ts';
import type { EchoPaths } from '../fs/echo-paths.ts';
import { type Deadline, NO_DEADLINE, withLock, withLockAsync } from '../fs/role-lock.ts';
import { repairArchiveIndex, writeNextArchiveLog } from './archive-logs.ts';
import {
  ephemeralLockOptions,
  newSessionState,
  readSessionState,
  type SessionState,
  safeSessionKey,
  writeSessionState,
} from './session-state.ts';
import type { ReadTranscriptOptions } from './transcript-reader.ts';

/** The store's entries as a use watch; loaded late, since most hook runs have nothing new to read. */
async function loadUseWatch(paths: EchoPaths): Promise<UseWatch> {
  const { storeUseWatch } = await import('../usage/usage-references.ts');
  return storeUseWatch(paths);
}

export interface SessionRef {
  sessionId: string;
  transcriptPath: string;
  /** Set when the hook runs on behalf of this session (not when recovering another). */
  ownerPid?: number;
}

export interface FoldResult {
  /** What this read added, filtered: the part a checkpoint span also takes. */
  piece: SessionSummary;
  /** The draft with the piece merged in. */
  draft: SessionSummary;
  endOffset: number;
  /** What capture gathered, when the read was given a capture state. */
  capture?: CaptureState;
  /** How far each subagent transcript was read, when the read was asked to read them. */
  subagents?: Record<string, number>;
}

/**
 * One incremental read as the hooks do it: the transcript from `fromOffset`,
 * filtered before it is kept (the draft is persisted like any other text),
 * then merged into the running draft.
 */
export async function foldTranscript(
  path: string,
  draft: SessionSummary | null,
  opts: ReadTranscriptOptions & { sessionId?: string } = {},
): Promise<FoldResult> {
  // Loaded only when there is something to read: most hook runs find nothing new.
  const { readTranscript } = await import('./transcript-reader.ts');
  // The draft remembers where private spans stood at the offset: a span opened before it still hides what follows.
  // The draft also carries the project folder, so a part that starts after a `cd` spells paths as the first part did.
  const part = await readTranscript(path, {
    ...opts,
    privateDepth: opts.privateDepth ?? draft?.privateDepth,
    projectDir: opts.projectDir ?? draft?.cwd,
    carry: opts.carry ?? draft?.carry,
  });
  const piece = filterSummary({ ...part.summary, sessionId: part.summary.sessionId || opts.sessionId || null });
  return {
    piece,
    draft: mergeSummaries(draft ?? emptySummary(), piece),
    endOffset: part.endOffset,
    ...(part.capture ? { capture: part.capture } : {}),
    ...(part.subagents ? { subagents: part.subagents } : {}),
  };
}

export interface AdvanceOptions {
  now: Date;
  /** Entry ids and titles to note when the conversation names them. */
  watchTerms?: string[];
  /** The entries whose use the read tells (SPEC §8); when absent, the store's, loaded only if there is something to read. */
  use?: UseWatch;
  deadline?: Deadline;
  /** Told once when a transcript cannot be read (the session is then set aside until its transcript changes). */
  log?: (message: string) => void;
  /** Gather what capture needs while reading (SPEC §6a); on unless false, so no part of a session is read without it. */
  capture?: boolean;
  /** Runs under the session's lock with the fresh state; the state it returns (if any) is saved. */
  update?: (state: SessionState) => SessionState | undefined;
}

/**
 * Reads what is new in the transcript since the last hook of this session and
 * folds it into the draft and the un-checkpointed span.
 */
export async function advanceSession(paths: EchoPaths, ref: SessionRef, opts: AdvanceOptions): Promise<SessionState> {
  const { now, watchTerms = [], deadline = NO_DEADLINE, update = () => undefined } = opts;
  return withLockAsync(
    paths,
    `session-${safeSessionKey(ref.sessionId)}`,
    async () => {
      let state = readSessionState(paths, ref.sessionId) ?? newSessionState(ref.sessionId, ref.transcriptPath, now);
      const transcript = ref.transcriptPath || state.transcriptPath;
      if (transcript) {
        let size = -1;
        try {
          size = statSync(transcript).size;
        } catch {
          /* no transcript (yet) */
        }
        // A shorter file than we read means it was replaced: read it again from the start.
        // The draft and span are kept (merging drops repeated lines): nothing read is lost.
        if (size >= 0 && size < state.offset) state = { ...state, offset: 0 };
        // A transcript that failed to read (a directory, no permission) is tried again only once it changes:
        // one bad session must not fail every later hook.
        const failedBefore = state.transcriptError?.size === size && state.transcriptError.path === transcript;
        // A subagent in the background (Claude Code 2.1) writes its own transcript while the main one may stand still.
        if ((size > state.offset || subagentsGrew(transcript, state.subagents ?? {})) && !failedBefore) {
          try {
            // Every part is read for use, not only the last: a session's early work counts too.
            const use = opts.use ?? (await loadUseWatch(paths));
            const step = await foldTranscript(transcript, state.draft, {
              fromOffset: state.offset,
              watchTerms,
              use,
              sessionId: ref.sessionId,
              subagents: state.subagents ?? {},
              ...(opts.capture !== false ? { capture: state.capture ?? emptyCaptureState() } : {}),
            });
            const { transcriptError: _cleared, ...rest } = state;
            state = {
              ...rest,
              transcriptPath: transcript,
              offset: step.endOffset,
              draft: step.draft,
              span: mergeSummaries(state.span ?? emptySummary(), step.piece),
              ...(step.capture ? { capture: step.capture } : {}),
              ...(step.subagents && Object.keys(step.subagents).length > 0 ? { subagents: step.subagents } : {}),
              ...(state.resumed ? { resumed: { worked: state.resumed.worked || didWork(step.piece) } } : {}),
            };
          } catch (err) {
            const message = `session ${oneLine(ref.sessionId).slice(0, 80)}: ${errorText(err)}`;
            opts.log?.(`${message}; set aside until it changes`);
            state = { ...state, transcriptError: { path: transcript, size, message } };
          }
        }
      }
      state = { ...state, updatedAt: now.toISOString() };
      if (ref.ownerPid !== undefined) state.ownerPid = ref.ownerPid;
      state = update(state) ?? state;
      writeSessionState(paths, state);
      return state;
    },
    { waitMs: 5000, deadline },
  );
}

/** Writes the span since the last checkpoint as the next archive log; returns its number, or null when there was nothing new. */
export function checkpointSpan(
  paths: EchoPaths,
  state: SessionState,
  trigger: ArchiveTrigger,
  now: Date,
  deadline: Deadline = NO_DEADLINE,
): { state: SessionState; seq: number | null } {
  const span = state.span;
  if (!span || isEmptySummary(span)) return { state: { ...state, span: null }, seq: null };
  // A session that has not worked (SPEC §8) adds no archive log of its own: before a compaction its
  // span waits (the session may still work), at its end or recovery the span is let go.
  if (!didWork(state.draft ?? span)) return { state: trigger.startsWith('precompact') ? state : { ...state, span: null }, seq: null };
  // The session, span and trigger header lines identify a checkpoint: a re-run after a
  // kill finds the log it already wrote instead of writing the span twice.
  const identity = archiveLogIdentity(span, trigger);
  const seq = writeNextArchiveLog(
    paths,
    {
      render: (n) => renderArchiveLog(n, span, trigger, now),
      indexLine: () => archiveIndexText(span, trigger, now),
      isSame: (text) => identity.every((line) => text.includes(line)),
    },
    deadline,
  );
  repairArchiveIndex(paths, describeArchiveLog, deadline);
  return { state: { ...state, span: null, archiveLogs: [...state.archiveLogs, seq] }, seq };
}

/**
 * Writes EPHEMERAL.md for the next session, if this session worked (SPEC §8:
 * one that did nothing leaves the last working session's hand-off). An
 * existing file that is not text is left exactly as it is (the user is told
 * in the log); the next session then falls back to this session's archive log.
 */
export function writeEphemeral(
  paths: EchoPaths,
  summary: SessionSummary | null,
  deadline: Deadline = NO_DEADLINE,
): 'written' | 'empty' | 'no-work' | 'kept-unreadable' {
  if (!summary || isEmptySummary(summary)) return 'empty';
  if (!didWork(summary)) return 'no-work';
  const text = renderEphemeral(summary);
  return withLock(
    paths,
    'ephemeral',
    () => {
      if (readTextFile(paths, paths.ephemeral).unreadable) return 'kept-unreadable';
      writeFileAtomic(paths, paths.ephemeral, text);
      return 'written';
    },
    ephemeralLockOptions(paths, deadline),
  );
}

/** Whether a subagent transcript of the session holds more than the reads so far took. */
function subagentsGrew(transcript: string, offsets: Record<string, number>): boolean {
  if (!transcript.endsWith('.jsonl')) return false;
  const dir = join(transcript.slice(0, -'.jsonl'.length), 'subagents');
  try {
    return readdirSync(dir).some((f) => {
      if (!/^agent-.+\.jsonl$/.test(f) || f.startsWith('agent-acompact')) return false;
      return statSync(join(dir, f)).size > (offsets[f] ?? 0);
    });
  } catch {
    return false; // no subagent ran
  }
}

const errorText = (err: unknown): string => oneLine(err instanceof Error ? err.message : String(err)).slice(0, 300);
