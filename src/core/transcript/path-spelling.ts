// One spelling per file. Tools name files as absolute paths, as paths relative
// to the shell's directory at that moment (which moves with `cd`), with `./`
// and `..` segments; a summary shows each file once, relative to the project.
// Pure string work, whatever system the hooks run on: POSIX paths as they are,
// Windows paths (`X:\a\b`, `X:/a/b`, `\\server\share`) by Node's own win32 path
// rules (which compare without regard to case, as Windows does), spelled with
// forward slashes and an upper-case drive letter. No fs; `~` is left as it is.

import { win32 } from 'node:path';

// A drive path (`C:\…`, `c:/…`) and a network one (`\\server\share`).
const DRIVE = /^[A-Za-z]:[\\/]/;
const UNC = /^\\\\[^\\]/;

// Claude Code's own files (plans, tool-result spills, background task output) are not the project's.
const CLAUDE_CODE_FILE = /(?:^|\/)\.claude\/(?:plans|projects|todos|shell-snapshots)\/|^\/tmp\/claude-[^/]*\//;

/** A file Claude Code keeps for itself (a plan, a spilled tool result, a background task's output), spelled with `/`. */
export const isClaudeCodeFile = (path: string): boolean => CLAUDE_CODE_FILE.test(path);

/** True for a path that does not depend on the directory it is read in. */
export function isAbsolutePath(path: string): boolean {
  return path.startsWith('/') || path.startsWith('~') || DRIVE.test(path) || UNC.test(path);
}

const isWindowsPath = (path: string): boolean => DRIVE.test(path) || UNC.test(path);

/** A Windows path with forward slashes and an upper-case drive letter (`x:\a\b` → `X:/a/b`); any other as it is. */
export function slashPath(path: string): string {
  if (DRIVE.test(path)) return `${path.charAt(0).toUpperCase()}:${path.slice(2).replace(/\\/g, '/')}`;
  return UNC.test(path) ? path.replace(/\\/g, '/') : path;
}

/** A Windows path resolved by win32's rules, slashed, without a trailing slash past its root. */
function windowsPath(path: string): string {
  const slashed = slashPath(win32.normalize(path));
  return /^[A-Z]:\/$/.test(slashed) ? slashed : slashed.replace(/\/+$/, '');
}

/** `.` and `..` segments resolved, repeated and trailing slashes dropped; '' for an empty relative path. */
export function normalizePath(path: string): string {
  if (isWindowsPath(path)) return windowsPath(path);
  const absolute = path.startsWith('/');
  const out: string[] = [];
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (!absolute) out.push('..');
      continue;
    }
    out.push(seg);
  }
  const joined = out.join('/');
  return absolute ? `/${joined}` : joined;
}

/** A path as a tool gave it, resolved against the directory it was used in (absolute when that is known). */
export function absolutePath(path: string, dir: string | null): string {
  if (isAbsolutePath(path)) return path.startsWith('~') ? path : normalizePath(path);
  if (!dir || !isAbsolutePath(dir) || dir.startsWith('~')) return normalizePath(path) || '.';
  // Under a Windows directory a relative path is a Windows one too (`src\\a.py`).
  return isWindowsPath(dir) ? windowsPath(win32.resolve(dir, path)) : normalizePath(`${dir}/${path}`);
}

/** `root/a/b` → `a/b`; `root` itself → `.`; a path outside the root is returned as it is. */
export function relativePath(path: string, root: string | null): string {
  if (!root) return path;
  const base = normalizePath(root);
  if (isWindowsPath(base)) {
    if (!isWindowsPath(path)) return path;
    const rel = win32.relative(base, path);
    if (rel === '') return '.';
    return rel.startsWith('..') || win32.isAbsolute(rel) ? windowsPath(path) : rel.replace(/\\/g, '/');
  }
  if (path === base) return '.';
  if (base === '/') return path.startsWith('/') ? path.slice(1) : path;
  if (base && path.startsWith(`${base}/`)) return path.slice(base.length + 1);
  return path;
}

/** The project-relative spelling of a path used in `dir`: resolved, then made relative to the project root. */
export function projectPath(path: string, dir: string | null, root: string | null): string {
  return relativePath(absolutePath(path, dir), root ?? dir);
}

/**
 * A project-relative directory ('' for the root itself), or null when `dir`
 * lies outside the project (then commands keep the paths they were given).
 */
export function projectDir(dir: string | null, root: string | null): string | null {
  if (!dir || !root) return '';
  const rel = relativePath(normalizePath(dir), root);
  if (rel === '.') return '';
  return isAbsolutePath(rel) ? null : rel;
}

/**
 * Absolute paths inside a command's text made relative to the directory it ran
 * in: `<dir>/x` → `x`, `<dir>` → `.`, and a path elsewhere in the project →
 * `../x`. What is shown can be run from that directory as it is written.
 */
export function relativeInCommand(text: string, dir: string, root: string): string {
  const base = normalizePath(dir);
  const top = normalizePath(root);
  if (base.length <= 1 || !(base === top || base.startsWith(`${top}/`))) return text;
  // Paths under the project in the command spelled as the directories are (`X:\\proj\\a` → `X:/proj/a`);
  // other drive paths are left as they were written.
  let out = isWindowsPath(base)
    ? text.replace(new RegExp(`(?<![\\w])${escapeRegExp(top).replace(/\//g, '[\\\\/]')}(?:[\\\\/][^\\s"'\`;|&<>]*)?`, 'gi'), slashPath)
    : text;
  let up = '';
  // From the command's own directory up to the project root: the longest prefix goes first.
  for (let d = base; ; d = d.slice(0, d.lastIndexOf('/'))) {
    // The bare directory only where a word ends: `/proj` must not turn `/proj2` into `.2`.
    const bare = new RegExp(`${escapeRegExp(d)}(?=$|[\\s"'\`);|&<>])`, 'g');
    out = out
      .split(`${d}/`)
      .join(up)
      .replace(bare, up ? up.slice(0, -1) : '.');
    if (d === top || d.lastIndexOf('/') <= 0) break;
    up += '../';
  }
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
