// The outline of a plain markdown file that other tools wrote (Claude Code
// auto memory, continuity.md, CLAUDE.md): lines with their exact endings,
// which of them sit inside code fences, headings, rules and top-level list
// items. Readers cut a file into consecutive parts along this outline, so the
// parts always add up to the file.

import { isThematicBreak, type Line, splitLines } from '../entry/echo-scan.ts';
import { isBlank } from '../text.ts';

export interface Outline {
  lines: Line[];
  /** True for lines inside a code fence (the fence lines included): no heading or item there. */
  fenced: boolean[];
}

export function outline(text: string): Outline {
  const lines = splitLines(text);
  const fenced: boolean[] = [];
  let fence: { ch: string; len: number } | null = null;
  for (const l of lines) {
    const m = /^[ \t]*(`{3,}|~{3,})(.*)$/.exec(l.text);
    if (fence) {
      fenced.push(true);
      if (m && m[1]![0] === fence.ch && m[1]!.length >= fence.len && (m[2] ?? '').trim() === '') fence = null;
      continue;
    }
    if (m && !(m[1]![0] === '`' && (m[2] ?? '').includes('`'))) {
      fence = { ch: m[1]![0]!, len: m[1]!.length };
      fenced.push(true);
      continue;
    }
    fenced.push(false);
  }
  return { lines, fenced };
}

/** Level of an ATX heading (1–6) outside fences, else 0. */
export function headingLevel(o: Outline, i: number): number {
  if (o.fenced[i]) return 0;
  const m = /^ {0,3}(#{1,6})(?:[ \t]|$)/.exec(o.lines[i]?.text ?? '');
  return m ? m[1]!.length : 0;
}

/** The text of a heading without its hashes. */
export function headingText(line: string): string {
  return line
    .replace(/^ {0,3}#{1,6}[ \t]*/, '')
    .replace(/[ \t]+#+[ \t]*$/, '')
    .trim();
}

export function isRule(o: Outline, i: number): boolean {
  return !o.fenced[i] && isThematicBreak(o.lines[i]?.text ?? '');
}

const ITEM_RE = /^([-*+]|\d{1,9}[.)])[ \t]+/;

/** A list item that starts at column 0 (a top-level item). */
export function isTopItem(o: Outline, i: number): boolean {
  return !o.fenced[i] && ITEM_RE.test(o.lines[i]?.text ?? '') && !isThematicBreak(o.lines[i]?.text ?? '');
}

export const blankAt = (o: Outline, i: number): boolean => isBlank(o.lines[i]?.text ?? '');

/** The exact text of lines [start, end). */
export function textOf(o: Outline, start: number, end: number): string {
  let out = '';
  for (let i = start; i < end; i++) out += o.lines[i]?.raw ?? '';
  return out;
}

/**
 * Where the top-level item starting at `start` ends (exclusive), at most
 * `limit`: at the next top-level item, heading or rule, or at a line that is
 * not indented after a blank line. Blank lines right after it belong to it.
 */
export function itemEnd(o: Outline, start: number, limit: number): number {
  let i = start + 1;
  let sawBlank = false;
  for (; i < limit; i++) {
    if (o.fenced[i]) {
      sawBlank = false;
      continue;
    }
    const text = o.lines[i]?.text ?? '';
    if (isBlank(text)) {
      sawBlank = true;
      continue;
    }
    if (isTopItem(o, i) || headingLevel(o, i) > 0 || isRule(o, i)) break;
    const indented = /^[ \t]/.test(text);
    if (sawBlank && !indented) break;
    sawBlank = false;
  }
  // Trailing blank lines stay with the item, but not a blank run that ends the range before text.
  return i;
}

/** The item's own text: the marker (and a task box) dropped, continuation lines dedented. */
export function itemBody(o: Outline, start: number, end: number): { text: string; checked: boolean | null } {
  const first = o.lines[start]?.text ?? '';
  const marker = ITEM_RE.exec(first)?.[0] ?? '';
  let head = first.slice(marker.length);
  let checked: boolean | null = null;
  const box = /^\[([ xX])\][ \t]+/.exec(head);
  if (box) {
    checked = box[1] !== ' ';
    head = head.slice(box[0].length);
  }
  const rest: string[] = [];
  for (let i = start + 1; i < end; i++) rest.push((o.lines[i]?.text ?? '').replace(/^(?: {1,4}|\t)/, ''));
  while (rest.length && isBlank(rest[rest.length - 1] ?? '')) rest.pop();
  return { text: [head, ...rest].join('\n'), checked };
}
