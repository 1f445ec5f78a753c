// One segment of the search index: the documents it holds, their lengths and
// attributes, and the postings of every term, with the byte layout it is
// stored in. A query reads only the shard files of its own terms, so its cost
// follows the postings of those terms, not the size of the whole index.
// Pure: bytes in, bytes out; the store reads and writes the files.

import type { Layer } from '../entry/echo-entry.ts';
import { compoundTerms, textTerms } from './search-terms.ts';

/** Where a document comes from; `kind` (entry, log, solution) is derived from it. */
export const DOC_SOURCES = ['memory', 'knowledge', 'archive', 'topic', 'log', 'ephemeral', 'solution'] as const;
export type DocSource = (typeof DOC_SOURCES)[number];
export type DocKind = 'entry' | 'log' | 'solution';

export function kindOf(source: DocSource): DocKind {
  return source === 'log' || source === 'ephemeral' ? 'log' : source === 'solution' ? 'solution' : 'entry';
}

/** What a hit shows: stored with the document. */
export interface StoredDoc {
  /** Path shown to the user: relative to the project, or `~/.claude/…` in user scope. */
  path: string;
  /** 1-based line where the document starts in that file. */
  line: number;
  source: DocSource;
  title: string;
  id?: string;
  role?: string;
  layer?: Layer;
  /** YYYY-MM-DD: verified date of an entry, date of a log or solution. */
  date?: string;
  /** An entry's `status` (superseded, retracted): ranked below the live ones. */
  status?: string;
  /** A teammate's entry (SPEC §6b): marked as theirs wherever it is shown. */
  teammate?: boolean;
  /** The document's own text, as in the file (capped), for snippets and line numbers. */
  text: string;
}

/** A document to index: what is stored, plus the fields that are ranked. */
export interface IndexDoc extends StoredDoc {
  fields: { title: string; tags: string; body: string };
  /** The usage keys a live entry's `supersedes` names: kept in the manifest, not in the segment. */
  retires?: string[];
  /** How new that entry is (verified, else heading date, in ms), for cycles of `supersedes`. */
  retiresDay?: number | null;
}

/** Title words count three times, tags twice, the rest once (BM25F with fixed field weights). */
const FIELD_WEIGHT = { title: 3, tags: 2, body: 1 } as const;
const MAX_TF = 0xffff;

export interface Postings {
  ids: Uint32Array;
  tfs: Uint16Array;
}

/** A segment held in memory while it is built or merged. */
export interface SegmentData {
  docs: StoredDoc[];
  /** Weighted length of each document, in terms. */
  lens: number[];
  postings: Map<string, { ids: number[]; tfs: number[] }>;
}

export function buildSegment(docs: IndexDoc[]): SegmentData {
  const postings = new Map<string, { ids: number[]; tfs: number[] }>();
  const lens: number[] = [];
  const stored: StoredDoc[] = [];
  docs.forEach((doc, id) => {
    const counts = new Map<string, number>();
    let len = 0;
    for (const field of ['title', 'tags', 'body'] as const) {
      const w = FIELD_WEIGHT[field];
      for (const t of textTerms(doc.fields[field])) {
        counts.set(t, (counts.get(t) ?? 0) + w);
        len += w;
      }
      // Whole names (file names, dotted and snake_case names) count on top of their words, not in the length.
      for (const t of compoundTerms(doc.fields[field])) counts.set(t, (counts.get(t) ?? 0) + w);
    }
    for (const [term, tf] of counts) {
      let p = postings.get(term);
      if (p === undefined) {
        p = { ids: [], tfs: [] };
        postings.set(term, p);
      }
      p.ids.push(id);
      p.tfs.push(Math.min(tf, MAX_TF));
    }
    lens.push(len);
    const { fields: _fields, retires: _retires, retiresDay: _retiresDay, ...rest } = doc;
    stored.push(rest);
  });
  return { docs: stored, lens, postings };
}

/**
 * Joins segments into one, leaving out deleted documents; postings are
 * carried over as they are, nothing is tokenized again. Returns the new id of
 * every kept document, per input segment (-1 for a dropped one).
 */
export function mergeSegments(parts: Array<{ data: SegmentData; deleted: ReadonlySet<number> }>): {
  data: SegmentData;
  remap: Int32Array[];
} {
  const docs: StoredDoc[] = [];
  const lens: number[] = [];
  const remap = parts.map(({ data, deleted }) => {
    const map = new Int32Array(data.docs.length).fill(-1);
    data.docs.forEach((d, i) => {
      if (deleted.has(i)) return;
      map[i] = docs.length;
      docs.push(d);
      lens.push(data.lens[i]!);
    });
    return map;
  });
  const postings = new Map<string, { ids: number[]; tfs: number[] }>();
  parts.forEach(({ data }, k) => {
    const map = remap[k]!;
    for (const [term, p] of data.postings) {
      let out = postings.get(term);
      for (let j = 0; j < p.ids.length; j++) {
        const to = map[p.ids[j]!]!;
        if (to < 0) continue;
        if (out === undefined) {
          out = { ids: [], tfs: [] };
          postings.set(term, out);
        }
        out.ids.push(to);
        out.tfs.push(p.tfs[j]!);
      }
    }
  });
  return { data: { docs, lens, postings }, remap };
}

