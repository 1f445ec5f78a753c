// The replay benchmark's measures (issue 17), pure: what a session used, what
// the plugin injected into it and when, and from those need coverage and
// injection use; captured entries against a labelled fixture. The replay
// (history-replay.ts) gathers the values, these functions only count.
import { signatureKey } from '../../src/core/capture/error-signature.ts';

export type NeedKind = 'file' | 'command' | 'error';
export const NEED_KINDS: readonly NeedKind[] = ['file', 'command', 'error'];

/** One thing a session used, at its first use: a file (relative to the project), a command family, an error signature key. */
export interface Use {
  kind: NeedKind;
  key: string;
  /** An error's line as printed (errors only). */
  line?: string;
  /** Where in the session's transcript it was first used (line index). */
  at: number;
}

/** An entry of role memory given to the session (the digest, prompt recall). */
export interface InjectedEntry {
  /** `role#id` as usage.jsonl names it. */
  key: string;
  id: string;
  title: string;
  /** Title, learning, evidence and the other fields as one text. */
  text: string;
}

/** What one hook run added to the model's context. */
export interface Injection {
  /** Line index of the transcript before which it was given (-1: at the session's start). */
  at: number;
  via: 'session-start' | 'compact' | 'prompt' | 'failure';
  text: string;
  /** The part of a SessionStart text that is the last session's hand-off ('' when none). */
  handOff: string;
  entries: InjectedEntry[];
  /** The files a prompt's recall named by their paths (its line of files the prompt names). */
  files?: string[];
}

export interface SessionTrace {
  id: string;
  worked: boolean;
  /** First use of each file, command family and error key, in order. */
  uses: Use[];
  injections: Injection[];
  /** The assistant's text and the commands it ran, with where: an entry named by id or title there was used. */
  said: Array<{ at: number; text: string }>;
}

const useKey = (u: Pick<Use, 'kind' | 'key'>) => `${u.kind}:${u.key}`;

// ---------------------------------------------------------------- mentions

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `needle` in `text` as a whole token: not inside a longer name on either side. */
function hasToken(text: string, needle: string, before: string, after: string): boolean {
  if (!needle) return false;
  return new RegExp(`(?<![${before}])${escapeRe(needle)}(?![${after}])`, 'i').test(text);
}

