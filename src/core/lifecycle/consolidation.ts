// Merging agents' findings into a role's entries (SPEC §6, seed 000 step 3).
// Pure and idempotent: consolidation may be re-run after a crash between
// writing MEMORY.md and deleting the findings files, so running it twice on
// the same findings must change nothing the second time.

import { appendEntries, appendLearning, replaceEntry, updateEntryFields } from '../entry/document-edits.ts';
import { asStored, documentEntries, type EchoDocument } from '../entry/echo-document.ts';
import type { EchoEntry } from '../entry/echo-entry.ts';
import { isValidId, slugifyTitle, uniqueId } from '../entry/entry-ids.ts';
import { evidencePaths } from '../entry/evidence-paths.ts';
import { mergeSighting } from './captured-merge.ts';

export interface Placement {
  /** Index of the finding in the input. */
  finding: number;
  /** Id of the entry the finding now lives in. */
  id: string;
  /** updated: merged and changed an entry; unchanged: merged, nothing new; appended: a new entry. */
  action: 'updated' | 'unchanged' | 'appended';
}

export interface Consolidation {
  /** Existing entries whose verified date or confidence changed, in their new form. */
  updates: EchoEntry[];
  /** New entries, with ids unique against the existing ones, in finding order. */
  appends: EchoEntry[];
  /** Where each finding went, one per finding, in input order. */
  placements: Placement[];
}

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

