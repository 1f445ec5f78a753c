// How one field value is read from a hand-edited file (leniently) and written
// back (strictly): confidence, layers, tags, dates and the learning text.

import { isBlank } from '../text.ts';
import { CONFIDENCE_WORDS, type ConfidenceWord, isLayer, type Layer } from './echo-entry.ts';

const WORD_OF: Record<string, ConfidenceWord> = { high: 'HIGH', medium: 'MEDIUM', med: 'MEDIUM', low: 'LOW' };

/** 0..1 from `0.85`, `"0.9"`, `85%`, `HIGH (5 Ashes…)`; null when unreadable or out of range. */
export function parseConfidence(raw: string): number | null {
  const s = raw.trim().replace(/^["'`]+|["'`]+$/g, '');
  // The number must stand alone: `0.0-1.0` is the seed's template, not a value.
  // Unambiguous number grammar: a digit run can only be split one way, so a long
  // run followed by junk fails in linear time.
  const num = /^((?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)[ \t]*(%?)(?=$|[ \t(,;])/.exec(s);
  if (num) {
    const n = Number(num[1]) / (num[2] ? 100 : 1);
    return Number.isFinite(n) && n >= 0 && n <= 1 ? n : null;
  }
  const word = confidenceWord(s);
  return word ? CONFIDENCE_WORDS[word] : null;
}

/** The legacy word of a confidence value: `LOW`, `high (5 Ashes…)`, `0.3 (LOW)` → LOW/HIGH; null for a bare number. */
export function confidenceWord(raw: string): ConfidenceWord | null {
  const s = raw.trim().replace(/^["'`]+|["'`]+$/g, '');
  const m = /^([A-Za-z]+)/.exec(s) ?? /^[0-9.]+%?[ \t]*\([ \t]*([A-Za-z]+)[ \t]*\)/.exec(s);
  return m ? (WORD_OF[(m[1] ?? '').toLowerCase()] ?? null) : null;
}

/** `1` → `1.0` as in the seed; other values print exactly so they read back equal. */
export function formatConfidence(value: number): string {
  return Number.isInteger(value) ? value.toFixed(1) : String(value);
}

const LAYER_ALIASES: Record<string, Layer> = {
  observations: 'traced',
  observation: 'traced',
  session: 'traced',
  // Rune's own consolidation pass wrote merged inscribed entries under this name.
  consolidated: 'inscribed',
};

/** Known layer names and legacy aliases; anything else is inscribed, with `known: false`. */
export function normalizeLayer(raw: string): { layer: Layer; known: boolean } {
  const word = raw
    .toLowerCase()
    .replace(/\(.*$/s, '')
    .replace(/[`*"']/g, '')
    .trim();
  if (isLayer(word)) return { layer: word, known: true };
  const alias = LAYER_ALIASES[word];
  return alias ? { layer: alias, known: true } : { layer: 'inscribed', known: false };
}

/** `a, b`, `[a, b]`, `#a #b` → ['a', 'b']. */
export function parseTags(raw: string): string[] {
  if (raw === '') return [];
  const inner = raw.trim().replace(/^\[(.*)\]$/s, '$1');
  const parts = inner.includes(',') ? inner.split(',') : inner.split(/[ \t]+/);
  return parts
    .map((t) =>
      t
        .trim()
        .replace(/^#/, '')
        .replace(/^["'`]|["'`]$/g, ''),
    )
    .filter((t) => t.length > 0);
}

export function formatTags(tags: string[]): string {
  return tags.join(', ');
}

/** A real calendar date written as YYYY-MM-DD at the start of `raw`, else null. */
export function parseIsoDate(raw: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?![0-9])/.exec(raw.trim());
  if (!m) return null;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1] ?? 0;
  return d >= 1 && d <= days ? `${m[1]}-${m[2]}-${m[3]}` : null;
}

/** Free text of an entry: blank edges dropped, and one `- ` bullet marker removed when every line has it. */
export function normalizeLearning(lines: string[]): string {
  let start = 0;
  let end = lines.length;
  while (start < end && isBlank(lines[start] ?? '')) start++;
  while (end > start && isBlank(lines[end - 1] ?? '')) end--;
  const body = lines.slice(start, end).map((l) => (isBlank(l) ? '' : l));
  const bulleted = body.every((l) => l === '' || l.startsWith('- '));
  return (bulleted ? body.map((l) => (l === '' ? l : l.slice(2))) : body).join('\n');
}
