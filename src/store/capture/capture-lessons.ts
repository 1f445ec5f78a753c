// Capture (SPEC §6a) on disk: a session's gathered state becomes a few
// findings of the `team` role, written through the same path as `record`
// (filtered, appended to `team/capture-findings.md` under the role lock) and
// merged by the consolidation that follows. Errors met in earlier sessions are
// remembered in `.state/error-sightings.json` (personal, never committed), so
// an error met in a second session becomes an obstacle lesson. Runs in the
// background worker of SessionEnd and PreCompact, never in a prompt's path.

import type { CaptureState } from '../../core/capture/capture-tracker.ts';
import { type CaptureKind, lessonsOf, shortSession, updateSightings } from '../../core/capture/lesson-candidates.ts';
import { captureOn, type EchoesConfig } from '../../core/config/config-defaults.ts';
import type { EchoEntry } from '../../core/entry/echo-entry.ts';
import { sessionList } from '../../core/lifecycle/captured-merge.ts';
import { usageKey } from '../../core/lifecycle/usage-events.ts';
import { ranCommands } from '../../core/recall/worked-files.ts';
import { didWork } from '../../core/session/session-work.ts';
import type { SessionSummary } from '../../core/session/summary-model.ts';
import { writeFileAtomic } from '../fs/atomic-file.ts';
import { type EchoPaths, memoryFile } from '../fs/echo-paths.ts';
import { type Deadline, NO_DEADLINE, withLock } from '../fs/role-lock.ts';
import { entryLines, readEchoFile, roleTitle } from '../memory/memory-files.ts';
import { recordFindings } from '../memory/role-edits.ts';
import { noteWorkedFiles } from '../recall/worked-files-ledger.ts';
import { readSightings, sightingsFile } from './error-sightings.ts';

/** Captured lessons belong to every role: the cross-role memory. */
export const CAPTURE_ROLE = 'team';
/** The findings file capture writes, as an agent of the role would. */
export const CAPTURE_AGENT = 'capture';

function captureKinds(config: EchoesConfig): Set<CaptureKind> {
  const kinds = new Set<CaptureKind>();
  if (config.capture.commands) kinds.add('commands');
  if (config.capture.fixes) kinds.add('fix');
  // The user's own words are theirs: with version-controlled memory team/MEMORY.md is committed, so they stay out.
  if (config.capture.corrections && !config.versionControlled) kinds.add('correction');
  if (config.capture.obstacles) kinds.add('obstacle');
  return kinds;
}

/** The signatures of the captured lessons `team/MEMORY.md` holds (none when it cannot be read). */
function capturedSignatures(paths: EchoPaths): Set<string> {
  try {
    const { doc } = readEchoFile(paths, memoryFile(paths, CAPTURE_ROLE), roleTitle(CAPTURE_ROLE));
    return new Set(entryLines(doc).entries.flatMap(({ entry }) => (entry.captured && entry.signature ? [entry.signature] : [])));
  } catch {
    return new Set();
  }
}

export interface CaptureInput {
  sessionId: string;
  capture: CaptureState | undefined;
  draft: SessionSummary | null;
  /** Signatures an earlier capture of this session gave. */
  given: readonly string[];
  /** The session is over, not only compacted. */
  ended?: boolean;
}

/**
 * Writes the session's lessons as findings of the team role; returns the signatures given so far
 * (the caller keeps them with the session). Nothing for a session that did no work.
 */
export function captureLessons(
  paths: EchoPaths,
  config: EchoesConfig,
  input: CaptureInput,
  now: Date,
  deadline: Deadline = NO_DEADLINE,
): { recorded: EchoEntry[]; given: string[] } {
  const kinds = captureKinds(config);
  if (!input.draft || !didWork(input.draft)) return { recorded: [], given: [...input.given] };
  // Where the work lives, with how the project is worked: the files this session read and edited, the commands it ran.
  if (config.capture.commands)
    noteWorkedFiles(
      paths,
      shortSession(input.sessionId),
      {
        touched: [...input.draft.filesEdited, ...input.draft.filesRead],
        gone: input.draft.filesDeleted ?? [],
        commands: ranCommands(input.draft.commands),
      },
      deadline,
    );
  if (kinds.size === 0 || !input.capture) return { recorded: [], given: [...input.given] };
  const meta = {
    sessionId: input.sessionId,
    day: now.toISOString().slice(0, 10),
    kinds,
    given: input.given,
    ended: input.ended === true,
    known: capturedSignatures(paths),
  };
  const sightings = withLock(
    paths,
    'error-sightings',
    () => {
      const next = updateSightings(readSightings(paths), input.capture!, meta);
      writeFileAtomic(paths, sightingsFile(paths), JSON.stringify(next), { durable: false });
      return next;
    },
    { waitMs: 3000, deadline },
  );
  const lessons = lessonsOf(input.capture, meta, sightings);
  const given = [...new Set([...input.given, ...lessons.map((l) => l.signature ?? '')])].filter(Boolean);
  if (lessons.length === 0) return { recorded: [], given };
  const { recorded } = recordFindings(paths, config, CAPTURE_ROLE, CAPTURE_AGENT, lessons);
  return { recorded, given };
}

/**
 * A captured lesson a later session used (its command run, its file touched, its error met) is seen
 * again (SPEC §6a): a sighting of it is recorded, so it rises as if captured anew. Not the user's words:
 * a session that touched the file a correction was about is no sign the rule mattered there, and only
 * a rule said in two sessions is a standing one (it never fades from the digest). Said again, a correction
 * is captured anew and rises; used, it is kept from fading all the same.
 */
export function reinforceUsed(
  paths: EchoPaths,
  config: EchoesConfig,
  sessionId: string,
  used: readonly string[],
  teamEntries: readonly EchoEntry[],
  now: Date,
  /** Signatures this session's own capture gave: their sightings are written already. */
  captured: readonly string[] = [],
): EchoEntry[] {
  if (!captureOn(config) || used.length === 0) return [];
  const given = new Set(captured);
  const keys = new Set(used);
  const session = shortSession(sessionId);
  const day = now.toISOString().slice(0, 10);
  const sightings = teamEntries
    .filter(
      (e) =>
        e.captured &&
        e.captured !== 'correction' &&
        e.signature &&
        !given.has(e.signature) &&
        !e.status &&
        keys.has(usageKey(CAPTURE_ROLE, e.id)) &&
        !sessionList(e.sessions).includes(session),
    )
    .map((e): EchoEntry => ({ ...e, sessions: session, verified: day, evidence: `session ${session} used it` }));
  if (sightings.length === 0) return [];
  return recordFindings(paths, config, CAPTURE_ROLE, CAPTURE_AGENT, sightings).recorded;
}
