// Paths that must never be cited as evidence (SPEC §7, `echoes.ignore`).

import picomatch from 'picomatch';
import { normalizeCitedPath } from '../entry/evidence-paths.ts';

export { evidencePaths, normalizeCitedPath } from '../entry/evidence-paths.ts';

export const DEFAULT_IGNORE_GLOBS: readonly string[] = ['**/.env*', '**/*.pem', '**/id_rsa*', '**/secrets/**'];

type Matcher = (path: string) => boolean;
// Compiling globs costs far more than matching; configs hold a handful of
// lists, so a small cache keyed by the list is enough.
const matchers = new Map<string, Matcher>();

function matcherFor(globs: readonly string[]): Matcher {
  const key = globs.join('\0');
  let m = matchers.get(key);
  if (!m) {
    // nocase: on case-insensitive file systems `.ENV` is the same file, and an
    // ignore list errs on the side of ignoring.
    m = globs.length === 0 ? () => false : picomatch([...globs], { dot: true, nocase: true });
    if (matchers.size > 32) matchers.clear();
    matchers.set(key, m);
  }
  return m;
}

/**
 * True when the path matches one of the globs. Relative and absolute paths
 * both work: the globs are tried against the path and against every tail of
 * it (`/home/me/app/config/x` also as `config/x`), because an evidence path
 * may be written from any root and an ignore list should rather ignore too
 * much than cite a secret file.
 */
export function isIgnoredPath(path: string, globs: readonly string[] = DEFAULT_IGNORE_GLOBS): boolean {
  const match = matcherFor(globs);
  const p = normalizeCitedPath(path);
  if (p === '') return false;
  if (match(p)) return true;
  const segments = p.split('/').filter((s) => s !== '' && s !== '..');
  for (let i = 0; i < segments.length; i++) {
    if (match(segments.slice(i).join('/'))) return true;
  }
  return false;
}
