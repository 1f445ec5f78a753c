// Where the memory people already keep lives, for this project and user
// (issue 12): Claude Code's auto memory for this project's path, native
// subagent memory, continuity.md, ArcheFlow lessons, CLAUDE.md, recall-echo's
// curated memory, and this store's own role files still in the old format.
// Only names and sizes here: nothing is parsed, so `status` can ask cheaply.
import { readdirSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { SourceKind } from '../../core/adopt/source-reading.ts';
import { compareText, isSafeName } from '../../core/text.ts';
import { readTextOrNull } from '../fs/atomic-file.ts';
import { type EchoPaths, isRoleName, memoryFile } from '../fs/echo-paths.ts';
import { listRoles } from '../memory/role-listing.ts';

export interface FoundSource {
  kind: SourceKind;
  /** Absolute path of the file. */
  path: string;
  /** How reports and evidence name it: project-relative, or `~/…`. */
  ref: string;
  /** The role its entries go to unless --role says otherwise. */
  role: string;
  /** Sibling topic files of an index MEMORY.md (their index lines are not read twice). */
  topicFiles?: string[];
  /** A file the user named: its format is detected from its name and text when read. */
  detect?: boolean;
}

/** Claude Code keeps a project's transcripts and auto memory under its path with every non-alphanumeric as '-'. */
export function claudeProjectSlug(project: string): string {
  return resolve(project).replace(/[^A-Za-z0-9]/g, '-');
}

export function autoMemoryDir(project: string, home: string): string {
  return join(home, '.claude', 'projects', claudeProjectSlug(project), 'memory');
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

const markdownIn = (dir: string): string[] => {
  try {
    return readdirSync(dir)
      .filter((n) => n.endsWith('.md') && isFile(join(dir, n)))
      .sort(compareText);
  } catch {
    return [];
  }
};

const dirsIn = (dir: string): string[] => {
  try {
    return readdirSync(dir)
      .filter((n) => {
        try {
          return statSync(join(dir, n)).isDirectory();
        } catch {
          return false;
        }
      })
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

/** A role name for a subagent type (`code-reviewer`, `my-plugin:scout` → `my-plugin-scout`), or team. */
function agentRole(agent: string): string {
  const name = agent
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return isSafeName(name) && isRoleName(name) ? name : 'team';
}

/** Every source of this project and user that `import` can read. */
export function findSources(paths: EchoPaths, home: string): FoundSource[] {
  const ref = (p: string) => refOf(paths, home, p);
  const root = paths.project;
  const out: FoundSource[] = [];
  out.push(...memoryDir(autoMemoryDir(root, home), 'auto-memory', 'team', ref));
  for (const scope of ['agent-memory', 'agent-memory-local']) {
    const base = join(root, '.claude', scope);
    for (const agent of dirsIn(base)) out.push(...memoryDir(join(base, agent), 'agent-memory', agentRole(agent), ref));
  }
  for (const rel of ['memory/continuity.md', 'continuity.md', '.agent/continuity.md']) {
    const p = join(root, rel);
    if (isFile(p)) out.push({ kind: 'continuity', path: p, ref: ref(p), role: 'team' });
  }
  const lessons = join(root, '.archeflow', 'memory', 'lessons.jsonl');
  if (isFile(lessons)) out.push({ kind: 'archeflow', path: lessons, ref: ref(lessons), role: 'team' });
  for (const rel of ['CLAUDE.md', '.claude/CLAUDE.md', 'CLAUDE.local.md']) {
    const p = join(root, rel);
    if (isFile(p)) out.push({ kind: 'claude-md', path: p, ref: ref(p), role: 'team' });
  }
  // recall-echo keeps its curated memory in ~/.claude/memory/ (its other files are session history).
  const recall = join(home, '.claude', 'memory');
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
export function namedSource(paths: EchoPaths, home: string, path: string): Omit<FoundSource, 'kind'> {
  const abs = resolve(paths.project, path);
  const parts = abs.split(sep);
  const at = parts.lastIndexOf('echoes');
  // `…/echoes/<role>/MEMORY.md`: an old Rune store elsewhere keeps its role.
  const role =
    at >= 0 && at === parts.length - 3 && basename(abs) === 'MEMORY.md' && isRoleName(parts[at + 1] ?? '') ? parts[at + 1]! : 'team';
  return { path: abs, ref: refOf(paths, home, abs), role };
}
