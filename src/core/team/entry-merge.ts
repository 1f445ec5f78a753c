// The merge driver's core (SPEC §3 team mode, `rune-echoes merge-file`): one
// memory file changed in two clones since their common ancestor, merged by
// entry on top of the lossless document model.
//
// - Entries are matched by id. An entry changed on one side takes that change.
//   Changed on both: a side that only re-verified it gives way to the other's
//   edit (stamped with the later date); edits in different lines of the entry
//   (each side added a line of learning) are both kept; edits that overlap are
//   decided by the later `verified` (then the higher confidence), and the other
//   is kept beside it as `status: superseded` under a new id.
// - An entry removed on one side (forgotten, pruned) and unchanged on the other
//   stays removed; so it does when the other side only re-verified it. One the
//   other side edited is kept: the edit is newer knowledge than the removal.
// - Two different learnings that arrived under one id are both kept (the later
//   one renamed); the same learning recorded on both sides is kept once.
// - Hand-written text (headers, notes, tables) merges line by line; text both
//   sides added at one place is kept twice over (ours first); only lines both
//   sides changed differently end up between conflict markers, and no entry is
//   ever inside them.
//
// The decisions depend on the two sides only as a set, so merging A into B and
// B into A gives the same entries. Blocks the merge does not touch keep their
// bytes.

import { renameEntry, replaceEntry, updateEntryFields } from '../entry/document-edits.ts';
import { countLines, documentEntries, parseEchoDocument, serializeEchoDocument } from '../entry/echo-document.ts';
import type { EchoEntry } from '../entry/echo-entry.ts';
import { splitLines } from '../entry/echo-scan.ts';
import { entryFieldValues } from '../entry/entry-fields.ts';
import { uniqueId } from '../entry/entry-ids.ts';
import { matchKey } from '../lifecycle/consolidation.ts';
import { isBlank } from '../text.ts';
import { diff3Regions } from './line-merge.ts';

export interface MergeOutcome {
  text: string;
  /** Hand-written regions left between conflict markers; 0 is a clean merge. */
  conflicts: number;
  /** One line per decision a person may want to know about. */
  notes: string[];
}

export const CONFLICT_MARKER_SIZE = 7;

type Side = 'ours' | 'theirs';

interface Version {
  entry: EchoEntry;
  /** The block without its trailing blank lines and its last line ending: what is compared. */
  core: string;
  /** The rest of the block: the last line ending and the blank lines after it. */
  tail: string;
}

/** A line of hand-written text, or the place of an entry (`id`). */
interface Item {
  key: string;
  raw: string;
  id?: string;
  /** The first line of a conflict the merge wrote. */
  opensConflict?: boolean;
}

interface Parsed {
  versions: Map<string, Version>;
  items: Item[];
  eol: '\n' | '\r\n';
}

interface Decision {
  keep: Version | null;
  /** The other side's version, kept as superseded (changed on both sides) or renamed (a different learning). */
  beside?: { version: Version; as: 'superseded' | 'renamed' };
  note?: string;
}

function splitTail(text: string): { core: string; tail: string } {
  const lines = splitLines(text);
  let k = lines.length;
  while (k > 1 && isBlank(lines[k - 1]?.text ?? '')) k--;
  const last = lines[k - 1];
  const end = last ? last.offset + last.raw.length - last.eol.length : 0;
  return { core: text.slice(0, end), tail: text.slice(end) };
}

function parseSide(text: string): Parsed {
  const doc = parseEchoDocument(text);
  const versions = new Map<string, Version>();
  const items: Item[] = [];
  for (const b of doc.blocks) {
    if (b.type === 'entry') {
      versions.set(b.entry.id, { entry: b.entry, ...splitTail(b.text) });
      // NUL never occurs in a readable memory file, so this key cannot equal a line's.
      items.push({ key: `\u0000${b.entry.id}`, raw: '', id: b.entry.id });
    } else for (const line of splitLines(b.text)) items.push({ key: line.text, raw: line.raw });
  }
  return { versions, items, eol: doc.eol };
}