/** Trim, collapse whitespace, ignore case: hand edits and agents vary in all three. */
export function normalizeForMatch(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * Two entries record the same learning when evidence and pattern (title) match; a captured lesson is
 * the same as another with its signature, whatever its title and evidence say this time (SPEC §6a).
 */
export function matchKey(entry: Pick<EchoEntry, 'evidence' | 'title' | 'signature'>): string {
  if (entry.signature) return `sig:${normalizeForMatch(entry.signature)}`;
  return `${normalizeForMatch(entry.evidence)}\u0000${normalizeForMatch(entry.title)}`;
}

/**
 * What a tombstone of a forgotten entry matches (SPEC §6): the entry's
 * identity, not its bytes — its id (the slug of its title, or an id it
 * carries), or its pattern with its evidence normalised (the files it cites,
 * else its words), so `src/a.ts:12` and `` `src/a.ts` line 12 `` are one.
 */
export function identityKeys(entry: Pick<EchoEntry, 'id' | 'title' | 'evidence' | 'signature'> & { idExplicit?: boolean }): string[] {
  // A forgotten captured lesson is matched by its signature too: capture never writes it again.
  if (entry.signature) return [`sig:${normalizeForMatch(entry.signature)}`];
  const keys = [`slug:${slugifyTitle(entry.title)}`, `pe:${normalizeForMatch(entry.title)}\u0000${normalizedEvidence(entry.evidence)}`];
  if (entry.id && entry.idExplicit !== false) keys.push(`id:${entry.id}`);
  return keys;
}

function normalizedEvidence(evidence: string): string {
  const files = evidencePaths(evidence);
  if (files.length > 0) return files.sort().join(',');
  return (evidence.toLowerCase().match(/[a-z0-9]+/g) ?? []).join(' ');
}

/** The later of two days; a valid day always beats '' or junk. */
function laterDay(a: string, b: string): string {
  const aOk = DAY_RE.test(a.trim());
  const bOk = DAY_RE.test(b.trim());
  if (aOk && bOk) return b.trim() > a.trim() ? b : a;
  return !aOk && bOk ? b : a;
}

function higher(a: number, b: number): number {
  if (!Number.isFinite(b)) return a;
  if (!Number.isFinite(a)) return b;
  return Math.max(a, b);
}

/** A finding's day of verification: its `verified`, else its heading date. */
function findingDay(f: EchoEntry): string {
  return !DAY_RE.test(f.verified.trim()) && DAY_RE.test(f.date.trim()) ? f.date : f.verified;
}

/**
 * `learning` with what `more` says that it does not (case and spacing aside):
 * all of it on a line of its own, or — when `more` is several lines and some
 * are there already (a source file that gained a line and is read again) —
 * only the lines that are new. Nothing `more` says is dropped.
 */
function withLearning(learning: string, more: string): string {
  const add = more.trim();
  if (add === '' || normalizeForMatch(learning).includes(normalizeForMatch(add))) return learning;
  const join = (text: string) => (learning.trim() === '' ? text : `${learning}\n${text}`);
  const lines = add.split(/\r?\n/).filter((l) => normalizeForMatch(l) !== '');
  if (lines.length > 1) {
    const have = new Set(learning.split(/\r?\n/).map(normalizeForMatch));
    const fresh = lines.filter((l) => !have.has(normalizeForMatch(l)));
    if (fresh.length === 0) return learning;
    if (fresh.length < lines.length) return join(fresh.join('\n'));
  }
  return join(add);
}

/** `keepIds`: a new entry keeps an id its finding carries (an imported fact's own id), made unique. */
export function consolidate(existing: EchoEntry[], findings: EchoEntry[], opts: { keepIds?: boolean } = {}): Consolidation {
  // Findings that repeat each other merge first: the first one's text, and any
  // learning another one adds (a merge never drops what a finding said).
  const groups = new Map<string, { merged: EchoEntry; members: number[] }>();
  findings.forEach((f, i) => {
    const key = matchKey(f);
    const group = groups.get(key);
    if (group === undefined) {
      groups.set(key, { merged: { ...f, verified: findingDay(f) }, members: [i] });
    } else if (f.signature && group.merged.signature) {
      group.merged = mergeSighting(group.merged, { ...f, verified: findingDay(f) });
      group.members.push(i);
    } else {
      group.merged.verified = laterDay(group.merged.verified, findingDay(f));
      group.merged.confidence = higher(group.merged.confidence, f.confidence);
      group.merged.learning = withLearning(group.merged.learning, f.learning);
      group.members.push(i);
    }
  });

  // The first existing entry with a key wins, so a file that already holds
  // duplicates always receives the update in the same place.
  const byKey = new Map<string, EchoEntry>();
  for (const e of existing) if (!byKey.has(matchKey(e))) byKey.set(matchKey(e), e);

  const taken = new Set(existing.map((e) => e.id));
  const updates: EchoEntry[] = [];
  const appends: EchoEntry[] = [];
  const placements: Placement[] = [];

  for (const [key, { merged, members }] of groups) {
    const target = byKey.get(key);
    let id: string;
    let action: Placement['action'];
    if (target?.signature && merged.signature) {
      // A captured lesson seen again: its sessions, confidence and layer rise (never to etched), its
      // text follows what was seen; a retired one stays retired.
      id = target.id;
      const next = target.status ? target : mergeSighting(target, merged);
      action = next === target ? 'unchanged' : 'updated';
      if (next !== target) updates.push(next);
    } else if (target !== undefined) {
      // The date and the confidence move, and a learning the entry does not yet say
      // is added to it. The layer is never touched, so an etched entry stays
      // etched and nothing is promoted behind the user's back.
      const verified = laterDay(target.verified, merged.verified);
      const confidence = higher(target.confidence, merged.confidence);
      const learning = withLearning(target.learning, merged.learning);
      // Tags a finding adds join the entry's (a repeated `remember --tags tz,ci` keeps `ci`).
      const tags = [...target.tags, ...merged.tags.filter((t) => !target.tags.includes(t))];
      id = target.id;
      // Object.is: a NaN confidence from a broken file must not count as a change forever.
      const changed =
        verified !== target.verified ||
        !Object.is(confidence, target.confidence) ||
        learning !== target.learning ||
        tags.length !== target.tags.length;
      action = changed ? 'updated' : 'unchanged';
      if (changed) updates.push({ ...target, verified, confidence, learning, tags });
    } else {
      id = uniqueId(opts.keepIds && merged.idExplicit && isValidId(merged.id) ? merged.id : slugifyTitle(merged.title), taken);
      taken.add(id);
      action = 'appended';
      appends.push({ ...merged, id, idExplicit: true, tags: [...merged.tags], extra: merged.extra.map(([k, v]) => [k, v]) });
    }
    for (const finding of members) placements.push({ finding, id, action });
  }
  placements.sort((a, b) => a.finding - b.finding);
  return { updates, appends, placements };
}

/** A consolidation applied to a memory document: the plan, and the document after it. */
export interface DocumentConsolidation extends Consolidation {
  doc: EchoDocument;
}

/**
 * The one consolidation of a memory document that the store runs (SPEC §6,
 * seed 000 step 3): merged findings move only the verified date and the
 * confidence of their entry, in place (the entry's other lines keep their
 * bytes); new ones are appended after every existing line.
 */
export function consolidateDocument(doc: EchoDocument, findings: EchoEntry[], opts: { keepIds?: boolean } = {}): DocumentConsolidation {
  const existing = documentEntries(doc);
  const result = consolidate(existing, findings.map(asStored), opts);
  const before = new Map(existing.map((e) => [e.id, e]));
  let next = doc;
  for (const u of result.updates) {
    const was = before.get(u.id);
    if (u.signature && was && u.learning !== was.learning && !u.learning.startsWith(`${was.learning}\n`)) {
      // A captured lesson whose text changed (the project's commands did), other than by lines added after it
      // (a command added to its last line is a change of that line): written anew in canonical form.
      next = replaceEntry(next, u.id, u);
      continue;
    }
    if (u.signature && was) {
      next = updateEntryFields(next, u.id, {
        verified: u.verified,
        confidence: u.confidence,
        layer: u.layer,
        sessions: u.sessions,
        evidence: u.evidence,
        ...(u.solution !== was.solution ? { solution: u.solution } : {}),
      });
      if (u.learning !== was.learning) next = appendLearning(next, u.id, u.learning.slice(was.learning.length).replace(/^\n/, ''));
      continue;
    }
    const tagsGrew = u.tags.length !== (before.get(u.id)?.tags.length ?? 0);
    next = updateEntryFields(next, u.id, { verified: u.verified, confidence: u.confidence, ...(tagsGrew ? { tags: u.tags } : {}) });
    const old = before.get(u.id)?.learning ?? '';
    if (u.learning !== old) next = appendLearning(next, u.id, u.learning.slice(old.length).replace(/^\n/, ''));
  }
  next = appendEntries(next, result.appends);
  return { ...result, doc: next };
}
