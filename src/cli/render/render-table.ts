// Plain-text tables for people: columns padded to the widest cell, long cells
// clipped so a row stays on one line.

import { clip, oneLine } from '../../core/text.ts';

export const clipCell = (text: string, max: number): string => clip(oneLine(text), max);

export function renderTable(headers: string[], rows: string[][], maxWidths: number[] = []): string {
  const cells = rows.map((r) => r.map((c, i) => clipCell(c, maxWidths[i] ?? 60)));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return `${[line(headers), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n')}\n`;
}