/** Every field but the verification stamp: two versions equal here differ only by a re-verification. */
function stampless(e: EchoEntry): string {
  const { verified: _v, confidence: _c, ...rest } = entryFieldValues(e);
  return JSON.stringify([rest, e.extra]);
}

/** Every field but the id: finds a superseded or renamed record that an earlier merge already made. */
function withoutId(e: EchoEntry): string {
  const { id: _id, ...rest } = entryFieldValues(e);
  return JSON.stringify([rest, e.extra]);
}

const dayOf = (v: string): string => (/^\d{4}-\d{2}-\d{2}$/.test(v) ? v : '');
const confidenceOf = (c: number): number => (Number.isFinite(c) ? c : -1);

/** The winner first: later verified, then higher confidence, then a fixed order of the texts (so both sides agree). */
function laterFirst(a: Version, b: Version): [Version, Version] {
  const [da, db] = [dayOf(a.entry.verified), dayOf(b.entry.verified)];
  if (da !== db) return da > db ? [a, b] : [b, a];
  const [ca, cb] = [confidenceOf(a.entry.confidence), confidenceOf(b.entry.confidence)];
  if (ca !== cb) return ca > cb ? [a, b] : [b, a];
  return a.core <= b.core ? [a, b] : [b, a];
}

const label = (v: Version): string => `"${v.entry.title || v.entry.id}"`;

const stampFields = (e: EchoEntry) => ({ verified: e.verified, confidence: e.confidence });

/**
 * The stamp (`verified`, `confidence`) the merged entry carries: each field as the side that changed it
 * has it; changed on both, the later verification's.
 */
function mergedStamp(o: EchoEntry, a: EchoEntry, b: EchoEntry): { verified: string; confidence: number } {
  const later = dayOf(a.verified) >= dayOf(b.verified) ? a : b;
  const pick = <K extends 'verified' | 'confidence'>(k: K): EchoEntry[K] => {
    const [ca, cb] = [a[k] !== o[k], b[k] !== o[k]];
    if (ca && cb) return later[k];
    return ca ? a[k] : cb ? b[k] : o[k];
  };
  return { verified: pick('verified'), confidence: pick('confidence') };
}

/** A version with its stamp set (the block's other bytes as they were). */
function restamped(v: Version, stamp: { verified: string; confidence: number }, eol: string): Version {
  const now = stampFields(v.entry);
  if (now.verified === stamp.verified && now.confidence === stamp.confidence) return v;
  const doc = updateEntryFields(parseEchoDocument(v.core + eol), v.entry.id, stamp);
  const entry = documentEntries(doc)[0] as EchoEntry;
  return { entry, core: splitTail(serializeEchoDocument(doc)).core, tail: v.tail };
}

/**
 * An entry both sides edited, merged line by line when their edits do not overlap (each added a line
 * of learning, one changed the title and the other the evidence). Lines both added at one place are
 * kept in a fixed order, so either side merging gets the same entry. Null when they overlap.
 */
function mergeEntryLines(o: Version, a: Version, b: Version, eol: string): Version | null {
  const stamp = mergedStamp(o.entry, a.entry, b.entry);
  const [so, sa, sb] = [restamped(o, stamp, eol), restamped(a, stamp, eol), restamped(b, stamp, eol)];
  const lines = (v: Version) => splitLines(v.core).map((l) => l.text);
  const [lo, la, lb] = [lines(so), lines(sa), lines(sb)];
  const out: string[] = [];
  for (const r of diff3Regions(lo, la, lb)) {
    const [ko, ka, kb] = [lo.slice(...r.o), la.slice(...r.a), lb.slice(...r.b)];
    if (r.stable || sameKeys(kb, ko) || sameKeys(ka, kb)) out.push(...ka);
    else if (sameKeys(ka, ko)) out.push(...kb);
    else if (ko.length === 0) out.push(...(ka.join('\n') <= kb.join('\n') ? [...ka, ...kb] : [...kb, ...ka]));
    else return null;
  }
  const doc = parseEchoDocument(out.join(eol) + eol);
  const entries = documentEntries(doc);
  if (doc.blocks.length !== 1 || entries.length !== 1 || entries[0]?.id !== a.entry.id) return null;
  return { entry: entries[0], core: out.join(eol), tail: a.tail };
}

