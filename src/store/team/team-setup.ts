// Team memory through git (SPEC §3 team mode): `team init` sets a clone up —
// the config switch, the .gitignore line, the store's own .gitignore and
// .gitattributes, this clone's merge-driver setting — and `team off` turns it
// off; `status` asks teamHealth what is missing. Personal files never move on
// disk: they are git-ignored by name in both modes, so switching changes only
// what git sees, and both commands say what that is.
import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import type { EchoesConfig } from '../../core/config/config-defaults.ts';
import { EchoesError } from '../../core/errors.ts';
import {
  DRIVER_DESCRIPTION,
  driverCommand,
  driverPaths,
  MERGE_DRIVER,
  planStoreGitattributes,
  planStoreGitignore,
} from '../../core/team/shared-files.ts';
import { ensureDir, readTextOrNull, writeFileAtomic } from '../fs/atomic-file.ts';
import type { EchoPaths } from '../fs/echo-paths.ts';
import { ensureStoreGitignore, syncGitignore } from '../gitignore.ts';
import {
  ignoringRules,
  localConfig,
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
  const untracked = trackedButIgnored(paths.project, storeRel(paths));
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
  };
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

export type DriverState = 'installed' | 'missing' | 'stale' | 'custom';

export interface TeamHealth {
  /** Inside a git work tree (with git available). */
  git: boolean;
  versionControlled: boolean;
  driver: { state: DriverState; command: string | null; missingPaths: string[] };
  /** The store's .gitattributes names the memory files. */
  attributes: boolean;
  /** The store's .gitignore holds every personal pattern. */
  storeGitignore: boolean;
  /** Personal files git tracks (they would conflict on the next pull). */
  trackedPersonal: string[];
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
    tracked: 0,
  };
  if (workTreeOf(paths.project) === null) return health;
  health.git = true;
  const rel = storeRel(paths);
  health.tracked = trackedFiles(paths.project, rel).length;
  if (!config.versionControlled && !existsSync(paths.storeGitattributes)) return health;
  const command = localConfig(paths.project, DRIVER_KEY);
  if (command !== null) {
    const used = driverPaths(command);
    const missingPaths = (used ?? []).filter((p) => !existsSync(p));
    health.driver = { state: used === null ? 'custom' : missingPaths.length ? 'stale' : 'installed', command, missingPaths };
  }
  if (config.versionControlled) health.trackedPersonal = trackedButIgnored(paths.project, rel);
  return health;
}
