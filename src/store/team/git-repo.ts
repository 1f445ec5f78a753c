// The few git commands team memory needs, run in the project folder: where the
// work tree is, the clone's merge-driver setting, which files git tracks, and
// untracking personal files (the working copies stay). Only the CLI calls
// these (`team`, `status`); no hook ever runs git.
import { execFileSync } from 'node:child_process';
import { EchoesError } from '../../core/errors.ts';

interface GitRun {
  ok: boolean;
  stdout: string;
  stderr: string;
}

function run(cwd: string, args: string[]): GitRun {
  try {
    const stdout = execFileSync('git', args, {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 30_000,
      // Reads must not take the index lock a concurrent `git commit` needs.
      env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' },
    });
    return { ok: true, stdout, stderr: '' };
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stdout?: string; stderr?: string };
    if (e.code === 'ENOENT') throw new EchoesError('git', 'git is not installed or not on PATH; team memory shares through git');
    return { ok: false, stdout: String(e.stdout ?? ''), stderr: String(e.stderr ?? '') };
  }
}

function must(cwd: string, args: string[]): string {
  const r = run(cwd, args);
  if (!r.ok) throw new EchoesError('git', `git ${args.join(' ')} failed: ${r.stderr.trim().split('\n')[0] || 'no message'}`);
  return r.stdout;
}

/** The top of the git work tree holding `dir`, or null outside one (or without git). */
export function workTreeOf(dir: string): string | null {
  try {
    const r = run(dir, ['rev-parse', '--show-toplevel']);
    return r.ok ? r.stdout.trim() : null;
  } catch {
    return null;
  }
}

/**
 * The ignore rules that still hold back `paths` (relative to `dir`), one
 * `source:line:pattern` each: a file's own rule, or a parent folder's that git
 * cannot undo with `!` below it.
 */
export function ignoringRules(dir: string, paths: string[]): string[] {
  const r = run(dir, ['check-ignore', '-v', '--no-index', '--', ...paths]);
  if (!r.ok) return [];
  return [
    ...new Set(
      r.stdout
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => l.split('\t')[0]!.trim())
        // `-v` also names the `!pattern` that re-includes a path: that rule lets it through.
        .filter((rule) => !/^(?:[^:]*:){2}!/.test(rule)),
    ),
  ];
}

/** A setting of this clone only (`.git/config`), or null when unset. */
export function localConfig(dir: string, key: string): string | null {
  const r = run(dir, ['config', '--local', '--get', key]);
  return r.ok ? r.stdout.replace(/\n$/, '') : null;
}

export function setLocalConfig(dir: string, key: string, value: string): void {
  must(dir, ['config', '--local', key, value]);
}

const zList = (out: string) => out.split('\0').filter((p) => p !== '');

/** Files under `sub` that git tracks, relative to `dir`. */
export function trackedFiles(dir: string, sub: string): string[] {
  return zList(must(dir, ['ls-files', '-z', '--', sub]));
}

/** Files under `sub` that git tracks although an ignore rule now matches them. */
export function trackedButIgnored(dir: string, sub: string): string[] {
  return zList(must(dir, ['ls-files', '-z', '--cached', '--ignored', '--exclude-standard', '--', sub]));
}

/** Files under `sub` that git does not track and no ignore rule holds back: what `git add` would pick up. */
export function untrackedNotIgnored(dir: string, sub: string): string[] {
  return zList(must(dir, ['ls-files', '-z', '--others', '--exclude-standard', '--', sub]));
}

/** The `merge` attribute git applies to each path (relative to `dir`): `unspecified`, `set`, `unset` or a driver's name. */
export function mergeAttributes(dir: string, paths: string[]): Map<string, string> {
  const out = new Map<string, string>();
  const r = run(dir, ['check-attr', '-z', 'merge', '--', ...paths]);
  if (!r.ok) return out;
  const parts = r.stdout.split('\0');
  for (let i = 0; i + 2 < parts.length; i += 3) out.set(parts[i]!, parts[i + 2]!);
  return out;
}

/** Stops tracking the files; the working copies stay as they are. */
export function untrack(dir: string, files: string[]): void {
  if (files.length) must(dir, ['rm', '--cached', '--quiet', '--ignore-unmatch', '--', ...files]);
}
