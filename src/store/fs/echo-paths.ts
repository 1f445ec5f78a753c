// Where every file lives (SPEC §3), and the guards that keep every write inside
// the memory folders: safe names, and no symlink that leads out.

import { lstatSync, readFileSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { EchoesConfig } from '../../core/config/config-defaults.ts';
import { EchoesError } from '../../core/errors.ts';
import { isPersonalPath } from '../../core/team/shared-files.ts';
import { isSafeName, quoteInput } from '../../core/text.ts';
import { trackedUnder } from './git-index.ts';

/** Refuses role and agent names that could leave the role folder or confuse the layout. */
export function assertSafeName(name: string, what: 'role' | 'agent'): string {
  if (!isSafeName(name)) {
    throw new EchoesError(
      'bad-name',
      `invalid ${what} name "${quoteInput(name)}": use lower-case letters, digits and dashes (e.g. "reviewer")`,
    );
  }
  if (what === 'role' && RESERVED_ROLE_NAMES.has(name)) {
    throw new EchoesError('bad-name', `"${quoteInput(name)}" is a folder of the store itself, not a role; choose another role name`);
  }
  return name;
}

/** Folders under .claude/echoes/ that belong to the store, never to a role. */
export const RESERVED_ROLE_NAMES: ReadonlySet<string> = new Set(['memories']);

export function isRoleName(name: string): boolean {
  return isSafeName(name) && !RESERVED_ROLE_NAMES.has(name);
}

export interface EchoPaths {
  project: string;
  /** `.claude/echoes/` — all roles, the usage log and hook state. */
  echoes: string;
  configFile: string;
  ephemeral: string;
  archiveIndex: string;
  memoriesDir: string;
  usageLog: string;
  logFile: string;
  stateDir: string;
  locksDir: string;
  solutionsDir: string;
  gitignore: string;
  /** `.claude/echoes/.gitignore`: what stays personal when the store is committed (team mode). */
  storeGitignore: string;
  /** `.claude/echoes/.gitattributes`: which memory files git merges by entry (team mode). */
  storeGitattributes: string;
  /** Roots that writes may touch, each with the folder its real path must stay in. */
  writableRoots: Array<{ root: string; base: string }>;
}

export function echoPaths(project: string, config: Pick<EchoesConfig, 'sessionScope'>, home = homedir()): EchoPaths {
  const root = resolve(project);
  const echoes = join(root, '.claude', 'echoes');
  const userScope = config.sessionScope === 'user';
  // User scope follows recall-echo's layout under ~/.claude/ exactly.
  const sessionRoot = userScope ? join(home, '.claude') : echoes;
  const configFile = join(root, '.claude', 'rune-config.yml');
  const gitignore = join(root, '.gitignore');
  const solutionsDir = join(root, 'docs', 'solutions');
  const writableRoots = [echoes, solutionsDir, configFile, gitignore].map((r) => ({ root: r, base: root }));
  if (userScope) {
    for (const name of ['EPHEMERAL.md', 'ARCHIVE.md', 'memories']) writableRoots.push({ root: join(sessionRoot, name), base: sessionRoot });
  }
  return {
    project: root,
    echoes,
    configFile,
    ephemeral: join(sessionRoot, 'EPHEMERAL.md'),
    archiveIndex: join(sessionRoot, 'ARCHIVE.md'),
    memoriesDir: join(sessionRoot, 'memories'),
    usageLog: join(echoes, 'usage.jsonl'),
    logFile: join(echoes, '.log'),
    stateDir: join(echoes, '.state'),
    locksDir: join(echoes, '.locks'),
    solutionsDir,
    gitignore,
    storeGitignore: join(echoes, '.gitignore'),
    storeGitattributes: join(echoes, '.gitattributes'),
    writableRoots,
  };
}

/**
 * The same paths with more places writes may go, for a command the user ran
 * that writes where others read (`export`: CLAUDE.md, Claude Code's auto
 * memory). Each extra root is judged from itself: a symlinked home folder is
 * fine, anything outside the root is still refused.
 */
export function withExtraWritable(paths: EchoPaths, roots: string[]): EchoPaths {
  return { ...paths, writableRoots: [...paths.writableRoots, ...roots.map((r) => ({ root: resolve(r), base: resolve(r) }))] };
}

export function roleDir(paths: EchoPaths, role: string): string {
  return join(paths.echoes, assertSafeName(role, 'role'));
}
export const memoryFile = (paths: EchoPaths, role: string) => join(roleDir(paths, role), 'MEMORY.md');
export const knowledgeFile = (paths: EchoPaths, role: string) => join(roleDir(paths, role), 'knowledge.md');
export const archiveDir = (paths: EchoPaths, role: string) => join(roleDir(paths, role), 'archive');
export const findingsFile = (paths: EchoPaths, role: string, agent: string) =>
  join(roleDir(paths, role), `${assertSafeName(agent, 'agent')}-findings.md`);

function isWithin(child: string, parent: string): boolean {
  // Both are resolved absolute paths: a plain prefix test says it on POSIX without path.relative's
  // character walk (every read and write of every hook comes through here).
  if (sep === '/') return child === parent || child.startsWith(parent.endsWith('/') ? parent : `${parent}/`);
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** The real path of `p`, resolving symlinks in the part of it that exists. */
function realPathOfPrefix(p: string, depth = 0): string {
  let existing = p;
  const rest: string[] = [];
  for (;;) {
    try {
      // The native realpath: the JavaScript one walks every component through path.join and lstat.
      const real = realpathSync.native(existing);
      return rest.length ? join(real, ...rest) : real;
    } catch {
      // A dangling symlink does not resolve, yet a write through it lands where it points: judge it by that.
      let link = false;
      try {
        link = lstatSync(existing).isSymbolicLink();
      } catch {
        /* not there at all */
      }
      if (link) {
        if (depth >= 40) throw new EchoesError('unsafe-path', `refusing to write through a symlink loop at ${existing}`);
        const target = resolve(realPathOfPrefix(dirname(existing), depth + 1), readlinkSync(existing));
        return join(realPathOfPrefix(target, depth + 1), ...rest);
      }
      const parent = dirname(existing);
      if (parent === existing) return p;
      rest.unshift(existing.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
      existing = parent;
    }
  }
}

/** Files of the store (relative to it) that git tracks, and the personal ones among them, per store: read from git's index once per process. */
const trackedFiles = new WeakMap<EchoPaths, { all: Set<string>; personal: Set<string> }>();

function tracked(paths: EchoPaths): { all: Set<string>; personal: Set<string> } {
  let t = trackedFiles.get(paths);
  if (!t) {
    const all = trackedUnder(paths.echoes);
    t = { all, personal: new Set([...all].filter(isPersonalPath)) };
    trackedFiles.set(paths, t);
  }
  return t;
}

/** The personal files of the store git tracks (relative to `.claude/echoes/`, with `/`). */
export function trackedPersonal(paths: EchoPaths): Set<string> {
  return tracked(paths).personal;
}

/** Whether git tracks this file of the store: its content came, or can come, from a teammate's commit. */
export function isTrackedInStore(paths: EchoPaths, abs: string): boolean {
  const at = resolve(abs);
  if (!isWithin(at, paths.echoes)) return false;
  return tracked(paths).all.has(relative(paths.echoes, at).split(sep).join('/'));
}

/**
 * Personal files `team init` stopped tracking, as git left them (size, mtime,
 * inode): a commit put them there, so they stay unread until this clone
 * writes them again. Relative to the store, with `/`.
 */
export const fromGitFile = (paths: EchoPaths) => join(paths.stateDir, 'from-git.json');
/** The worked-files ledger (store/recall/worked-files-ledger.ts): personal, never committed. */
export const workedFilesFile = (paths: EchoPaths): string => join(paths.stateDir, 'worked-files.json');
/** The names the ledger's files can be named by (core/recall/file-names.ts, ledgerNames), written with it. */
export const workedNamesFile = (paths: EchoPaths): string => join(paths.stateDir, 'worked-names.txt');
/** The folder and the `role/id` keys `export --to auto-memory` last left there (the digest does not give them again). */
export const autoMemoryExportFile = (paths: EchoPaths) => join(paths.stateDir, 'auto-memory-export.json');
export type FromGit = Record<string, [size: number, mtimeMs: number, ino: number]>;
const fromGitRecords = new WeakMap<EchoPaths, FromGit>();

export function readFromGit(paths: EchoPaths): FromGit {
  let rec = fromGitRecords.get(paths);
  if (!rec) {
    rec = {};
    try {
      const parsed = JSON.parse(readFileSync(fromGitFile(paths), 'utf8')) as unknown;
      if (parsed && typeof parsed === 'object') rec = parsed as FromGit;
    } catch {
      /* none */
    }
    fromGitRecords.set(paths, rec);
  }
  return rec;
}

/**
 * Throws (code `tracked`) when `abs` is a personal file of the store that git
 * tracks: a commit put it there — a teammate's force-add, a cloned repository —
 * and git replaces it on any pull, so it is not this clone's session state.
 * So is one `team init` stopped tracking, until this clone writes it again.
 */
function assertNotTracked(paths: EchoPaths, abs: string): void {
  if (!isWithin(abs, paths.echoes) || abs === paths.echoes) return;
  const rel = relative(paths.echoes, abs).split(sep).join('/');
  if (!isPersonalPath(rel)) return;
  const tracked = trackedPersonal(paths);
  if (tracked.size > 0 && (tracked.has(rel) || [...tracked].some((t) => t.startsWith(`${rel}/`))))
    throw new EchoesError(
      'tracked',
      `refusing to read ${abs}: git tracks it, so a commit put it there and it is not this clone's (see rune-echoes status)`,
    );
  const left = readFromGit(paths)[rel];
  if (Array.isArray(left)) {
    const st = statSync(abs, { throwIfNoEntry: false });
    if (st && st.size === left[0] && st.mtimeMs === left[1] && st.ino === left[2])
      throw new EchoesError(
        'tracked',
        `refusing to read ${abs}: a commit put it there (team init stopped tracking it); delete it if it is not yours`,
      );
  }
}

/** Real paths of folders already judged to lie inside their memory root, per store: reads check each folder once. */
const insideFolders = new WeakMap<EchoPaths, Set<string>>();

/**
 * Throws unless reading `target` reads a file inside the memory folders, after
 * following symlinks: a cloned repository could ship `.claude/echoes/EPHEMERAL.md`
 * pointing at `~/.aws/credentials`, and what the store reads can reach the model.
 * A missing file passes (reading it finds nothing). A personal file git tracks
 * is refused (code `tracked`): session state is never read from a commit.
 */
export function assertReadable(paths: EchoPaths, target: string): string {
  const abs = resolve(target);
  const allowed = paths.writableRoots.find((r) => isWithin(abs, r.root));
  if (!allowed) throw new EchoesError('unsafe-path', `refusing to read ${abs}: outside the memory folders`);
  assertNotTracked(paths, abs);
  let link = false;
  try {
    link = lstatSync(abs).isSymbolicLink();
  } catch {
    return abs; // not there: nothing to read
  }
  const dir = dirname(abs);
  let checked = insideFolders.get(paths);
  if (!checked) {
    checked = new Set();
    insideFolders.set(paths, checked);
  }
  // A root that is itself a file (.gitignore, the config file) is judged by its own path, not its folder's.
  const byFolder = !link && abs !== allowed.root;
  if (byFolder && checked.has(dir)) return abs;
  const realRoot = realPathOfPrefix(allowed.root);
  const expectedRoot = join(realPathOfPrefix(allowed.base), relative(allowed.base, allowed.root));
  if (realRoot !== expectedRoot || !isWithin(realPathOfPrefix(byFolder ? dir : abs), realRoot)) {
    throw new EchoesError('unsafe-path', `refusing to read ${abs}: it leads outside ${allowed.root} through a symlink`);
  }
  if (byFolder) checked.add(dir);
  return abs;
}

export function assertWritable(paths: EchoPaths, target: string): string {
  const abs = resolve(target);
  const allowed = paths.writableRoots.find((r) => isWithin(abs, r.root));
  if (!allowed) throw new EchoesError('unsafe-path', `refusing to write ${abs}: outside the memory folders`);
  const real = realPathOfPrefix(abs);
  const realRoot = realPathOfPrefix(allowed.root);
  // The root itself must not be reached through a symlink either: with `.claude/echoes -> ../src`
  // every memory write would land in src/.
  const expectedRoot = join(realPathOfPrefix(allowed.base), relative(allowed.base, allowed.root));
  if (!isWithin(real, realRoot) || realRoot !== expectedRoot) {
    throw new EchoesError('unsafe-path', `refusing to write ${abs}: a symlink leads outside ${allowed.root}`);
  }
  try {
    if (lstatSync(abs).isSymbolicLink()) {
      throw new EchoesError('unsafe-path', `refusing to write through symlink ${abs}`);
    }
  } catch (err) {
    if (err instanceof EchoesError) throw err;
  }
  return abs;
}
