// Applies the security filter (SPEC §7) to a whole entry before it is
// persisted, field by field as the field table says: secrets in text are
// redacted, sensitive or ignored-path evidence is dropped, checked values
// must still have their shape, and the learning itself is always kept.
// The result is built from the table alone, so a property the table does not
// know cannot reach disk unfiltered.
import { CONFIDENCE_WORDS, type EchoEntry, isLayer } from '../entry/echo-entry.ts';
import { orderedLikeTable } from '../entry/entry-build.ts';
import { ENTRY_FIELDS, type EntryField } from '../entry/entry-fields.ts';
import { slugifyTitle } from '../entry/entry-ids.ts';
import { parseIsoDate } from '../entry/field-values.ts';
import type { Fingerprint } from './fingerprint.ts';
import { filterEvidence, filterSecrets, isAboutEmail } from './secret-filter.ts';

export interface SanitizeResult {
  entry: EchoEntry;
  /** True when anything was redacted or removed. */
  changed: boolean;
  evidenceStripped: boolean;
}

/** What a checked field may hold; anything else is replaced by its empty value. */
function checkedValue(f: EntryField, v: unknown): unknown {
  // The provenance mark is a hash in hex (core/team/provenance.ts): nothing else may ride in it.
  if (f.prop === 'origin') return typeof v === 'string' && /^[0-9a-f]{8,64}$/.test(v) ? v : undefined;
  switch (f.type) {
    case 'date':
      return typeof v === 'string' && (v === '' || parseIsoDate(v) === v) ? v : '';
    case 'layer':
      return typeof v === 'string' && isLayer(v) ? v : 'inscribed';
    case 'confidence':
      return typeof v === 'number' ? v : 0.5;
    case 'confidence-word':
      return typeof v === 'string' && Object.hasOwn(CONFIDENCE_WORDS, v) ? v : undefined;
    case 'status':
      return v === 'superseded' || v === 'retracted' ? v : undefined;
    default:
      return typeof v === 'string' ? v : undefined;
  }
}

export interface SanitizeOptions {
  /** Keeps evidence that lost everything else distinguishable (see filterEvidence). */
  fingerprint?: Fingerprint;
}

export function sanitizeEntry(entry: EchoEntry, ignoreGlobs: readonly string[], options: SanitizeOptions = {}): SanitizeResult {
  const emails = !isAboutEmail(`${entry.title}\n${entry.learning}`);
  // NUL bytes would make the file unreadable as text for good: never write one.
  const clean = (text: string): string => filterSecrets(text.replace(/\u0000/g, ''), { emails }).text;
  const out: Record<string, unknown> = { idExplicit: entry.idExplicit };
  let evidenceStripped = false;
  for (const f of ENTRY_FIELDS) {
    const v = entry[f.prop];
    if (v === undefined) continue;
    if (f.filter === 'checked') {
      out[f.prop] = checkedValue(f, v);
    } else if (f.filter === 'evidence') {
      const filtered = filterEvidence(String(v).replace(/\u0000/g, ''), { emails, ignore: ignoreGlobs, ...options });
      evidenceStripped ||= filtered.stripped !== null;
      out[f.prop] = filtered.text;
    } else if (Array.isArray(v)) {
      out[f.prop] = v.map((item) => clean(String(item)));
    } else {
      out[f.prop] = typeof v === 'string' ? clean(v) : checkedValue(f, v);
    }
  }
  out.extra = entry.extra.map(([k, v]) => [clean(k), clean(v)] as [string, string]);
  // An id derived from a title that held a secret would carry the secret too.
  const title = String(out.title ?? '');
  const id = String(out.id ?? '');
  if (title !== entry.title || id !== entry.id) out.id = slugifyTitle(title);
  const next = orderedLikeTable(out as unknown as EchoEntry);
  const changed = JSON.stringify(next) !== JSON.stringify(orderedLikeTable(entry));
  return { entry: next, changed, evidenceStripped };
}
