// When each file that entries cite as evidence last changed (SPEC §8
// staleness): by git history where the project is in a repository (a fresh
// clone gives every file a new mtime, a commit does not lie), else by mtime,
// and by mtime for files git does not track. Two git calls at most, and only
// when the repository or a cited file changed since the last answer: the
// days are cached in .state/evidence-changes.json under a key made of their
// stamps, so a SessionStart usually costs a few stat calls.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { checkedDay, citedFiles, lastCommitDays, staleEntries } from '../../core/lifecycle/evidence-staleness.ts';
import type { RoleEntry } from '../../core/lifecycle/supersession.ts';
import { readTextOrNull, writeFileAtomic } from '../fs/atomic-file.ts';
import type { EchoPaths } from '../fs/echo-paths.ts';
import { findGitDirs, type GitDirs, readPlain } from '../fs/git-dirs.ts';
import { type Deadline, NO_DEADLINE } from '../fs/role-lock.ts';
import { keepStaleEntries } from './stale-entries.ts';

const CACHE_VERSION = 1;
/** Cited files beyond this are not looked up (a command line has limits, and so does a hook). */
const MAX_FILES = 400;
const GIT_TIMEOUT_MS = 3000;

const cacheFile = (paths: EchoPaths) => join(paths.stateDir, 'evidence-changes.json');

// Stamps are taken on every SessionStart: a missing file (evidence cited long ago) must not cost an exception.
const stampText = (path: string): string => {
  try {
    const st = statSync(path, { throwIfNoEntry: false });
    return st ? `${st.size}:${st.mtimeMs}` : '-';
  } catch {
    return '-';
  }
};

const mtimeDay = (path: string): string | null => {
  try {
    const st = statSync(path, { throwIfNoEntry: false });
    return st ? new Date(st.mtimeMs).toISOString().slice(0, 10) : null;
  } catch {
    return null;
  }
};

/**
 * git's output; `cut` when it was stopped for time (the answer is then not
 * whole), null output with `cut` false when git is missing or refused (not a
 * repository after all): then files are judged by their mtimes.
 */
export async function git(project: string, args: string[], deadline: Deadline): Promise<{ out: string | null; cut: boolean }> {
  // Loaded only when git must be asked (a cache miss in a repository).
  const { spawnSync } = await import('node:child_process');
  const timeout = Math.max(1, Math.min(GIT_TIMEOUT_MS, Number.isFinite(deadline) ? deadline - Date.now() : GIT_TIMEOUT_MS));
  const r = spawnSync('git', ['-C', project, ...args], {
    encoding: 'utf8',
    timeout,
    maxBuffer: 16 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'ignore'],
    // Reads must not take the index lock a concurrent `git commit` needs.
    env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' },
  });
  if (r.status === 0 && typeof r.stdout === 'string') return { out: r.stdout, cut: false };
  // git said no (an exit code: not a repository after all), or there is no git: a whole answer, by mtimes.
  // Anything else — stopped for time, killed, no room to start — is an answer cut short.
  const code = (r.error as NodeJS.ErrnoException | undefined)?.code;
  const refused = r.error === undefined && typeof r.status === 'number';
  return { out: null, cut: !(refused || code === 'ENOENT') };
}

/** The loose ref of the checked-out branch: a commit moves it even where no reflog is kept. */
function branchRefFile(repo: GitDirs): string {
  const ref = /^ref:\s*(refs\/\S+)\s*$/.exec(readPlain(join(repo.gitDir, 'HEAD')) ?? '')?.[1];
  return ref && !ref.includes('..') ? join(repo.commonDir, ref) : join(repo.gitDir, 'HEAD');
}

const citedList = (files: readonly string[]): string[] => [...new Set(files)].sort().slice(0, MAX_FILES);

/** What the answer depends on: the repository's refs and index, and each cited file's stamp. */
function changeKey(paths: EchoPaths, repo: GitDirs | null, list: readonly string[], since: string): string {
  const repoKey = repo
    ? ['HEAD', 'index', join('logs', 'HEAD')].map((f) => stampText(join(repo.gitDir, f))).join(',') +
      `,${stampText(join(repo.commonDir, 'packed-refs'))},${stampText(branchRefFile(repo))}`
    : 'no-git';
  return `${repoKey}|${since}|${list.map((f) => `${f}:${stampText(join(paths.project, f))}`).join('|')}`;
}

/** The cited files and the day a staleness answer was taken from, with their stamps then. */
export interface EvidenceStamp {
  files: string[];
  since: string | null;
  key: string;
}

/** True while nothing the staleness answer read has changed (a few stat calls; no git). */
export function evidenceUnchanged(paths: EchoPaths, stamp: EvidenceStamp): boolean {
  if (stamp.since === null) return stamp.key === '';
  return changeKey(paths, findGitDirs(paths.project), stamp.files, stamp.since) === stamp.key;
}

