// Stable entry ids (SPEC §4): a kebab slug of the title, made unique in file
// order. v2 files write the id once and never change it; v1 files derive it on
// read, which is why the derivation must be deterministic.

import { EchoesError } from '../errors.ts';
import { quoteInput } from '../text.ts';

const MAX_ID_LENGTH = 64;

/** Ids that a file may carry explicitly: kebab, lower case, at most 64 chars. */
export function isValidId(id: string): boolean {
  return id.length > 0 && id.length <= MAX_ID_LENGTH && /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/.test(id);
}

/**
 * Kebab slug of a title: [a-z0-9-], at most 64 chars, never empty. Accents are
 * folded (é → e); a title with no latin letters or digits at all (Korean,
 * emoji) gets `entry-<hash>` so two such titles still get different ids.
 */
export function slugifyTitle(title: string): string {
  // Only Latin letters with marks and full-width forms change under NFKD in a way
  // that matters here; skipping it otherwise keeps long files fast.
  const foldable = /[\u00a0-\u024f\u1e00-\u1eff\uff00-\uffef]/.test(title);
  const folded = (foldable ? title.normalize('NFKD').replace(/[\u0300-\u036f]/g, '') : title).toLowerCase();
  let slug = folded.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  if (slug.length > MAX_ID_LENGTH) slug = slug.slice(0, MAX_ID_LENGTH).replace(/-+$/, '');
  if (slug) return slug;
  return title.trim() ? `entry-${shortHash(title.trim())}` : 'entry';
}

/**
 * `base` when free, else `base-2`, `base-3` … — trimmed so the result stays
 * within 64 chars. `counters` (optional, per file) remembers the last suffix
 * tried for each base, so hundreds of same-titled entries stay linear.
 */
export function uniqueId(base: string, taken: Set<string>, counters?: Map<string, number>): string {
  const root = base || 'entry';
  if (!taken.has(root)) return root;
  for (let n = counters?.get(root) ?? 2; ; n++) {
    const suffix = `-${n}`;
    const head = root.length + suffix.length > MAX_ID_LENGTH ? root.slice(0, MAX_ID_LENGTH - suffix.length).replace(/-+$/, '') : root;
    const candidate = `${head}${suffix}`;
    if (!taken.has(candidate)) {
      counters?.set(root, n + 1);
      return candidate;
    }
  }
}

/** 32-bit FNV-1a as 6 hex digits: enough to tell titles apart inside one file. */
function shortHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0').slice(0, 6);
}

/**
 * The one entry an id names, as a user types it: the id itself, else a unique
 * prefix of one (ids are long; `show` prints them whole). Refuses in one line
 * when none or several match, naming the matches.
 */
export function pickOneEntry<T extends { role: string; entry: { id: string } }>(all: T[], typed: string, command: string): T {
  const exact = all.filter((x) => x.entry.id === typed);
  const found = exact.length > 0 ? exact : typed === '' ? [] : all.filter((x) => x.entry.id.startsWith(typed));
  if (found.length === 1) return found[0]!;
  if (found.length === 0) throw new EchoesError('not-found', `${command}: no entry "${quoteInput(typed)}"; list ids with rune-echoes show`);
  const names = found.slice(0, 6).map((x) => `${x.role}/${x.entry.id}`);
  const more = found.length > names.length ? ` and ${found.length - names.length} more` : '';
  throw new EchoesError(
    'bad-argument',
    `${command}: "${quoteInput(typed)}" matches ${names.join(', ')}${more}; give more of the id, or --role`,
  );
}
