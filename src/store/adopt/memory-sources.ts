// Where the memory people already keep lives, for this project and user
// (issue 12): Claude Code's auto memory for this project's path, native
// subagent memory, continuity.md, ArcheFlow lessons, CLAUDE.md, recall-echo's
// curated memory, and this store's own role files still in the old format.
// Only names and sizes here: nothing is parsed, so `status` can ask cheaply.
import { lstatSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, normalize, relative, resolve, sep } from 'node:path';
import type { SourceKind } from '../../core/adopt/source-reading.ts';
import { bareAgentName } from '../../core/recall/agent-roles.ts';
import { compareText, isSafeName } from '../../core/text.ts';
import { readTextOrNull } from '../fs/atomic-file.ts';
import { type EchoPaths, isRoleName, memoryFile } from '../fs/echo-paths.ts';
import { mainWorktreeRoot } from '../fs/git-dirs.ts';
import { listRoles } from '../memory/role-listing.ts';
import { declaredRole } from '../recall/agent-definitions.ts';

export interface FoundSource {
  kind: SourceKind;
  /** Absolute path of the file. */
  path: string;
  /** How reports and evidence name it: project-relative, or `~/…`. */
  ref: string;
  /** The role its entries go to unless --role says otherwise. */
  role: string;
  /** Topic files of an index MEMORY.md, relative to its folder (their index lines are not read twice). */
  topicFiles?: string[];
  /** A file the user named: its format is detected from its name and text when read. */
  detect?: boolean;
}

/** Past this length Claude Code cuts a project's folder name and adds a hash of the whole path. */
const SLUG_MAX = 200;

/**
 * Claude Code keeps a project's transcripts and auto memory under its path with every non-alphanumeric
 * (UTF-16 unit) as '-'; a longer name is cut at 200 characters and given `-<hash>` so paths that share
 * a prefix stay apart (the 32-bit `h*31 + c` string hash of the path, in base 36).
 */
export function claudeProjectSlug(project: string): string {
  const path = resolve(project);
  const slug = path.replace(/[^A-Za-z0-9]/g, '-');
  if (slug.length <= SLUG_MAX) return slug;
  let h = 0;
  for (let i = 0; i < path.length; i++) h = (Math.imul(h, 31) + path.charCodeAt(i)) | 0;
  return `${slug.slice(0, SLUG_MAX)}-${Math.abs(h).toString(36)}`;
}

/** Where Claude Code keeps its own files for this user: `CLAUDE_CONFIG_DIR`, else `~/.claude`. */
export function claudeConfigDir(home: string, env: Readonly<Record<string, string | undefined>> = {}): string {
  const set = env.CLAUDE_CONFIG_DIR?.trim();
  return set ? resolve(set) : join(home, '.claude');
}

/**
 * `autoMemoryDirectory` from the user's own settings, as a folder. A project's settings
 * (`.claude/settings.json`, `.claude/settings.local.json`) come with the repository, and a
 * cloned repository must not point import and export at `~` or `../x`: like Claude Code, which
 * ignores the key in checked-in settings, only the user's settings count. The value is taken as
 * Claude Code takes it: `~/…` under home (never above it), else an absolute path; anything else
 * (`~`, a relative path, a root, a NUL) sets nothing.
 */
export function settingsMemoryDir(home: string, configDir: string): string | null {
  let value: unknown;
  try {
    value = (JSON.parse(readFileSync(join(configDir, 'settings.json'), 'utf8')) as Record<string, unknown>)?.autoMemoryDirectory;
  } catch {
    return null;
  }
  if (typeof value !== 'string' || value.includes('\u0000')) return null;
  const v = value.trim();
  let dir: string;
  if (v.startsWith('~/') || v.startsWith('~\\')) {
    const rest = normalize(v.slice(2) || '.');
    if (rest === '.' || rest === '..' || rest.startsWith(`..${sep}`) || isAbsolute(rest)) return null;
    dir = join(home, rest);
  } else if (isAbsolute(v)) dir = normalize(v);
  else return null;
  dir = dir.replace(/[/\\]+$/, '');
  return dir.length < 3 ? null : dir;
}

/** The project's own settings files that set `autoMemoryDirectory` (ignored; `status` and import may say so). */
export function projectMemoryDirSettings(project: string): string[] {
  const out: string[] = [];
  for (const rel of ['.claude/settings.json', '.claude/settings.local.json']) {
    try {
      const value = (JSON.parse(readFileSync(join(project, rel), 'utf8')) as Record<string, unknown>)?.autoMemoryDirectory;
      if (value !== undefined) out.push(rel);
    } catch {
      /* no settings, or not JSON */
    }
  }
  return out;
}