/**
 * File (relative to the project) → the day it last changed, for the files
 * given, from `since` on (older changes cannot make an entry stale).
 */
export async function changeDays(
  paths: EchoPaths,
  files: string[],
  since: string,
  deadline: Deadline = NO_DEADLINE,
): Promise<Map<string, string>> {
  return (await changeDaysKeyed(paths, files, since, deadline)).days;
}

/**
 * The same, with the key the answer holds under (taken before git was asked,
 * so a commit landing meanwhile changes it) and whether the answer is whole:
 * not when git was cut short or failed and tracked files went unjudged.
 */
async function changeDaysKeyed(
  paths: EchoPaths,
  files: string[],
  since: string,
  deadline: Deadline,
): Promise<{ days: Map<string, string>; key: string; complete: boolean }> {
  const list = citedList(files);
  const repo = findGitDirs(paths.project);
  const key = changeKey(paths, repo, list, since);
  if (list.length === 0) return { days: new Map(), key, complete: true };
  try {
    const cached = JSON.parse(readTextOrNull(paths, cacheFile(paths)) ?? 'null') as { version?: number; key?: string; days?: unknown };
    if (cached?.version === CACHE_VERSION && cached.key === key && cached.days && typeof cached.days === 'object')
      return { days: new Map(Object.entries(cached.days as Record<string, string>)), key, complete: true };
  } catch {
    /* a torn cache is a miss */
  }
  const days = new Map<string, string>();
  const tracked = new Set<string>();
  // Cut short: git was stopped for time, and tracked files go unjudged this once (nothing is kept).
  let cut = false;
  if (repo) {
    const ls = await git(paths.project, ['ls-files', '-z', '--', ...list], deadline);
    cut = ls.cut;
    if (ls.out !== null) {
      for (const f of ls.out.split('\0')) if (f) tracked.add(f);
      const log =
        tracked.size === 0
          ? { out: '', cut: false }
          : await git(
              paths.project,
              // Names as they are (no quoting of non-ASCII paths), so they meet the tracked ones.
              [
                '-c',
                'core.quotePath=false',
                'log',
                '--relative',
                '--no-renames',
                '--format=%x00%cs',
                '--name-only',
                `--since=${since}T00:00:00`,
                '--',
                ...tracked,
              ],
              deadline,
            );
      cut = log.cut;
      if (log.out !== null) {
        for (const [file, day] of lastCommitDays(log.out)) if (tracked.has(file)) days.set(file, day);
      } else if (!cut) {
        // git listed them but could not date them: judged by mtime like the rest.
        tracked.clear();
      }
    }
  }
  // Files git does not track (or every file, where git is missing or this is no repository after all) are dated
  // by mtime; tracked ones are left alone without git's answer: their mtimes say when they were checked out.
  for (const f of list) {
    if (tracked.has(f) || cut) continue;
    const day = mtimeDay(join(paths.project, f));
    if (day !== null && day >= since) days.set(f, day);
  }
  const complete = !cut;
  if (complete) {
    try {
      writeFileAtomic(paths, cacheFile(paths), JSON.stringify({ version: CACHE_VERSION, key, days: Object.fromEntries(days) }), {
        durable: false,
      });
    } catch {
      /* only slower next time */
    }
  }
  return { days, key, complete };
}

/** Usage key → the day each stale live entry was last checked (see core/lifecycle/evidence-staleness.ts). */
export async function staleFromStore(
  paths: EchoPaths,
  items: readonly RoleEntry[],
  deadline: Deadline = NO_DEADLINE,
): Promise<Map<string, string>> {
  return (await staleWithStamp(paths, items, deadline)).stale;
}

/** The same, with the stamp that says when the answer no longer holds. */
export async function staleWithStamp(
  paths: EchoPaths,
  items: readonly RoleEntry[],
  deadline: Deadline = NO_DEADLINE,
): Promise<{ stale: Map<string, string>; stamp: EvidenceStamp; complete: boolean }> {
  const files: string[] = [];
  let since: string | null = null;
  // Each entry's evidence is read once (the costly part): entries with a status or no date are not judged.
  const cited = items.map(({ entry }) => {
    const day = entry.status ? null : checkedDay(entry);
    if (day === null) return [];
    const found = citedFiles(entry);
    if (found.length === 0) return found;
    files.push(...found);
    if (since === null || day < since) since = day;
    return found;
  });
  const at: string | null = since;
  if (at === null) {
    keepStaleEntries(paths, new Map());
    return { stale: new Map(), stamp: { files: [], since: null, key: '' }, complete: true };
  }
  const answer = await changeDaysKeyed(paths, files, at, deadline);
  const stale = staleEntries(items, answer.days, cited);
  // An answer git cut short is not kept: prompt and subagent recall would take it for the whole list.
  if (answer.complete) keepStaleEntries(paths, stale);
  return { stale, stamp: { files: citedList(files), since: at, key: answer.key }, complete: answer.complete };
}
