// Active context compression for knowledge.md (SPEC §5, seed 000): when the
// file passes its line limit, related entries are grouped by topic and each
// group becomes a knowledge block of 3–5 lines. The learning's first sentence
// and every evidence reference stay; field bullets and elaboration go.

import type { EchoEntry } from '../entry/echo-entry.ts';
import { evidencePaths } from '../entry/evidence-paths.ts';
import { compareText, plural } from '../text.ts';

export interface KnowledgeBlock {
  /** What the entries are about: their strongest shared traits (tag, file, folder, rare title word), their kind, or "other". */
  topic: string;
  /** Ids of the entries compressed into this block, in block order. */
  ids: string[];
  /** Every evidence reference of those entries, first occurrence order. */
  evidence: string[];
  /** The rendered block, 3 to 5 lines. */
  lines: string[];
}

const MAX_PER_BLOCK = 4; // a header line plus up to four learning lines = 5 lines
const MAX_SENTENCE = 200;
const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

// Words too common in titles to say what a group is about.
const STOPWORDS = new Set(
  (
    'the and for with from into onto when not are was were has have had use uses used using new all any our its ' +
    'this that these those should must can could will would after before over under per via than then too one two ' +
    'does did don doesn isn aren without within between about out off only also more less most some each every ' +
    'always never may might file files code need needs needed make makes'
  ).split(' '),
);

/**
 * The references inside an evidence field: every `backticked` span, or when
 * there is none, the text before the " — " description ("CI logs").
 */