/**
 * The folders Claude Code's auto memory for this project may be in, the one it uses first: the
 * `autoMemoryDirectory` of the user's settings, else the main worktree's (shared by worktrees and subfolders),
 * then this folder's own (older versions, or a project outside git).
 */
export function autoMemoryDirs(project: string, home: string, configDir = join(home, '.claude')): string[] {
  const byPath = (root: string) => join(configDir, 'projects', claudeProjectSlug(root), 'memory');
  const main = mainWorktreeRoot(project);
  const dirs = [settingsMemoryDir(home, configDir), main ? byPath(main) : null, byPath(project)];
  return [...new Set(dirs.filter((d): d is string => d !== null))];
}

/** Where Claude Code reads this project's auto memory (and `export` writes it). */
export function autoMemoryDir(project: string, home: string, configDir = join(home, '.claude')): string {
  return autoMemoryDirs(project, home, configDir)[0]!;
}

export function refOf(paths: EchoPaths, home: string, path: string): string {
  const under = (base: string) => {
    const rel = relative(base, path);
    return rel.startsWith('..') || isAbsolute(rel) ? null : rel.split(sep).join('/');
  };
  const inProject = under(paths.project);
  const inHome = under(home);
  // The nearer base wins: a home folder inside the project (tests) still reads `~/…`.
  if (inHome !== null && (inProject === null || inHome.length < inProject.length)) return `~/${inHome}`;
  return inProject ?? path;
}

const isFile = (p: string): boolean => {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
};

/** True when `p`, once every link on its way is followed, is `root` or inside it (false when it cannot be resolved). */
function resolvesInto(p: string, root: string): boolean {
  try {
    const real = realpathSync(p);
    const top = realpathSync(root);
    return real === top || real.startsWith(top.endsWith(sep) ? top : `${top}${sep}`);
  } catch {
    return false;
  }
}

/**
 * True when `p` is within `base` once links are followed: a memory folder is often committed, and a
 * link in it to `~/.bash_history` or `/etc` must not turn someone's files into memory.
 */
function staysIn(p: string, base: string): boolean {
  try {
    if (!lstatSync(p).isSymbolicLink()) return true;
  } catch {
    return false;
  }
  return resolvesInto(p, base);
}

/** Topic files sit beside the index or in its subfolders (`notes/x.md`); this deep at most. */
const TOPIC_DEPTH = 3;

/** The markdown files of a memory folder, as paths relative to it (`notes/x.md`), links out of it left aside. */
function markdownIn(dir: string, base = dir, depth = 0): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const n of names.sort(compareText)) {
    const p = join(dir, n);
    if (!staysIn(p, base)) continue;
    if (n.endsWith('.md') && isFile(p)) out.push(relative(base, p).split(sep).join('/'));
    else if (depth + 1 < TOPIC_DEPTH && !n.startsWith('.') && isDir(p)) out.push(...markdownIn(p, base, depth + 1));
  }
  return out;
}

const isDir = (p: string): boolean => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

const dirsIn = (dir: string): string[] => {
  try {
    return readdirSync(dir)
      .filter((n) => staysIn(join(dir, n), dir) && isDir(join(dir, n)))
      .sort(compareText);
  } catch {
    return [];
  }
};

/** A memory directory of Claude Code's shape: MEMORY.md first, then its topic files. */
function memoryDir(dir: string, kind: SourceKind, role: string, ref: (p: string) => string): FoundSource[] {
  const names = markdownIn(dir);
  const topics = names.filter((n) => n !== 'MEMORY.md');
  const out: FoundSource[] = [];
  if (names.includes('MEMORY.md'))
    out.push({ kind, path: join(dir, 'MEMORY.md'), ref: ref(join(dir, 'MEMORY.md')), role, topicFiles: topics });
  for (const t of topics) out.push({ kind, path: join(dir, t), ref: ref(join(dir, t)), role });
  return out;
}

/**
 * The role a subagent's memory goes to: the one SubagentStart gives that subagent (`echoes.agents`, else the
 * `role:` of its definition), else a role named after it.
 */
function roleOfAgent(agent: string, paths: EchoPaths, home: string, agents: Readonly<Record<string, string>>): string {
  const usable = (r: string | null | undefined): r is string => typeof r === 'string' && isSafeName(r) && isRoleName(r);
  const configured = Object.hasOwn(agents, agent) ? agents[agent] : agents[bareAgentName(agent)];
  if (usable(configured)) return configured;
  const declared = declaredRole(agent, { project: paths.project, home, pluginRoot: undefined });
  return usable(declared) ? declared : agentRole(agent);
}

