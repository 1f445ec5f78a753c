// What the memory report needs, read from the store with the same reads
// `status` and `show` use: each role's files against its limits, the entries
// scored against usage.jsonl with their stale and superseded marks, the
// archive index, the logged problems and when each hook last ran. Reads only;
// the report file itself is written by the command (cli/commands/cmd-report.ts).

import { existsSync, statSync } from 'node:fs';
import { basename, relative } from 'node:path';
import type { EchoesConfig } from '../../core/config/config-defaults.ts';
import { countLines } from '../../core/entry/echo-document.ts';
import { scoreWithIndex } from '../../core/lifecycle/echo-score.ts';
import { retiredEntries } from '../../core/lifecycle/supersession.ts';
import { relevanceIndex, usageKey } from '../../core/lifecycle/usage-events.ts';
import { parseArchiveIndex, type ReportInput, type ReportRole } from '../../core/report/report-model.ts';
import { oneLine } from '../../core/text.ts';
import { readTextFile, readTextOrNull } from '../fs/atomic-file.ts';
import { type EchoPaths, knowledgeFile } from '../fs/echo-paths.ts';
import { CONFIG_WARNING } from '../fs/error-log.ts';
import { fsErrorLine } from '../fs/fs-errors.ts';
import { lastRunFile } from '../hook-runs.ts';
import { staleFromStore } from '../memory/evidence-changes.ts';
import { readAllEntries } from '../memory/memory-files.ts';
import { listFindingsFiles } from '../memory/role-listing.ts';
import { listArchiveLogs } from '../session/archive-logs.ts';
import { givenFile } from '../session/session-state.ts';
import { readUsage } from '../usage/usage-log.ts';

/** The file `report` writes unless told otherwise: inside the store, personal (git-ignored in every mode). */
export const REPORT_FILE = 'report.html';

const problemOf = (err: unknown, path?: string) => oneLine(fsErrorLine(err, path) ?? (err instanceof Error ? err.message : String(err)));

/** When a hook last ran (its marker's mtime, ISO), or null when it never did. */
export function lastHookRun(paths: EchoPaths, hook: string): string | null {
  try {
    return statSync(lastRunFile(paths, hook)).mtime.toISOString();
  } catch {
    return null;
  }
}

/** Everything the page shows, read now. `hooks` are the registry's hook names (the CLI knows them, the store does not). */
export async function gatherReport(
  paths: EchoPaths,
  config: EchoesConfig,
  opts: { now: Date; hooks: readonly string[] },
): Promise<ReportInput> {
  const readProblems: string[] = [];
  const note = (err: unknown, path?: string) => {
    const line = problemOf(err, path);
    if (!readProblems.includes(line)) readProblems.push(line);
  };
  const measure = (path: string): number => {
    try {
      const { text } = readTextFile(paths, path);
      return text === null ? 0 : countLines(text);
    } catch (err) {
      note(err, relative(paths.project, path));
      return 0;
    }
  };

  const { roles: read } = readAllEntries(paths);
  let events: ReturnType<typeof readUsage> = [];
  try {
    events = readUsage(paths);
  } catch (err) {
    note(err, relative(paths.project, paths.usageLog));
  }
  const index = relevanceIndex(events, config.relevanceWindow);
  const items = read.flatMap((r) => r.entries.map((entry) => ({ role: r.role, entry })));
  const retired = retiredEntries(items);
  let stale = new Map<string, string>();
  try {
    stale = await staleFromStore(paths, items);
  } catch (err) {
    note(err);
  }
  const roles: ReportRole[] = read.map((r) => {
    const keys = r.entries.map((e) => usageKey(r.role, e.id));
    const scores = scoreWithIndex(r.entries, index, opts.now, { role: r.role, stale: (i) => stale.has(keys[i]!) });
    let pendingFindings = 0;
    try {
      pendingFindings = listFindingsFiles(paths, r.role).length;
    } catch (err) {
      note(err);
    }
    return {
      role: r.role,
      memoryLines: r.lines,
      knowledgeLines: measure(knowledgeFile(paths, r.role)),
      pendingFindings,
      ...(r.error ? { error: r.error } : {}),
      entries: r.entries.map((entry, i) => {
        const staleSince = stale.get(keys[i]!);
        const supersededBy = retired.get(keys[i]!);
        // The hook for team memory's provenance: once the store can tell a teammate's entry (one that came
        // through git without this clone's mark), it sets `teammate` here; until then the entry's own
        // provenance field decides (core/report/report-model.ts, entryOrigin).
        return { entry, score: scores[i]!, ...(staleSince ? { staleSince } : {}), ...(supersededBy ? { supersededBy } : {}) };
      }),
    };
  });

  const readOr = (path: string): string | null => {
    try {
      return readTextOrNull(paths, path);
    } catch (err) {
      note(err, relative(paths.project, path));
      return null;
    }
  };
  const log = readOr(paths.logFile) ?? '';
  const ephemeral = readOr(paths.ephemeral);
  return {
    generatedAt: opts.now.toISOString(),
    project: basename(paths.project),
    limits: {
      memoryMaxLines: config.memoryMaxLines,
      knowledgeMaxLines: config.knowledgeMaxLines,
      relevanceWindow: config.relevanceWindow,
    },
    roles,
    archive: { logs: listArchiveLogs(paths).length, index: parseArchiveIndex(readOr(paths.archiveIndex) ?? '') },
    ephemeral: ephemeral !== null && ephemeral.trim() !== '' ? 'waiting' : existsSync(givenFile(paths)) ? 'handed-on' : 'none',
    // Config warnings are logged once per change of the file; they are not problems (as in status).
    problems: log.split('\n').filter((l) => l !== '' && !l.includes(` ${CONFIG_WARNING}`)),
    hooks: opts.hooks.map((hook) => ({ hook, lastRun: lastHookRun(paths, hook) })),
    events,
    readProblems,
  };
}
