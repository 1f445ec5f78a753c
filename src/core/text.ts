// Small text helpers with one meaning each, shared by every layer. Pure and
// linear in the input: transcripts hold megabyte-long strings, so nothing
// here may backtrack.

import { stripVTControlCharacters } from 'node:util';

/**
 * Deterministic string order by code point. Used instead of localeCompare,
 * whose first call loads ICU collation data (milliseconds on a hook's hot
 * path) and whose order depends on the machine's locale.
 */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// What is left of a colour escape when a transcript lost the escape character itself (`[31m`); the
// escapes themselves are Node's to recognise (util.stripVTControlCharacters).
const BARE_COLOUR = /\[\d{1,3}(?:;\d{1,3})*m/g;

/** The text without terminal colour and cursor escapes: what a reader of the terminal saw. */
export function withoutEscapes(text: string): string {
  return stripVTControlCharacters(text).replace(BARE_COLOUR, '');
}

/** Collapses all whitespace (line breaks included) to single spaces and trims. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * A value that must stay on its one line of a markdown file (a header field, a
 * list item): every control character and Unicode line or paragraph separator
 * becomes a space, runs of white space one space. Nothing it returns can start
 * a new line, heading or list item.
 */
export function markdownLine(text: string): string {
  return oneLine(text.replace(/[\p{Cc}\u2028\u2029]/gu, ' '));
}

/** Replaces each line break (CRLF, LF or a lone CR) with one space; every other character stays. */
export function withoutLineBreaks(text: string): string {
  return text.replace(/\r\n|\r|\n/g, ' ');
}

/** True for a string of only whitespace (or nothing). */
export function isBlank(text: string): boolean {
  return text.trim() === '';
}

/**
 * At most `max` characters, ending with … when cut. Never splits a surrogate
 * pair; ends at a word boundary when one is close (within the last 30%), and
 * drops punctuation left dangling before the ellipsis.
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, Math.max(1, max - 1));
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  const space = cut.lastIndexOf(' ');
  // A cut falls between words unless that would lose more than 30% (one long path or command word).
  if (space > max * 0.7) cut = cut.slice(0, space);
  return `${cut.replace(/[\s,;:.…–—-]+$/, '')}…`;
}

/** Token estimate used across the plugin (SPEC §8): characters ÷ 4, rounded up. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Role, agent and entry-store names (SPEC §3): lower-case letters, digits and dashes, at most 64. */
export const SAFE_NAME_RE = /^[a-z0-9][a-z0-9-]{0,63}$/;

export function isSafeName(name: string): boolean {
  return SAFE_NAME_RE.test(name);
}

/** "1 entry", "3 entries": a count with its noun in the right number. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

/** What a message quotes of a user's input: one line, at most `max` characters, never a whole megabyte. */
export function quoteInput(text: string, max = 60): string {
  return clip(oneLine(text), max);
}

/** Levenshtein distance, for "did you mean" on short names. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}
