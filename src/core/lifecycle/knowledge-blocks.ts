// Active context compression for knowledge.md (SPEC §5, seed 000): when the
// file passes its line limit, related entries are grouped by topic and each
// group becomes a knowledge block of 3–5 lines. The learning's first sentence
// and every evidence reference stay; field bullets and elaboration go.

import type { EchoEntry } from '../entry/echo-entry.ts';
import { compareText, plural } from '../text.ts';

export interface KnowledgeBlock {
  /** What the entries share: a tag, the title words they share, their kind, or "other". */
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

/**
 * Greedy, deterministic grouping. Tags are the author's own topics, so they
 * come first, and a tag also gathers untagged entries whose title names it.
 * Then shared title words. Each round takes the token shared by the most
 * remaining entries (ties: alphabetical).
 */
function groupByTopic(entries: EchoEntry[]): Array<{ topic: string; members: EchoEntry[] }> {
  const tags = entries.map(
    (e) =>
      new Map(
        e.tags
          .map((t) => t.trim())
          .filter((t) => t !== '')
          .map((t) => [stem(t), t] as const),
      ),
  );
  const words = entries.map((e) => titleWords(e.title));
  const left = new Set(entries.keys());
  const groups: Array<{ topic: string; members: EchoEntry[] }> = [];
  const has = (i: number, token: string, byTag: boolean): boolean => words[i]!.has(token) || (byTag && tags[i]!.has(token));

  for (const byTag of [true, false]) {
    for (;;) {
      const candidates = new Set<string>();
      for (const i of left) for (const t of (byTag ? tags : words)[i]!.keys()) candidates.add(t);
      let best: string | null = null;
      let bestCount = 1;
      for (const t of [...candidates].sort()) {
        let n = 0;
        for (const i of left) if (has(i, t, byTag)) n++;
        if (n > bestCount) [best, bestCount] = [t, n];
      }
      if (best === null) break;
      const members = [...left].filter((i) => has(i, best!, byTag));
      for (const i of members) left.delete(i);
      const topic = byTag
        ? tagLabel(
            members.map((i) => tags[i]!),
            best,
          )
        : sharedWordsLabel(members.map((i) => words[i]!));
      groups.push({ topic, members: members.map((i) => entries[i]!) });
    }
  }

  // Entries that share nothing: group by kind, and what is still alone goes to "other".
  const byKind = new Map<string, EchoEntry[]>();
  for (const i of left) {
    const kind = entries[i]!.kind.trim().toLowerCase();
    byKind.set(kind, [...(byKind.get(kind) ?? []), entries[i]!]);
  }
  const alone: EchoEntry[] = [];
  for (const [kind, members] of byKind) {
    if (kind !== '' && kind !== 'other' && members.length > 1) groups.push({ topic: kind, members });
    else alone.push(...members);
  }
  groups.sort((a, b) => (a.topic.toLowerCase() < b.topic.toLowerCase() ? -1 : a.topic.toLowerCase() > b.topic.toLowerCase() ? 1 : 0));
  if (alone.length > 0) groups.push({ topic: 'other', members: alone });
  return groups;
}

/** The tag as the first member that carries it wrote it. */
function tagLabel(memberTags: Array<Map<string, string>>, token: string): string {
  for (const t of memberTags) {
    const shown = t.get(token);
    if (shown !== undefined) return shown;
  }
  return token;
}

/** Up to four words every member's title shares, as the first title writes them. */
function sharedWordsLabel(memberWords: Array<Map<string, string>>): string {
  const [first, ...rest] = memberWords;
  const shared = [...first!].filter(([w]) => rest.every((ws) => ws.has(w))).map(([, shown]) => shown);
  return shared.slice(0, 4).join(' ');
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