/** The same learning: what an entry says, whatever its stamp, tags or layer. */
const learningOf = (e: EchoEntry): string => e.learning.replace(/\s+/g, ' ').trim();

function decide(o: Version | undefined, a: Version | undefined, b: Version | undefined, eol: string): Decision {
  const same = (x: Version | undefined, y: Version | undefined) =>
    x === undefined ? y === undefined : y !== undefined && x.core === y.core;
  if (same(a, b)) return { keep: a ?? null };
  if (o !== undefined) {
    if (same(a, o)) return { keep: b ?? null };
    if (same(b, o)) return { keep: a ?? null };
    if (a === undefined || b === undefined) {
      const changed = (a ?? b) as Version;
      if (stampless(changed.entry) === stampless(o.entry)) {
        // Bytes that differ only in spacing or line endings are no change to report.
        const restampedOnly = changed.entry.verified !== o.entry.verified || changed.entry.confidence !== o.entry.confidence;
        return restampedOnly
          ? { keep: null, note: `${label(o)}: removed on one side and only re-verified on the other; it stays removed` }
          : { keep: null };
      }
      return { keep: changed, note: `${label(o)}: removed on one side and edited on the other; the edited entry is kept` };
    }
    const [win, lose] = laterFirst(a, b);
    if (stampless(win.entry) === stampless(lose.entry)) return { keep: win };
    // Re-verifying is not editing: one side only re-stamped, the other edited — the edit, stamped the later.
    const [aStamped, bStamped] = [stampless(a.entry) === stampless(o.entry), stampless(b.entry) === stampless(o.entry)];
    if (aStamped || bStamped) return { keep: restamped(aStamped ? b : a, mergedStamp(o.entry, a.entry, b.entry), eol) };
    const merged = mergeEntryLines(o, a, b, eol);
    if (merged) return { keep: merged, note: `${label(merged)}: changed on both sides in different lines; both changes are kept` };
    return {
      keep: win,
      beside: { version: lose, as: 'superseded' },
      note: `${label(win)}: changed on both sides; the one verified ${win.entry.verified || '(no date)'} wins, the other is kept as superseded`,
    };
  }
  if (a === undefined || b === undefined) return { keep: (a ?? b) as Version };
  const [win, lose] = laterFirst(a, b);
  if (matchKey(a.entry) === matchKey(b.entry) && learningOf(a.entry) === learningOf(b.entry)) return { keep: win };
  return { keep: win, beside: { version: lose, as: 'renamed' }, note: `${label(lose)}: arrived under the id "${win.entry.id}" too` };
}

/** The record kept beside a winner: the loser marked superseded, or a different learning under a new id. */
function besideRecord(
  v: Version,
  as: 'superseded' | 'renamed',
  taken: Set<string>,
  eol: string,
): { id: string; core: string; entry: EchoEntry } {
  let doc = parseEchoDocument(v.core + eol);
  const id = documentEntries(doc)[0]?.id ?? v.entry.id;
  const suffix = as === 'superseded' ? '-superseded' : '';
  const base = `${id.slice(0, 64 - suffix.length).replace(/-+$/, '')}${suffix}`;
  const newId = uniqueId(base, taken);
  if (as === 'superseded') {
    // It names what replaced it, and leaves for the archive between sessions like any superseded entry.
    const old = documentEntries(doc)[0] as EchoEntry;
    const extra: Array<[string, string]> = [...old.extra.filter(([k]) => k !== 'superseded_by'), ['superseded_by', id]];
    doc = replaceEntry(doc, id, { ...old, status: 'superseded', extra });
  }
  doc = renameEntry(doc, id, newId);
  const entry = documentEntries(doc)[0] as EchoEntry;
  return { id: newId, core: splitTail(serializeEchoDocument(doc)).core, entry };
}

