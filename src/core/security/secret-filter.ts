// The security filter every persisted text passes (SPEC §7): `<private>` spans
// are dropped, secrets become `[REDACTED:<kind>]`, and a finding whose
// evidence is sensitive keeps its learning but loses the evidence.
// Pure and linear in the length of the text; the rules are in secret-rules.ts.

import { evidenceLocations } from '../entry/evidence-paths.ts';
import type { Fingerprint } from './fingerprint.ts';
import { KeywordScanner } from './keyword-scan.ts';
import { DEFAULT_IGNORE_GLOBS, evidencePaths, isIgnoredPath } from './path-ignore.ts';
import { removePrivate } from './private-spans.ts';
import { looksRandom } from './secret-heuristics.ts';
import { EMAIL_RULE, SECRET_RULES, type SecretRule } from './secret-rules.ts';

export { removePrivate } from './private-spans.ts';

export interface Redaction {
  kind: string;
  count: number;
}

export interface FilterResult {
  text: string;
  redactions: Redaction[];
}

export interface FilterOptions {
  /** Also redact e-mail addresses (kind `email`). Off by default: commit
   * e-mails in transcripts are not secrets, but a finding's are (filterFinding). */
  emails?: boolean;
}

/** What a stripped finding's evidence becomes. */
export const EVIDENCE_REMOVED = '(evidence removed: sensitive)';

interface Span {
  start: number;
  end: number;
  kind: string;
  /** Index of the rule in priority order; lower wins an overlap. */
  rank: number;
}

/** Replaces secrets with `[REDACTED:<kind>]` and removes `<private>` spans. */
export function filterSecrets(text: string, options: FilterOptions = {}): FilterResult {
  const counts = new Map<string, number>();
  const { text: visible, removed } = removePrivate(text);
  if (removed > 0) counts.set('private', removed);
  const out = render(visible, secretSpans(visible, options), visible.length, counts);
  return { text: out, redactions: [...counts].map(([kind, count]) => ({ kind, count })) };
}

/** Between texts filtered together: no rule's match runs across it (a control character no token holds). */
const BATCH_SEPARATOR = '\n\u0001\n';

/**
 * Many short texts filtered in one pass (the keyword scan and each rule run
 * once, not once per text), each as filterSecrets would give it alone; when a
 * text itself holds the separator, or a redaction swallowed one, each is
 * filtered on its own instead.
 */
export function filterMany(texts: string[], options: FilterOptions = {}): string[] {
  if (texts.length === 0) return [];
  if (texts.some((t) => t.includes('\u0001'))) return texts.map((t) => filterSecrets(t, options).text);
  const parts = filterSecrets(texts.join(BATCH_SEPARATOR), options).text.split(BATCH_SEPARATOR);
  return parts.length === texts.length ? parts : texts.map((t) => filterSecrets(t, options).text);
}

/** How far past the cut a text is read, so a secret that crosses the cut is still recognised whole. */
export const HEAD_MARGIN = 4096;

/**
 * The first `keep` characters of a text, filtered before they are cut (SPEC §7:
 * never cut first): the head is read with a margin past the cut, the secrets
 * found in it are redacted, and the cut falls where `keep` falls in the
 * original text, so a secret that crosses it is redacted, not halved.
 */
export function filterHead(text: string, keep: number, options: FilterOptions = {}): string {
  if (text.length <= keep) return filterSecrets(text, options).text;
  const { text: visible } = removePrivate(text.slice(0, keep + HEAD_MARGIN));
  return render(visible, secretSpans(visible, options), Math.min(keep, visible.length), new Map());
}

/** The merged spans to redact in a text without `<private>` parts. */
function secretSpans(visible: string, options: FilterOptions): Span[] {
  const rules = options.emails ? RULES_WITH_EMAIL : SECRET_RULES;
  const spans = [...privateKeySpans(visible)];
  const present = KEYWORDS.find(visible);
  rules.forEach((r, i) => {
    if (r.keywords && r.keywords.length > 0 && !r.keywords.some((k) => present.has(k))) return;
    collectSpans(visible, r, i + 1, spans);
  });
  return mergeSpans(spans);
}

/** The text up to `limit` (an offset in it) with every span replaced by its marker; a span crossing the limit is replaced whole. */
function render(visible: string, spans: Span[], limit: number, counts: Map<string, number>): string {
  let out = '';
  let at = 0;
  for (const span of spans) {
    if (span.start >= limit) break;
    out += `${visible.slice(at, span.start)}[REDACTED:${span.kind}]`;
    at = span.end;
    counts.set(span.kind, (counts.get(span.kind) ?? 0) + 1);
  }
  return at < limit ? out + visible.slice(at, limit) : out;
}

/** True when filterSecrets would change the text. */
export function hasSecret(text: string, options: FilterOptions = {}): boolean {
  return filterSecrets(text, options).redactions.length > 0;
}

export interface FindingText {
  learning: string;
  evidence: string;
  title?: string;
}