// ------------------------------------------------------------ byte layout

/** FNV-1a over UTF-16 code units: which shard file holds a term. */
export function termShard(term: string, shards: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < term.length; i++) {
    h ^= term.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % shards;
}

/** About 16,000 postings (100 KB) per shard file: a common term costs one small read. */
function shardCount(totalPostings: number): number {
  let n = 1;
  while (n < 1024 && totalPostings / n > 16_384) n *= 2;
  return n;
}

export const LAYER_CODES: ReadonlyArray<Layer | undefined> = [undefined, 'etched', 'inscribed', 'traced'];
/** Typed views read the shard's little-endian numbers directly only on a little-endian machine. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const SHARD_MAGIC = 0x48534552; // "RESH"
const ATTR_BYTES = 12;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

export interface SegmentMeta {
  docs: number;
  shards: number;
  roles: string[];
  totalLen: number;
}

/** The files of a segment: name → bytes (meta.json, attrs.bin, store.bin, store.idx, p-<k>.bin). */
export function encodeSegment(data: SegmentData): { meta: SegmentMeta; files: Map<string, Uint8Array> } {
  const files = new Map<string, Uint8Array>();
  let total = 0;
  for (const p of data.postings.values()) total += p.ids.length;
  const shards = shardCount(total);
  const roles = [...new Set(data.docs.map((d) => d.role).filter((r): r is string => r !== undefined))].sort();
  const roleIndex = new Map(roles.map((r, i) => [r, i + 1]));

  const attrs = new DataView(new ArrayBuffer(data.docs.length * ATTR_BYTES));
  const records: Uint8Array[] = [];
  const offsets = new DataView(new ArrayBuffer((data.docs.length + 1) * 4));
  let at = 0;
  let totalLen = 0;
  data.docs.forEach((d, i) => {
    const base = i * ATTR_BYTES;
    attrs.setUint32(base, data.lens[i]!, true);
    attrs.setUint8(base + 4, DOC_SOURCES.indexOf(d.source));
    attrs.setUint8(base + 5, Math.max(0, LAYER_CODES.indexOf(d.layer)));
    attrs.setUint16(base + 6, d.role === undefined ? 0 : roleIndex.get(d.role)!, true);
    attrs.setUint32(base + 8, dayNumber(d.date), true);
    totalLen += data.lens[i]!;
    const rec = encoder.encode(JSON.stringify(d));
    offsets.setUint32(i * 4, at, true);
    records.push(rec);
    at += rec.length;
  });
  offsets.setUint32(data.docs.length * 4, at, true);
  files.set('attrs.bin', new Uint8Array(attrs.buffer));
  files.set('store.idx', new Uint8Array(offsets.buffer));
  files.set('store.bin', concat(records, at));

  const byShard: Array<Array<[string, { ids: number[]; tfs: number[] }]>> = Array.from({ length: shards }, () => []);
  for (const entry of data.postings) byShard[termShard(entry[0], shards)]!.push(entry);
  byShard.forEach((terms, k) => {
    files.set(`p-${k}.bin`, encodeShard(terms));
  });
  const meta: SegmentMeta = { docs: data.docs.length, shards, roles, totalLen };
  files.set('meta.json', encoder.encode(JSON.stringify(meta)));
  return { meta, files };
}

function encodeShard(terms: Array<[string, { ids: number[]; tfs: number[] }]>): Uint8Array {
  terms.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const header: Record<string, [number, number]> = {};
  let n = 0;
  for (const [term, p] of terms) {
    header[term] = [n, p.ids.length];
    n += p.ids.length;
  }
  const head = encoder.encode(JSON.stringify({ n, t: header }));
  const headLen = Math.ceil(head.length / 4) * 4;
  const bytes = new Uint8Array(8 + headLen + n * 6);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, SHARD_MAGIC, true);
  view.setUint32(4, headLen, true);
  bytes.set(head, 8);
  bytes.fill(0x20, 8 + head.length, 8 + headLen);
  const idsAt = 8 + headLen;
  const tfsAt = idsAt + n * 4;
  let j = 0;
  for (const [, p] of terms) {
    for (let i = 0; i < p.ids.length; i++, j++) {
      view.setUint32(idsAt + j * 4, p.ids[i]!, true);
      view.setUint16(tfsAt + j * 2, p.tfs[i]!, true);
    }
  }
  return bytes;
}

export class IndexFormatError extends Error {
  readonly code = 'index-format';
}

/** A shard file, decoded only as far as the terms asked for. */
export interface Shard {
  lookup(term: string): Postings | null;
  terms(): string[];
}

