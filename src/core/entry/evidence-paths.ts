// The file paths a finding's evidence cites, without line ranges. Kept apart
// from the glob matching in path-ignore.ts so that reading them costs no
// glob library.

/** `src/a.ts:10-20` → `src/a.ts`; `C:\x\y` → `x/y`; `./a` → `a`. */
export function normalizeCitedPath(path: string): string {
  let p = path.trim().replace(/^[`'"]+|[`'"]+$/g, '');
  p = p.replace(/^file:\/\//i, '');
  p = p.replace(/#L\d+(?:-L?\d+)?$/i, '').replace(/(?::\d+(?:[-:]\d+)*)+$/, '');
  p = p
    .replace(/\\/g, '/')
    .replace(/^[A-Za-z]:\//, '/')
    .replace(/\/{2,}/g, '/');
  p = p.replace(/^(?:\.\/)+/, '').replace(/\/(?:\.\/)+/g, '/');
  return p.length > 1 ? p.replace(/\/$/, '') : p;
}

const TOKEN_SPLIT = /[\s`'"(),;|<>]+/;
const TRIM_START = /^[[{*]+/;
const TRIM_END = /[.:;!?*\]}]+$/;
const BARE_KEY_FILE = /^id_(?:rsa|dsa|ecdsa|ed25519)(?:\.pub)?$/i;
const NAME_DOT_EXT = /^[\w.@+-]*[A-Za-z_][\w.@+-]*\.[A-Za-z][A-Za-z0-9]{0,9}$/;
const DOTFILE = /^\.[A-Za-z0-9_][\w.-]*$/;

/**
 * The file paths an evidence string cites — `src/auth.py:1-5`,
 * `./lib/x.ts#L3`, `.env.local`, `/etc/app/secrets/db.yml` — without their
 * line ranges, in order of appearance, without duplicates. URLs and e-mail
 * addresses are not paths. Prose words like `Node.js` may come through; that
 * is harmless for the callers (ignore checks and reference matching).
 */
export function evidencePaths(evidence: string): string[] {
  const found: string[] = [];
  for (const raw of evidence.split(TOKEN_SPLIT)) {
    const token = raw.replace(TRIM_START, '').replace(TRIM_END, '');
    if (!token || token.includes('://') || /^[^/@]+@/.test(token)) continue;
    const path = normalizeCitedPath(token);
    if (!isPathShaped(path)) continue;
    if (!found.includes(path)) found.push(path);
  }
  return found;
}

function isPathShaped(p: string): boolean {
  if (p.length < 2 || /^[\d/.:-]+$/.test(p)) return false; // dates, fractions, versions
  if (p.includes('/')) return /[A-Za-z_]/.test(p);
  if (BARE_KEY_FILE.test(p) || DOTFILE.test(p)) return true;
  if (!NAME_DOT_EXT.test(p)) return false;
  const dot = p.lastIndexOf('.');
  return dot >= 2 || p.length - dot - 1 >= 2; // `e.g` and `i.e` are prose
}

/**
 * The places an evidence string cites, with their line ranges as written:
 * `api/settings.py:12`, `src/a.ts:10-20`, `lib/x.ts#L3`. What stays of a
 * finding's evidence when the rest had to go: enough to tell two findings
 * about different places apart.
 */
export function evidenceLocations(evidence: string): string[] {
  const found: string[] = [];
  for (const raw of evidence.split(TOKEN_SPLIT)) {
    const token = raw
      .replace(TRIM_START, '')
      .replace(/[.;!?*\]}]+$/, '')
      .replace(/:$/, '');
    if (!token || token.includes('://') || /^[^/@]+@/.test(token)) continue;
    const path = normalizeCitedPath(token);
    if (!isPathShaped(path)) continue;
    const lines = /(?:#L\d+(?:-L?\d+)?|(?::\d+(?:[-:]\d+)*)+)$/i.exec(token)?.[0] ?? '';
    const place = `${path}${lines}`;
    if (!found.includes(place)) found.push(place);
  }
  return found;
}