interface Placed {
  item: Item;
  side: Side | null;
  index: number;
}

const keysOf = (p: Parsed, [s, e]: [number, number]) => p.items.slice(s, e).map((i) => i.key);
const sameKeys = (x: string[], y: string[]) => x.length === y.length && x.every((k, i) => k === y[i]);

/** Lines of hand-written text in a range, without the places of entries. */
const textKeys = (p: Parsed, range: [number, number]) => keysOf(p, range).filter((k) => !k.startsWith('\u0000'));

/** Lays the items of the three versions out in one order (diff3); only hand-written lines can conflict. */
function mergeItems(o: Parsed, a: Parsed, b: Parsed, eol: string): Placed[] {
  const placed: Placed[] = [];
  const take = (p: Parsed, side: Side, [s, e]: [number, number], only?: (i: Item) => boolean) => {
    for (let k = s; k < e; k++) {
      const item = p.items[k] as Item;
      if (!only || only(item)) placed.push({ item, side, index: k });
    }
  };
  const placesNotIn = (p: Parsed, range: [number, number]) => {
    const ids = new Set(p.items.slice(range[0], range[1]).map((i) => i.id));
    return (i: Item) => i.id !== undefined && !ids.has(i.id);
  };
  const marker = (text: string, opensConflict = false) =>
    placed.push({ item: { key: '', raw: text + eol, opensConflict }, side: null, index: -1 });
  for (const r of diff3Regions(
    o.items.map((i) => i.key),
    a.items.map((i) => i.key),
    b.items.map((i) => i.key),
  )) {
    if (r.stable) {
      take(a, 'ours', r.a);
      continue;
    }
    const [ko, ka, kb] = [keysOf(o, r.o), keysOf(a, r.a), keysOf(b, r.b)];
    if (sameKeys(ka, ko)) take(b, 'theirs', r.b);
    else if (sameKeys(kb, ko) || sameKeys(ka, kb)) take(a, 'ours', r.a);
    else {
      // Both sides changed this region. Entry places never conflict: the text decides whose
      // layout is used, and the other side's entries follow it.
      const [to, ta, tb] = [textKeys(o, r.o), textKeys(a, r.a), textKeys(b, r.b)];
      if (sameKeys(tb, to) || sameKeys(ta, tb)) {
        take(a, 'ours', r.a);
        take(b, 'theirs', r.b, placesNotIn(a, r.a));
      } else if (sameKeys(ta, to)) {
        take(b, 'theirs', r.b);
        take(a, 'ours', r.a, placesNotIn(b, r.b));
      } else if (to.length === 0) {
        // Both only added text here (a note each, knowledge blocks compressed on both sides):
        // nothing of the ancestor to choose between, so both are kept, ours first.
        take(a, 'ours', r.a);
        take(b, 'theirs', r.b, (i) => i.id === undefined || placesNotIn(a, r.a)(i));
      } else {
        take(a, 'ours', r.a, (i) => i.id !== undefined);
        take(b, 'theirs', r.b, placesNotIn(a, r.a));
        marker(`${'<'.repeat(CONFLICT_MARKER_SIZE)} ours`, true);
        take(a, 'ours', r.a, (i) => i.id === undefined);
        marker('='.repeat(CONFLICT_MARKER_SIZE));
        take(b, 'theirs', r.b, (i) => i.id === undefined);
        marker(`${'>'.repeat(CONFLICT_MARKER_SIZE)} theirs`);
      }
    }
  }
  return placed;
}

/** Concatenates pieces, adding a line ending (and a blank line before an entry) only where two pieces meet that were not neighbours before. */
class Assembly {
  text = '';
  private endsWithEol = true;
  private lastBlank = true;
  private prev: { side: Side | null; index: number } | null = null;
  constructor(private readonly eol: string) {}