/** A role name for a subagent type (`code-reviewer`, `my-plugin:scout` → `my-plugin-scout`), or team. */
function agentRole(agent: string): string {
  const name = agent
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return isSafeName(name) && isRoleName(name) ? name : 'team';
}

/** Every source of this project and user that `import` can read. */
export function findSources(
  paths: EchoPaths,
  home: string,
  configDir = join(home, '.claude'),
  agents: Readonly<Record<string, string>> = {},
): FoundSource[] {
  const ref = (p: string) => refOf(paths, home, p);
  const agentRole = (agent: string) => roleOfAgent(agent, paths, home, agents);
  const root = paths.project;
  // What the repository holds comes with a clone: a committed link (CLAUDE.md, .archeflow, the agent
  // memory folder itself, or any folder on the way) that leads out of the project is not followed.
  // The user's own folders (auto memory, ~/.claude) are theirs: only links out of a memory folder are left.
  const out: FoundSource[] = [];
  const fromProject = (found: FoundSource[]) => out.push(...found.filter((s) => resolvesInto(s.path, root)));
  for (const dir of autoMemoryDirs(root, home, configDir)) out.push(...memoryDir(dir, 'auto-memory', 'team', ref));
  // A subagent's memory: the project's (committed, or local) and the user's own, across projects.
  for (const base of [join(root, '.claude', 'agent-memory'), join(root, '.claude', 'agent-memory-local')]) {
    for (const agent of dirsIn(base)) fromProject(memoryDir(join(base, agent), 'agent-memory', agentRole(agent), ref));
  }
  const userAgents = join(configDir, 'agent-memory');
  for (const agent of dirsIn(userAgents)) out.push(...memoryDir(join(userAgents, agent), 'agent-memory', agentRole(agent), ref));
  for (const rel of ['memory/continuity.md', 'continuity.md', '.agent/continuity.md']) {
    const p = join(root, rel);
    if (isFile(p)) fromProject([{ kind: 'continuity', path: p, ref: ref(p), role: 'team' }]);
  }
  const lessons = join(root, '.archeflow', 'memory', 'lessons.jsonl');
  if (isFile(lessons)) fromProject([{ kind: 'archeflow', path: lessons, ref: ref(lessons), role: 'team' }]);
  for (const rel of ['CLAUDE.md', '.claude/CLAUDE.md', 'CLAUDE.local.md']) {
    const p = join(root, rel);
    if (isFile(p)) fromProject([{ kind: 'claude-md', path: p, ref: ref(p), role: 'team' }]);
  }
  // recall-echo keeps its curated memory in ~/.claude/memory/ (its other files are session history).
  const recall = join(configDir, 'memory');
  if (isFile(join(recall, 'MEMORY.md'))) out.push(...memoryDir(recall, 'recall-echo', 'team', ref));
  return out;
}

/** Role files of this store in Rune's old format (no v2 schema header): `migrate` upgrades them in place. */
export function oldFormatRoleFiles(paths: EchoPaths): Array<{ role: string; path: string }> {
  const out: Array<{ role: string; path: string }> = [];
  for (const role of listRoles(paths)) {
    const path = memoryFile(paths, role);
    const head = readTextOrNull(paths, path)?.slice(0, 4096);
    if (head !== undefined && head !== null && !/<!--\s*echo-schema:\s*v2\s*-->/i.test(head)) out.push({ role, path });
  }
  return out;
}

/** The source a path the user named stands for; its format is detected when read. */
export function namedSource(
  paths: EchoPaths,
  home: string,
  path: string,
  agents: Readonly<Record<string, string>> = {},
): Omit<FoundSource, 'kind'> {
  const abs = resolve(paths.project, path);
  const parts = abs.split(sep);
  const at = parts.lastIndexOf('echoes');
  const agentAt = Math.max(parts.lastIndexOf('agent-memory'), parts.lastIndexOf('agent-memory-local'));
  // `…/echoes/<role>/MEMORY.md`: an old Rune store elsewhere keeps its role; a subagent's memory goes to its role.
  const role =
    at >= 0 && at === parts.length - 3 && basename(abs) === 'MEMORY.md' && isRoleName(parts[at + 1] ?? '')
      ? parts[at + 1]!
      : agentAt >= 0 && agentAt === parts.length - 3
        ? roleOfAgent(parts[agentAt + 1] ?? '', paths, home, agents)
        : 'team';
  return { path: abs, ref: refOf(paths, home, abs), role };
}