export interface FilteredFinding {
  learning: string;
  evidence: string;
  /** True when the evidence was replaced by EVIDENCE_REMOVED. */
  evidenceStripped: boolean;
  /** Present when the input had a title. */
  title?: string;
  redactions: Redaction[];
}

export interface FindingFilterOptions {
  /** `echoes.ignore` globs; evidence citing a matching path is stripped. */
  ignore?: readonly string[];
}

/**
 * Filters a finding before it is persisted: the learning (and title) keep
 * their text with secrets redacted; evidence that holds a secret, an e-mail
 * address, or a path on the ignore list is dropped as a whole, since a
 * half-redacted quote can still give the secret away. E-mail counts only when
 * the finding is not itself about e-mail handling.
 */
export function filterFinding(finding: FindingText, options: FindingFilterOptions = {}): FilteredFinding {
  const aboutEmail = isAboutEmail(`${finding.title ?? ''}\n${finding.learning}`);
  const opts: FilterOptions = { emails: !aboutEmail };
  const learning = filterSecrets(finding.learning, opts);
  const title = finding.title === undefined ? undefined : filterSecrets(finding.title, opts);
  const evidence = filterEvidence(finding.evidence, { ...opts, ignore: options.ignore ?? DEFAULT_IGNORE_GLOBS });
  const result: FilteredFinding = {
    learning: learning.text,
    evidence: evidence.text,
    evidenceStripped: evidence.stripped !== null,
    redactions: sumRedactions([learning.redactions, title?.redactions ?? [], evidence.redactions]),
  };
  if (title) result.title = title.text;
  return result;
}

export interface FilteredEvidence {
  text: string;
  /** Why the evidence was dropped whole, or null when it was kept (private spans removed). */
  stripped: 'sensitive' | null;
  redactions: Redaction[];
}

export interface EvidenceOptions extends FilterOptions {
  ignore: readonly string[];
  /** Tells evidence that named no place apart from other evidence (a keyed hash; see fingerprint.ts). */
  fingerprint?: Fingerprint;
}

/**
 * Evidence is dropped as a whole when it holds a secret (or, for a finding not
 * about e-mail, an address) or cites a path on the ignore list: a
 * half-redacted quote can still give the secret away. What stays is a
 * non-secret identity — the places it cited (`api/settings.py:12`), else a
 * keyed fingerprint — so that findings about different evidence are never
 * merged into one for having both lost theirs.
 */
export function filterEvidence(evidence: string, options: EvidenceOptions): FilteredEvidence {
  if (evidence.startsWith(EVIDENCE_REMOVED)) {
    // Already reduced (a merge, a re-run): the identity is checked again, since anyone can write this prefix.
    const rest = evidence.slice(EVIDENCE_REMOVED.length).trim();
    const kept = /^#[0-9a-f]{12}$/.test(rest) ? ` ${rest}` : placesOf(rest, options);
    return { text: `${EVIDENCE_REMOVED}${kept}`, stripped: null, redactions: [] };
  }
  const filtered = filterSecrets(evidence, options);
  const ignored = evidencePaths(evidence).some((p) => isIgnoredPath(p, options.ignore));
  const sensitive = ignored || filtered.redactions.some((r) => r.kind !== 'private');
  if (!sensitive) return { text: filtered.text, stripped: null, redactions: filtered.redactions };
  const places = ignored ? '' : placesOf(filtered.text, options);
  const identity = places || (options.fingerprint ? ` #${options.fingerprint(evidence)}` : '');
  return { text: `${EVIDENCE_REMOVED}${identity}`, stripped: 'sensitive', redactions: filtered.redactions };
}

/**
 * The places a (filtered) evidence cites, as ` a.py:1, b.ts:3`, or ''. A place
 * must not be a secret's remains: nothing redacted, nothing the filter still
 * catches, and no random-looking part (a key's base64 body has slashes too).
 */