  add(piece: string, entry: boolean, side: Side | null, index: number): void {
    const neighbours = this.prev !== null && side !== null && this.prev.side === side && index === this.prev.index + 1;
    if (this.text !== '' && !this.endsWithEol) {
      this.text += this.eol;
      this.endsWithEol = true;
      this.lastBlank = false;
    }
    if (entry && this.text !== '' && !this.lastBlank && !neighbours) this.text += this.eol;
    this.text += piece;
    const lines = splitLines(piece);
    const last = lines[lines.length - 1];
    if (last) {
      this.endsWithEol = last.eol !== '';
      this.lastBlank = last.eol !== '' && isBlank(last.text);
    }
    this.prev = { side, index };
  }
}

/** Merges one memory file: `base` is the common ancestor ('' when there is none), `ours` and `theirs` the two descendants. */
export function mergeEchoTexts(base: string, ours: string, theirs: string): MergeOutcome {
  if (ours === theirs || base === theirs) return { text: ours, conflicts: 0, notes: [] };
  if (base === ours) return { text: theirs, conflicts: 0, notes: [] };
  const bom = ours.startsWith('\uFEFF') ? '\uFEFF' : '';
  const noBom = (t: string) => (t.startsWith('\uFEFF') ? t.slice(1) : t);
  const [o, a, b] = [parseSide(noBom(base)), parseSide(noBom(ours)), parseSide(noBom(theirs))];
  const eol = a.eol;
  const notes: string[] = [];

  // Every id in a fixed order (sorted), so the decisions and new ids do not depend on which side is ours.
  const ids = [...new Set([...a.versions.keys(), ...b.versions.keys()])].sort();
  const decisions = new Map<string, Decision>();
  for (const id of ids) {
    const d = decide(o.versions.get(id), a.versions.get(id), b.versions.get(id), a.eol);
    decisions.set(id, d);
    if (d.note) notes.push(d.note);
  }
  const taken = new Set(ids.filter((id) => decisions.get(id)?.keep));
  const kept = new Set([...decisions.values()].flatMap((d) => (d.keep ? [withoutId(d.keep.entry)] : [])));
  const beside = new Map<string, string>();
  for (const id of ids) {
    const d = decisions.get(id) as Decision;
    if (!d.beside) continue;
    const record = besideRecord(d.beside.version, d.beside.as, taken, eol);
    // A record an earlier merge of the same two versions made is there already: never twice.
    if (kept.has(withoutId(record.entry))) continue;
    taken.add(record.id);
    kept.add(withoutId(record.entry));
    beside.set(id, record.core);
  }

  const placed = mergeItems(o, a, b, eol);
  let conflicts = 0;
  const out = new Assembly(eol);
  const emitted = new Set<string>();
  const emit = (id: string, side: Side | null, index: number) => {
    const d = decisions.get(id);
    if (!d?.keep || emitted.has(id)) return;
    emitted.add(id);
    // The tail (blank lines after the entry) comes from the side whose layout placed it.
    const layout = side === 'ours' ? a : side === 'theirs' ? b : null;
    out.add(d.keep.core + (layout?.versions.get(id)?.tail ?? d.keep.tail), true, side, index);
    const record = beside.get(id);
    if (record !== undefined) out.add(record + eol, true, null, -1);
  };
  for (const p of placed) {
    if (p.item.opensConflict) {
      conflicts++;
      notes.push(`hand-written text changed differently on both sides: between conflict markers from line ${countLines(out.text) + 1}`);
    }
    if (p.item.id === undefined) out.add(p.item.raw, false, p.side, p.index);
    else emit(p.item.id, p.side, p.index);
  }
  // An entry kept although its place was dropped (removed on one side, edited on the other) goes last.
  for (const id of [...a.versions.keys(), ...b.versions.keys()]) emit(id, null, -1);
  // Entries and text taken from theirs keep their own bytes: one line ending throughout, ours.
  const text = eol === '\r\n' ? out.text.replace(/\r?\n/g, '\r\n') : out.text.replace(/\r\n/g, '\n');
  return { text: bom + text, conflicts, notes };
}