/** The names a file may be given by: its path, and its name with its folder. */
export function fileNames(path: string): string[] {
  const parts = path.split('/').filter(Boolean);
  const out = [path.replace(/^\.\//, '')];
  if (parts.length >= 2) out.push(parts.slice(-2).join('/'));
  return [...new Set(out)];
}

/** The text names the file: by its path or its name with its folder (a top-level file by its name). */
export function mentionsFile(text: string, path: string): boolean {
  return fileNames(path).some((name) => hasToken(text, name, 'A-Za-z0-9_\\-', 'A-Za-z0-9_\\-/'));
}

/** The text names the command family (`npm run build`, `git push`), not a longer one (`npm run build:prod`). */
export function mentionsCommand(text: string, family: string): boolean {
  if (!family.trim()) return false;
  const flat = text.replace(/[ \t]+/g, ' ');
  return hasToken(flat, family, 'A-Za-z0-9_\\-./', 'A-Za-z0-9_\\-:/');
}

const KEY_STOP = new Set(['error', 'errors', 'failed', 'with', 'from', 'that', 'this', 'have', 'when', 'then', 'were', 'into', 'your']);

/** The words of an error key that identify it (placeholders and common words left out). */
export function keyWords(key: string): string[] {
  return [
    ...new Set(
      key
        .split(/\s+/)
        .map((w) => w.replace(/^[^\p{L}\d]+|[^\p{L}\d]+$/gu, ''))
        .filter((w) => w.length >= 4 && !KEY_STOP.has(w) && !/^(?:path|hex)$/.test(w)),
    ),
  ];
}

/** The text names the error: its line, its key, or every word of its key (at least two) on one line. */
export function mentionsError(text: string, error: { key: string; line?: string }): boolean {
  const lower = text.toLowerCase();
  if (error.line && error.line.length >= 12 && lower.includes(error.line.toLowerCase())) return true;
  const lines = lower.split('\n');
  if (lines.some((l) => signatureKey(l).includes(error.key))) return true;
  const words = keyWords(error.key);
  return words.length >= 2 && lines.some((l) => words.every((w) => l.includes(w)));
}

export function mentions(text: string, use: Pick<Use, 'kind' | 'key' | 'line'>): boolean {
  if (use.kind === 'file') return mentionsFile(text, use.key);
  if (use.kind === 'command') return mentionsCommand(text, use.key);
  return mentionsError(text, use);
}

// ---------------------------------------------------------------- need coverage

export interface NeedItem {
  session: string;
  kind: NeedKind;
  key: string;
  /** Appeared in text injected into this session before its first use. */
  covered: boolean;
  /** The previous working session used it too: a perfect hand-off of that session alone would have named it. */
  inPrevious: boolean;
}

/**
 * What each session needed again (it used it, and an earlier session of the history had), and whether
 * the plugin had named it before the session's first use.
 */
export function needItems(sessions: readonly SessionTrace[]): NeedItem[] {
  const out: NeedItem[] = [];
  const earlier = new Set<string>();
  let previous: Set<string> | null = null;
  for (const s of sessions) {
    for (const u of s.uses) {
      if (!earlier.has(useKey(u))) continue;
      const covered = s.injections.some((inj) => inj.at < u.at && mentions(inj.text, u));
      out.push({ session: s.id, kind: u.kind, key: u.key, covered, inPrevious: previous?.has(useKey(u)) ?? false });
    }
    for (const u of s.uses) earlier.add(useKey(u));
    if (s.worked) previous = new Set(s.uses.map(useKey));
  }
  return out;
}

export interface Share {
  hit: number;
  of: number;
}
export const share = (s: Share): number | null => (s.of === 0 ? null : s.hit / s.of);
const count = <T>(items: readonly T[], hit: (t: T) => boolean): Share => ({ hit: items.filter(hit).length, of: items.length });

export interface CoverageSummary {
  all: Share;
  ceiling: Share;
  byKind: Record<NeedKind, { covered: Share; ceiling: Share }>;
}

export function coverageSummary(items: readonly NeedItem[]): CoverageSummary {
  const byKind = {} as CoverageSummary['byKind'];
  for (const k of NEED_KINDS) {
    const of = items.filter((i) => i.kind === k);
    byKind[k] = { covered: count(of, (i) => i.covered), ceiling: count(of, (i) => i.inPrevious) };
  }
  return { all: count(items, (i) => i.covered), ceiling: count(items, (i) => i.inPrevious), byKind };
}

// ---------------------------------------------------------------- injection use

export interface UseItem {
  session: string;
  group: 'lesson' | 'hand-off' | 'file';
  /** The hook that gave it (the first time this session). */
  via: Injection['via'];
  /** The entry key, or `file:…` / `command:…` of a hand-off or of a file a prompt named. */
  name: string;
  used: boolean;
}

/** The files and commands a hand-off names, among those the history has used so far. */
export function handOffItems(handOff: string, known: Iterable<Pick<Use, 'kind' | 'key'>>): Array<Pick<Use, 'kind' | 'key'>> {
  const out: Array<Pick<Use, 'kind' | 'key'>> = [];
  const seen = new Set<string>();
  for (const u of known) {
    if (u.kind === 'error' || seen.has(useKey(u))) continue;
    if (mentions(handOff, u)) {
      seen.add(useKey(u));
      out.push({ kind: u.kind, key: u.key });
    }
  }
  return out;
}

const namesEntry = (text: string, e: InjectedEntry): boolean =>
  hasToken(text, e.id, 'A-Za-z0-9_\\-', 'A-Za-z0-9_\\-') || (e.title.length >= 12 && text.toLowerCase().includes(e.title.toLowerCase()));

/**
 * Of the items injected into each session, which it then used: a lesson or recall item when a file,
 * command or error it names was used after it was given, or the session named its id or title; a
 * hand-off's file or command when the session used it. `known`: what the history used before each session.
 */
export function useItems(sessions: readonly SessionTrace[]): UseItem[] {
  const out: UseItem[] = [];
  const known = new Map<string, Pick<Use, 'kind' | 'key'>>();
  for (const s of sessions) {
    const seenEntry = new Set<string>();
    const seenHandOff = new Set<string>();
    for (const inj of s.injections) {
      const after = s.uses.filter((u) => u.at > inj.at);
      for (const e of inj.entries) {
        if (seenEntry.has(e.key)) continue;
        seenEntry.add(e.key);
        const used = after.some((u) => mentions(e.text, u)) || s.said.some((x) => x.at > inj.at && namesEntry(x.text, e));
        out.push({ session: s.id, group: 'lesson', via: inj.via, name: e.key, used });
      }
      for (const path of inj.files ?? []) {
        const name = useKey({ kind: 'file', key: path });
        if (seenEntry.has(name)) continue;
        seenEntry.add(name);
        out.push({ session: s.id, group: 'file', via: inj.via, name, used: after.some((u) => useKey(u) === name) });
      }
      if (!inj.handOff) continue;
      for (const item of handOffItems(inj.handOff, known.values())) {
        const name = useKey(item);
        if (seenHandOff.has(name)) continue;
        seenHandOff.add(name);
        out.push({ session: s.id, group: 'hand-off', via: inj.via, name, used: after.some((u) => useKey(u) === name) });
      }
    }
    for (const u of s.uses) known.set(useKey(u), { kind: u.kind, key: u.key });
  }
  return out;
}

export function useSummary(items: readonly UseItem[]): { lessons: Share; handOff: Share; files: Share } {
  return {
    files: count(
      items.filter((i) => i.group === 'file'),
      (i) => i.used,
    ),
    lessons: count(
      items.filter((i) => i.group === 'lesson'),
      (i) => i.used,
    ),
    handOff: count(
      items.filter((i) => i.group === 'hand-off'),
      (i) => i.used,
    ),
  };
}

// ---------------------------------------------------------------- captured entries against labels

export interface LabelledLesson {
  id: string;
  kind: string;
  description: string;
  /** Regular expressions (case-insensitive); any one found in the entry's text identifies the lesson. */
  match: string[];
}

export interface CaptureLabels {
  history: string;
  notes?: string;
  expected: LabelledLesson[];
  mustNot: Array<{ description: string; match: string[] }>;
}

export type Verdict = { verdict: 'expected'; lesson: string } | { verdict: 'must-not'; reason: string } | { verdict: 'unmatched' };

const anyMatch = (patterns: readonly string[], text: string) => patterns.some((p) => new RegExp(p, 'iu').test(text));

/**
 * A captured entry's verdict from what it says (title first: an entry is about what its title says; then
 * the rest). A statement that must not be captured wins over a lesson it also matches.
 */
export function judgeEntry(text: string, labels: CaptureLabels): Verdict {
  const bad = labels.mustNot.find((m) => anyMatch(m.match, text));
  if (bad) return { verdict: 'must-not', reason: bad.description };
  const [title = '', ...rest] = text.split('\n');
  for (const part of [title, rest.join('\n')]) {
    const good = labels.expected.find((l) => anyMatch(l.match, part));
    if (good) return { verdict: 'expected', lesson: good.id };
  }
  return { verdict: 'unmatched' };
}

/** The labelled lessons some captured entry matched. */
export function lessonsFound(verdicts: readonly Verdict[]): string[] {
  return [...new Set(verdicts.flatMap((v) => (v.verdict === 'expected' ? [v.lesson] : [])))];
}

/** Captured entries matching an expected lesson ÷ all captured entries judged (must-not and unmatched count against). */
export function capturePrecision(verdicts: readonly Verdict[]): Share {
  return count(verdicts, (v) => v.verdict === 'expected');
}