export function decodeShard(bytes: Uint8Array): Shard {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 8 || view.getUint32(0, true) !== SHARD_MAGIC) throw new IndexFormatError('not a search shard');
  const headLen = view.getUint32(4, true);
  let header: { n: number; t: Record<string, [number, number]> };
  try {
    header = JSON.parse(decoder.decode(bytes.subarray(8, 8 + headLen))) as typeof header;
  } catch {
    throw new IndexFormatError('torn search shard');
  }
  const n = header.n;
  const idsAt = 8 + headLen;
  const tfsAt = idsAt + n * 4;
  if (!Number.isInteger(n) || tfsAt + n * 2 !== bytes.byteLength) throw new IndexFormatError('search shard has the wrong size');
  // The parsed object is the table: building a Map of every term of the shard would cost a query more than its lookups.
  const table = header.t;
  return {
    terms: () => Object.keys(table),
    lookup(term) {
      const slot = Object.hasOwn(table, term) ? table[term] : undefined;
      if (slot === undefined) return null;
      const [start, count] = slot;
      if (LITTLE_ENDIAN) {
        // One copy of the range into an aligned buffer, then typed views: no per-posting decoding.
        const at = bytes.byteOffset + idsAt + start * 4;
        const ids = new Uint32Array(bytes.buffer.slice(at, at + count * 4));
        const tat = bytes.byteOffset + tfsAt + start * 2;
        const tfs = new Uint16Array(bytes.buffer.slice(tat, tat + count * 2));
        return { ids, tfs };
      }
      const ids = new Uint32Array(count);
      const tfs = new Uint16Array(count);
      for (let i = 0; i < count; i++) {
        ids[i] = view.getUint32(idsAt + (start + i) * 4, true);
        tfs[i] = view.getUint16(tfsAt + (start + i) * 2, true);
      }
      return { ids, tfs };
    },
  };
}

/** Per-document attributes: what filters and length normalisation need, without the stored text. */
export interface DocAttrs {
  count: number;
  len(doc: number): number;
  source(doc: number): DocSource;
  layer(doc: number): Layer | undefined;
  /** 0 for none, else 1 + index in the segment's roles. */
  role(doc: number): number;
  /** Days since 1970-01-01, 0 when the document has no date. */
  day(doc: number): number;
}

export function decodeAttrs(bytes: Uint8Array, docs: number): DocAttrs {
  if (bytes.byteLength !== docs * ATTR_BYTES) throw new IndexFormatError('search attributes have the wrong size');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    count: docs,
    len: (d) => view.getUint32(d * ATTR_BYTES, true),
    source: (d) => DOC_SOURCES[view.getUint8(d * ATTR_BYTES + 4)] ?? 'memory',
    layer: (d) => LAYER_CODES[view.getUint8(d * ATTR_BYTES + 5)],
    role: (d) => view.getUint16(d * ATTR_BYTES + 6, true),
    day: (d) => view.getUint32(d * ATTR_BYTES + 8, true),
  };
}

/** Byte range of document `doc` in store.bin, from store.idx. */
export function storeRange(idx: Uint8Array, doc: number): [number, number] {
  const view = new DataView(idx.buffer, idx.byteOffset, idx.byteLength);
  if ((doc + 2) * 4 > idx.byteLength) throw new IndexFormatError('document outside the search store');
  return [view.getUint32(doc * 4, true), view.getUint32((doc + 1) * 4, true)];
}

export function decodeStored(bytes: Uint8Array): StoredDoc {
  try {
    const d = JSON.parse(decoder.decode(bytes)) as StoredDoc;
    if (typeof d.path !== 'string' || typeof d.text !== 'string') throw new Error('shape');
    return d;
  } catch {
    throw new IndexFormatError('torn search record');
  }
}

/** Reads a whole segment back into memory, for merging. */
export function decodeSegment(meta: SegmentMeta, read: (name: string) => Uint8Array): SegmentData {
  const attrs = decodeAttrs(read('attrs.bin'), meta.docs);
  const idx = read('store.idx');
  const store = read('store.bin');
  const docs: StoredDoc[] = [];
  const lens: number[] = [];
  for (let i = 0; i < meta.docs; i++) {
    const [a, b] = storeRange(idx, i);
    docs.push(decodeStored(store.subarray(a, b)));
    lens.push(attrs.len(i));
  }
  const postings = new Map<string, { ids: number[]; tfs: number[] }>();
  for (let k = 0; k < meta.shards; k++) {
    const shard = decodeShard(read(`p-${k}.bin`));
    for (const term of shard.terms()) {
      const p = shard.lookup(term)!;
      postings.set(term, { ids: [...p.ids], tfs: [...p.tfs] });
    }
  }
  return { docs, lens, postings };
}

/** YYYY-MM-DD → days since 1970-01-01 (0 for no date). */
export function dayNumber(date: string | undefined): number {
  if (date === undefined || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return 0;
  const ms = Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
  return Number.isFinite(ms) && ms > 0 ? Math.floor(ms / 86_400_000) : 0;
}

function concat(parts: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
