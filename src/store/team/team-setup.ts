// Team memory through git (SPEC §3 team mode): `team init` sets a clone up —
// the config switch, the .gitignore line, the store's own .gitignore and
// .gitattributes, this clone's merge-driver setting — and `team off` turns it
// off; `status` asks teamHealth what is missing. Personal files never move on
// disk: they are git-ignored by name in both modes, so switching changes only
// what git sees, and both commands say what that is.
import { existsSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { EchoesConfig } from '../../core/config/config-defaults.ts';
import { EchoesError } from '../../core/errors.ts';
import {
  DRIVER_DESCRIPTION,
  driverCommand,
  driverLacksFallback,
  driverPaths,
  MERGE_DRIVER,
  planStoreGitattributes,
  planStoreGitignore,
} from '../../core/team/shared-files.ts';
import { ensureDir, readTextOrNull, writeFileAtomic } from '../fs/atomic-file.ts';
import { type EchoPaths, type FromGit, fromGitFile, readFromGit } from '../fs/echo-paths.ts';
import { ensureStoreGitignore, syncGitignore } from '../gitignore.ts';
import { markUntrackedEntries } from '../memory/entry-origin.ts';
import { listRoles } from '../memory/role-listing.ts';
import {
  ignoringRules,
  localConfig,
  mergeAttributes,
  setLocalConfig,
  trackedButIgnored,
  trackedFiles,
  untrack,
  untrackedNotIgnored,
  workTreeOf,
} from './git-repo.ts';

/** Where this CLI runs from: the merge driver git runs in this clone calls it by these absolute paths. */
export interface CliSelf {
  node: string;
  cli: string;
}

const DRIVER_KEY = `merge.${MERGE_DRIVER}.driver`;
const NAME_KEY = `merge.${MERGE_DRIVER}.name`;

export interface TeamInitReport {
  workTree: string;
  /** echoes.version_controlled was switched on by this run (false: it already was). */
  switchedOn: boolean;
  /** Ignore rules (`source:line:pattern`) that still keep shared memory out of git: empty when none. */
  blockedBy: string[];
  /** The `.claude/echoes/` line left .gitignore. */
  gitignoreLineRemoved: boolean;
  storeGitignoreWritten: boolean;
  gitattributesWritten: boolean;
  driver: { command: string; previous: string | null };
  /** Personal files git tracked (committed before): no longer tracked, working copies kept. */
  untracked: string[];
  /** What git would commit under .claude/echoes/ now. */
  shared: string[];
  /** What the next step adds to git, relative to the project: only paths that exist. */
  toCommit: string[];
}

export interface TeamOffReport {
  switchedOff: boolean;
  gitignoreLineAdded: boolean;
  /** Files git still tracks under .claude/echoes/ (the team's copy); untracking them is the team's call. */
  stillTracked: string[];
}

const storeRel = (paths: EchoPaths) => relative(paths.project, paths.echoes);

async function setVersionControlled(paths: EchoPaths, value: boolean): Promise<boolean> {
  const { withEchoesKey } = await import('../../core/config/config-edit.ts');
  const next = withEchoesKey(readTextOrNull(paths, paths.configFile), 'version_controlled', value);
  if (next === null) return false;
  writeFileAtomic(paths, paths.configFile, next);
  return true;
}

function requireWorkTree(paths: EchoPaths): string {
  const top = workTreeOf(paths.project);
  if (top === null)
    throw new EchoesError(
      'git',
      `${paths.project} is not inside a git work tree; team memory shares through git (git init, or clone the team's repository)`,
    );
  return top;
}

export async function teamInit(paths: EchoPaths, self: CliSelf): Promise<TeamInitReport> {
  const workTree = requireWorkTree(paths);
  const switchedOn = await setVersionControlled(paths, true);
  ensureDir(paths, paths.echoes);
  const storeGitignoreWritten = ensureStoreGitignore(paths);
  const gitignoreLineRemoved = syncGitignore(paths, true);
  const attributes = planStoreGitattributes(readTextOrNull(paths, paths.storeGitattributes));
  if (attributes !== null) writeFileAtomic(paths, paths.storeGitattributes, attributes);

  const previous = localConfig(paths.project, DRIVER_KEY);
  const command = driverCommand(self.node, self.cli);
  setLocalConfig(paths.project, NAME_KEY, DRIVER_DESCRIPTION);
  setLocalConfig(paths.project, DRIVER_KEY, command);

  // Personal files committed before this (the store used to be committed whole): git
  // stops tracking them and the files stay; the next commit takes them out of the shared tip.
  // Entries written here before sharing began are marked as this clone's; the team's tracked files are not.
  markUntrackedEntries(paths, listRoles(paths));
  const untracked = trackedButIgnored(paths.project, storeRel(paths));
  rememberFromGit(paths, untracked);
  untrack(paths.project, untracked);
  // A project .gitignore (or a global one) that ignores all of .claude/ still hides the shared files.
  const rel = storeRel(paths);
  const blockedBy = ignoringRules(paths.project, [`${rel}/team/MEMORY.md`, `${rel}/reviewer/knowledge.md`]);
  return {
    workTree,
    switchedOn,
    blockedBy,
    gitignoreLineRemoved,
    storeGitignoreWritten,
    gitattributesWritten: attributes !== null,
    driver: { command, previous },
    untracked,
    shared: sharedFiles(paths),
    toCommit: [paths.gitignore, paths.configFile, paths.echoes].filter((p) => existsSync(p)).map((p) => relative(paths.project, p)),
  };
}

/**
 * Personal files about to be untracked came from a commit (an older store's, a teammate's, the
 * cloned repository's): their stamps are kept so they are not read as this clone's until it writes them.
 */
function rememberFromGit(paths: EchoPaths, files: string[]): void {
  if (files.length === 0) return;
  const record: FromGit = { ...readFromGit(paths) };
  const rel = storeRel(paths);
  for (const f of files) {
    const st = statSync(join(paths.project, f), { throwIfNoEntry: false });
    if (st?.isFile()) record[relative(rel, f).split(sep).join('/')] = [st.size, st.mtimeMs, st.ino];
  }
  ensureDir(paths, paths.stateDir);
  writeFileAtomic(paths, fromGitFile(paths), JSON.stringify(record));
}

/** What git would commit under .claude/echoes/: tracked files and new ones no ignore rule holds back. */
function sharedFiles(paths: EchoPaths): string[] {
  const rel = storeRel(paths);
  const ignored = new Set(trackedButIgnored(paths.project, rel));
  const files = [...trackedFiles(paths.project, rel), ...untrackedNotIgnored(paths.project, rel)];
  return [...new Set(files)].filter((f) => !ignored.has(f)).sort();
}

export async function teamOff(paths: EchoPaths): Promise<TeamOffReport> {
  const switchedOff = await setVersionControlled(paths, false);
  const inGit = workTreeOf(paths.project) !== null;
  const gitignoreLineAdded = syncGitignore(paths, false);
  return { switchedOff, gitignoreLineAdded, stillTracked: inGit ? trackedFiles(paths.project, storeRel(paths)) : [] };
}

/** `unguarded`: ours, but installed by an older version without the fallback that keeps a teammate's side when the plugin moves. */
export type DriverState = 'installed' | 'missing' | 'stale' | 'unguarded' | 'custom';

export interface TeamHealth {
  /** Inside a git work tree (with git available). */
  git: boolean;
  versionControlled: boolean;
  driver: { state: DriverState; command: string | null; missingPaths: string[] };
  /** The store's .gitattributes names the memory files. */
  attributes: boolean;
  /** The store's .gitignore holds every personal pattern. */
  storeGitignore: boolean;
  /** Personal files git tracks (they would conflict on the next pull, and are never read while tracked). */
  trackedPersonal: string[];
  /** Memory files git would not merge with the driver (a `.gitattributes` line overrides it), with the merge it would use. */
  bypassed: Array<{ file: string; merge: string }>;
  /** Files under .claude/echoes/ git tracks. */
  tracked: number;
}

export function teamHealth(paths: EchoPaths, config: Pick<EchoesConfig, 'versionControlled'>): TeamHealth {
  const health: TeamHealth = {
    git: false,
    versionControlled: config.versionControlled,
    driver: { state: 'missing', command: null, missingPaths: [] },
    attributes: planStoreGitattributes(readTextOrNull(paths, paths.storeGitattributes)) === null,
    storeGitignore: planStoreGitignore(readTextOrNull(paths, paths.storeGitignore)) === null,
    trackedPersonal: [],
    bypassed: [],
    tracked: 0,
  };
  if (workTreeOf(paths.project) === null) return health;
  health.git = true;
  const rel = storeRel(paths);
  const tracked = trackedFiles(paths.project, rel);
  health.tracked = tracked.length;
  // A personal file git tracks came from a commit (a teammate's, a cloned repository's): reported in either mode.
  health.trackedPersonal = trackedButIgnored(paths.project, rel);
  if (!config.versionControlled && !existsSync(paths.storeGitattributes)) return health;
  const command = localConfig(paths.project, DRIVER_KEY);
  if (command !== null) {
    const used = driverPaths(command);
    const missingPaths = (used ?? []).filter((p) => !existsSync(p));
    const state = used === null ? 'custom' : missingPaths.length ? 'stale' : driverLacksFallback(command) ? 'unguarded' : 'installed';
    health.driver = { state, command, missingPaths };
  }
  health.bypassed = bypassedFiles(paths.project, rel, tracked);
  return health;
}

/** Memory files git would merge some other way than by the driver: a pulled `.gitattributes` line (`merge=union`, `-merge`) can override ours. */
function bypassedFiles(dir: string, rel: string, tracked: string[]): Array<{ file: string; merge: string }> {
  const memory = /\/(?:MEMORY|knowledge)\.md$|\/archive\/[^/]+\.md$/;
  const files = [...new Set([`${rel}/team/MEMORY.md`, ...tracked.filter((f) => memory.test(f))])];
  return [...mergeAttributes(dir, files)]
    .filter(([, merge]) => merge !== MERGE_DRIVER)
    .map(([file, merge]) => ({ file, merge }))
    .sort((a, b) => (a.file < b.file ? -1 : 1));
}