export function evidenceRefs(evidence: string): string[] {
  const text = evidence.replace(/\s+/g, ' ').trim();
  if (text === '' || /^none$/i.test(text)) return [];
  const ticked = [...text.matchAll(/`[^`]+`/g)].map((m) => m[0]);
  if (ticked.length > 0) return ticked;
  const head = text.split(/\s+[—–]\s+|\s+-{1,2}\s+/)[0]!.trim();
  return [head === '' ? text : head];
}

/** First sentence of the learning, cut at a word boundary when it runs long. */
export function firstSentence(learning: string): string {
  const text = learning.replace(/\s+/g, ' ').trim();
  // A sentence ends at . ! ? followed by a space and something that starts one
  // (a capital, a backtick, bold, the next list number) or by the end, so
  // "e.g. the" and "src/app.ts" do not end it. The first 8 characters never
  // do, so a leading "1. **Point**" is not a sentence on its own.
  const m = /^.{8,}?[.!?](?=\s+(?:[A-Z`"(]|\*\*|\d+\.\s)|$)/.exec(text);
  const sentence = m === null ? text : m[0];
  if (sentence.length <= MAX_SENTENCE) return sentence;
  const cut = sentence.slice(0, MAX_SENTENCE);
  const space = cut.lastIndexOf(' ');
  return `${(space > MAX_SENTENCE / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:]+$/, '')}…`;
}

/** Folds a word for matching: lower case, light plural folding ("imports" meets "import", "class" stays). */
function stem(word: string): string {
  const w = word.toLowerCase();
  return w.length > 4 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w;
}

/** Significant title words: folded form → the word as first written. */
function titleWords(title: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const word of title.split(/[^A-Za-z0-9+#]+/)) {
    const lower = word.toLowerCase();
    if (lower.length < 3 || STOPWORDS.has(lower) || /^\d+$/.test(lower)) continue;
    if (!out.has(stem(lower))) out.set(stem(lower), word);
  }
  return out;
}

/** How much each kind of shared trait says about a topic, before rarity weighs in. */
const TRAIT_WEIGHT = { tag: 3, path: 3, dir: 1.5, word: 1 } as const;
/** A trait most entries share (over this share of them) says nothing about any one topic. */
const MAX_SHARE = 0.4;
/** How close an entry must be to a group (cosine of weighted traits) to join it. */
const JOIN_AT = 0.3;

interface Traits {
  /** Trait key (`w:retry`, `p:src/a.ts`, `d:src`) → weight. */
  weights: Map<string, number>;
  /** Trait key → how it reads in a label. */
  shown: Map<string, string>;
  /** Title-word trait keys in title order, to tell a phrase ("Knowledge Keeper") from two traits. */
  titleOrder: string[];
}

/** What an entry is about: its tags, the files and folders its evidence and title cite, its title words. */
function traitsOf(e: EchoEntry): Traits {
  const weights = new Map<string, number>();
  const shown = new Map<string, string>();
  const add = (key: string, w: number, label: string) => {
    if ((weights.get(key) ?? 0) < w) weights.set(key, w);
    if (!shown.has(key)) shown.set(key, label);
  };
  // Tags and title words share one namespace, so a tag gathers untagged entries whose title names it.
  for (const tag of e.tags.map((t) => t.trim()).filter((t) => t !== '')) add(`w:${stem(tag)}`, TRAIT_WEIGHT.tag, tag);
  const titleOrder: string[] = [];
  for (const [folded, word] of titleWords(e.title)) {
    add(`w:${folded}`, TRAIT_WEIGHT.word, word);
    titleOrder.push(`w:${folded}`);
  }
  const cited = [...evidencePaths(e.evidence), ...evidencePaths(e.title).filter((p) => /\.[a-z]{1,5}$/i.test(p))];
  for (const path of cited) {
    add(`p:${path}`, TRAIT_WEIGHT.path, path);
    const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
    if (dir !== '') add(`d:${dir}`, TRAIT_WEIGHT.dir, `${dir}/`);
  }
  return { weights, shown, titleOrder };
}

type Vector = Map<string, number>;

function cosine(a: Vector, b: Vector): number {
  let dot = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const [k, v] of small) dot += v * (large.get(k) ?? 0);
  return dot;
}

function normalised(v: Vector): Vector {
  let n = 0;
  for (const x of v.values()) n += x * x;
  const len = Math.sqrt(n) || 1;
  return new Map([...v].map(([k, x]) => [k, x / len]));
}

/**
 * Groups entries by what they are about. Each entry is a vector of its traits
 * (tags, cited files and folders, title words), each weighted by its kind and
 * by its rarity (log N / df): a trait only one entry has cannot join anything,
 * and one most entries share (a frequent word like "case" or "review") is
 * dropped, because it says nothing about a topic. Entries join the group whose
 * centroid is closest, if close enough; leaders are taken in a fixed order
 * (most traits first), so the same entries always give the same groups.
 */
function groupByTopic(entries: EchoEntry[]): Array<{ topic: string; members: EchoEntry[] }> {
  const n = entries.length;
  const traits = entries.map(traitsOf);
  const df = new Map<string, number>();
  for (const t of traits) for (const k of t.weights.keys()) df.set(k, (df.get(k) ?? 0) + 1);
  const useful = (k: string) => {
    const d = df.get(k) ?? 0;
    return d >= 2 && (n < 8 || d / n <= MAX_SHARE);
  };
  const vectors = traits.map((t) =>
    normalised(new Map([...t.weights].filter(([k]) => useful(k)).map(([k, w]) => [k, w * Math.log((n + 1) / df.get(k)!)]))),
  );
  const order = entries
    .map((_, i) => i)
    .sort((a, b) => vectors[b]!.size - vectors[a]!.size || compareText(entries[a]!.id, entries[b]!.id) || a - b);
  const clusters: Array<{ members: number[]; sum: Vector }> = [];
  for (const i of order) {
    const v = vectors[i]!;
    if (v.size === 0) continue;
    let best = -1;
    let bestSim = JOIN_AT;
    clusters.forEach((c, k) => {
      const sim = cosine(v, normalised(c.sum));
      if (sim >= bestSim) [best, bestSim] = [k, sim];
    });
    if (best < 0) clusters.push({ members: [i], sum: new Map(v) });
    else {
      const c = clusters[best]!;
      c.members.push(i);
      for (const [k, x] of v) c.sum.set(k, (c.sum.get(k) ?? 0) + x);
    }
  }
  const groups: Array<{ topic: string; members: EchoEntry[] }> = [];
  const grouped = new Set<number>();
  for (const c of clusters) {
    if (c.members.length < 2) continue;
    for (const i of c.members) grouped.add(i);
    groups.push({
      topic: topicLabel(
        c.members.map((i) => traits[i]!),
        c.sum,
      ),
      members: c.members.sort((a, b) => a - b).map((i) => entries[i]!),
    });
  }

  // Entries that share nothing with others: by kind when several have one, else "other".
  const byKind = new Map<string, EchoEntry[]>();
  entries.forEach((e, i) => {
    if (grouped.has(i)) return;
    const kind = e.kind.trim().toLowerCase();
    byKind.set(kind, [...(byKind.get(kind) ?? []), e]);
  });
  const alone: EchoEntry[] = [];
  for (const [kind, members] of byKind) {
    if (kind !== '' && kind !== 'other' && members.length > 1) groups.push({ topic: sharedWord(members) ?? kind, members });
    else alone.push(...members);
  }
  groups.sort((a, b) => compareText(a.topic.toLowerCase(), b.topic.toLowerCase()));
  if (alone.length > 0) groups.push({ topic: sharedWord(alone) ?? 'other', members: alone });
  return groups;
}

/** The trait that weighs most in the group among those half its members have, and a second one if all have it. */
function topicLabel(members: Traits[], sum: Vector): string {
  const half = Math.ceil(members.length / 2);
  const holders = (k: string) => members.filter((m) => m.weights.has(k)).length;
  const ranked = [...sum]
    .filter(([k]) => holders(k) >= half)
    .sort((a, b) => b[1] - a[1] || compareText(a[0], b[0]))
    .map(([k]) => k);
  const picked: string[] = ranked.slice(0, 1);
  for (const k of ranked.slice(1)) {
    if (picked.length === 2) break;
    // A file and its own folder say the same thing: keep the more specific.
    if (holders(k) < members.length || (k.startsWith('d:') && picked.some((p) => p.startsWith(`p:${k.slice(2)}/`)))) continue;
    picked.push(k);
  }
  const show = (k: string) => members.find((m) => m.shown.has(k))!.shown.get(k)!;
  if (picked.length < 2) return picked.length === 1 ? show(picked[0]!) : 'related';
  // Two title words next to each other are a phrase, read in title order ("Knowledge Keeper"); else two traits.
  const order = members[0]!.titleOrder;
  const [a, b] = picked.map((k) => order.indexOf(k)) as [number, number];
  if (a >= 0 && b >= 0 && Math.abs(a - b) === 1)
    return a < b ? `${show(picked[0]!)} ${show(picked[1]!)}` : `${show(picked[1]!)} ${show(picked[0]!)}`;
  return `${show(picked[0]!)} · ${show(picked[1]!)}`;
}

/** A title word every one of these entries has, as written, or null. */
function sharedWord(entries: EchoEntry[]): string | null {
  const [first, ...rest] = entries.map((e) => titleWords(e.title));
  if (!first || rest.length === 0) return null;
  for (const [folded, word] of first) if (rest.every((w) => w.has(folded))) return word;
  return null;
}

/** Splits n into ceil(n / max) chunks whose sizes differ by at most one. */
function chunk<T>(items: T[], max: number): T[][] {
  const count = Math.ceil(items.length / max);
  const out: T[][] = [];
  let start = 0;
  for (let k = 0; k < count; k++) {
    const size = Math.floor(items.length / count) + (k < items.length % count ? 1 : 0);
    out.push(items.slice(start, start + size));
    start += size;
  }
  return out;
}

function dayOf(e: EchoEntry): string {
  if (DAY_RE.test(e.verified.trim())) return e.verified.trim();
  return DAY_RE.test(e.date.trim()) ? e.date.trim() : '';
}

/** One learning line; entries that say the same thing share it (seen ×n). */
interface Learning {
  key: string;
  title: string;
  sentence: string;
  refs: string[];
  confidence: number;
  members: EchoEntry[];
}

function toLearnings(ordered: EchoEntry[]): Learning[] {
  const byKey = new Map<string, Learning>();
  for (const e of ordered) {
    const title = e.title.replace(/\s+/g, ' ').trim() || e.id;
    const sentence = firstSentence(e.learning);
    const key = `${title.toLowerCase()}\u0000${sentence.toLowerCase()}`;
    const seen = byKey.get(key);
    if (seen === undefined) {
      byKey.set(key, { key, title, sentence, refs: evidenceRefs(e.evidence), confidence: e.confidence, members: [e] });
    } else {
      seen.refs = [...new Set([...seen.refs, ...evidenceRefs(e.evidence)])];
      if (Number.isFinite(e.confidence) && !(seen.confidence >= e.confidence)) seen.confidence = e.confidence;
      seen.members.push(e);
    }
  }
  return [...byKey.values()];
}

function learningLine(l: Learning): string {
  const refs = l.refs.length > 0 ? ` [${l.refs.join(', ')}]` : '';
  const conf = Number.isFinite(l.confidence) ? l.confidence.toFixed(2) : '';
  const times = l.members.length > 1 ? `seen ×${l.members.length}` : '';
  const meta = [conf, times].filter((x) => x !== '').join(', ');
  return `- ${l.title}${l.sentence ? `: ${l.sentence}` : ''}${refs}${meta ? ` (${meta})` : ''}`;
}

function renderBlock(topic: string, learnings: Learning[]): KnowledgeBlock {
  const members = learnings.flatMap((l) => l.members);
  const days = members
    .map(dayOf)
    .filter((d) => d !== '')
    .sort();
  const span = days.length === 0 ? '' : days[0] === days[days.length - 1] ? `, ${days[0]}` : `, ${days[0]}…${days[days.length - 1]}`;
  const n = members.length;
  const lines = [`**${topic}** — ${n} entr${n === 1 ? 'y' : 'ies'}${span}`, ...learnings.map(learningLine)];
  // A lone learning still gets three lines: its provenance is the third.
  if (learnings.length === 1) {
    const sources = [...new Set(members.map((e) => e.source.replace(/\s+/g, ' ').trim()).filter((x) => x !== ''))];
    lines.push(`- Source: ${sources.join('; ') || 'unknown'}`);
  }
  const evidence = [...new Set(learnings.flatMap((l) => l.refs))];
  return { topic, ids: members.map((e) => e.id), evidence, lines };
}

/**
 * Compresses entries into knowledge blocks. Deterministic: the same entries in
 * the same order give the same text. `now` stamps the compression.
 */
export function compressKnowledge(entries: EchoEntry[], opts: { now: Date }): { blocks: KnowledgeBlock[]; text: string } {
  const blocks: KnowledgeBlock[] = [];
  for (const { topic, members } of groupByTopic(entries)) {
    const ordered = [...members].sort((a, b) => compareText(dayOf(a), dayOf(b)) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    for (const part of chunk(toLearnings(ordered), MAX_PER_BLOCK)) blocks.push(renderBlock(topic, part));
  }
  if (blocks.length === 0) return { blocks, text: '' };
  const stamp = `<!-- knowledge blocks: ${plural(entries.length, 'entry', 'entries')} compressed on ${opts.now.toISOString().slice(0, 10)} -->`;
  const text = `${stamp}\n\n${blocks.map((b) => b.lines.join('\n')).join('\n\n')}\n`;
  return { blocks, text };
}