function placesOf(text: string, options: EvidenceOptions): string {
  const places = evidenceLocations(text).filter(
    (p) =>
      !p.includes('REDACTED') &&
      !isIgnoredPath(p, options.ignore) &&
      filterSecrets(p, options).text === p &&
      !p.split(/[/\\]/).some((part) => part.length >= 12 && looksRandom(part.replace(/[:#].*$/, ''))),
  );
  return places.length > 0 ? ` ${places.join(', ')}` : '';
}

const EMAIL_TOPIC = /\b(?:e-?mails?|mail(?:s|er|ers|box|boxes|ing)?|smtp|imap|pop3|mx records?|inbox|newsletters?|unsubscribe)\b/i;

/** True when a finding is about e-mail handling, so addresses are its subject. */
export function isAboutEmail(text: string): boolean {
  // The addresses themselves (`ops@corp-mail.io`) say nothing about the topic.
  return EMAIL_TOPIC.test(text.replace(/(?<!\S)\S*@\S*/g, ' '));
}

function sumRedactions(lists: Redaction[][]): Redaction[] {
  const counts = new Map<string, number>();
  for (const list of lists) for (const r of list) counts.set(r.kind, (counts.get(r.kind) ?? 0) + r.count);
  return [...counts].map(([kind, count]) => ({ kind, count }));
}

// ---- spans ----------------------------------------------------------------

const RULES_WITH_EMAIL: readonly SecretRule[] = [...SECRET_RULES, EMAIL_RULE];

/** Finds, in one pass, which rule keywords a text holds: most rules are skipped for most texts. */
const KEYWORDS = new KeywordScanner(RULES_WITH_EMAIL.flatMap((r) => r.keywords ?? []));

/** A value that is our own marker (`[REDACTED:password]`, as `sshpass -p '…'` shows it once filtered): filtering twice finds nothing new. */
const MARKER = /^\[REDACTED:[\w-]+\]$/;
const isMarker = (value: string): boolean => MARKER.test(value);

function collectSpans(text: string, r: SecretRule, rank: number, into: Span[]): void {
  if (r.scan) {
    for (const [start, end, kind] of r.scan(text))
      if (end > start && !isMarker(text.slice(start, end))) into.push({ start, end, kind: kind ?? r.kind, rank });
    return;
  }
  if (!r.pattern) return;
  for (const m of text.matchAll(r.pattern)) {
    let range: [number, number] | undefined = m.indices?.[0];
    const groups = m.indices?.groups;
    if (groups) {
      for (const g of Object.values(groups)) {
        if (g) {
          range = g;
          break;
        }
      }
    }
    if (!range || range[1] <= range[0]) continue;
    if (isMarker(text.slice(range[0], range[1]))) continue;
    if (r.accept && !r.accept(text.slice(range[0], range[1]), text, range[0])) continue;
    into.push({ start: range[0], end: range[1], kind: r.kind, rank });
  }
}

/** Overlapping spans become one, labelled by the most specific rule. */
function mergeSpans(spans: Span[]): Span[] {
  spans.sort((a, b) => a.start - b.start || a.rank - b.rank);
  const out: Span[] = [];
  for (const s of spans) {
    const last = out[out.length - 1];
    if (last && s.start < last.end) {
      if (s.rank < last.rank) {
        last.kind = s.kind;
        last.rank = s.rank;
      }
      last.end = Math.max(last.end, s.end);
    } else {
      out.push({ ...s });
    }
  }
  return out;
}

// PEM private keys span lines, so they are found by a scan instead of one
// regex: a lazy `[\s\S]*?` up to the footer would rescan the rest of the text
// for every header without one.
const PEM_HEADER = /-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
const PEM_FOOTER = /-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
/** Body of a key: base64, real or JSON-escaped newlines, `Proc-Type:` headers. */
const PEM_BODY_CHAR = /[A-Za-z0-9+/=\s\\:,.-]/;
/**
 * A key cut off before its footer: the header and the base64 lines after it,
 * also when the lines were joined by spaces (a title made one line). Words
 * after a space must be long to count, so prose after a header stays.
 */
const PEM_TRUNCATED = /(?:[ \t]*(?:\r?\n|(?:\\r)?\\n)[ \t]*[A-Za-z0-9+/=]{1,200}|[ \t]+[A-Za-z0-9+/=]{16,200})*/y;
const PEM_MAX_BODY = 64 * 1024;

function privateKeySpans(text: string): Span[] {
  const spans: Span[] = [];
  let footerAt = -2; // -2: not searched yet; -1: no footer after this point
  let footerEnd = 0;
  let badAt = -1; // first non-body character after the last failed header
  let from = 0;
  PEM_HEADER.lastIndex = 0;
  for (let m = PEM_HEADER.exec(text); m; m = PEM_HEADER.exec(text)) {
    const start = m.index;
    if (start < from) continue;
    const bodyStart = start + m[0].length;
    if (footerAt !== -1 && footerAt < bodyStart) {
      PEM_FOOTER.lastIndex = bodyStart;
      const f = PEM_FOOTER.exec(text);
      footerAt = f ? f.index : -1;
      footerEnd = f ? f.index + f[0].length : 0;
    }
    let end = -1;
    if (footerAt >= 0 && footerAt - bodyStart <= PEM_MAX_BODY && !(badAt >= bodyStart && badAt < footerAt)) {
      const bad = firstNonBody(text, bodyStart, footerAt);
      if (bad < 0) end = footerEnd;
      else badAt = bad;
    }
    if (end < 0) {
      PEM_TRUNCATED.lastIndex = bodyStart;
      PEM_TRUNCATED.exec(text);
      end = Math.max(bodyStart, PEM_TRUNCATED.lastIndex);
    }
    spans.push({ start, end, kind: 'private-key', rank: 0 });
    from = end;
    PEM_HEADER.lastIndex = Math.max(PEM_HEADER.lastIndex, end);
  }
  return spans;
}

function firstNonBody(text: string, from: number, to: number): number {
  for (let i = from; i < to; i++) if (!PEM_BODY_CHAR.test(text[i]!)) return i;
  return -1;
}
