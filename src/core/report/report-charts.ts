// The report's charts, drawn here as inline SVG: bars with their numbers
// written beside them, series told apart by fill pattern and label as well as
// by colour, a <title> on each mark for the details. Every text passes the
// one escaper (report-html-text.ts).

import { html, joinMarkup, type Markup } from './report-html-text.ts';

/** Fill patterns that tell series apart without colour: solid, diagonal lines, dots, crossed lines. */
export const FILLS = ['solid', 'lines', 'dots', 'cross'] as const;
export type Fill = (typeof FILLS)[number];

const COLOURS: Record<Fill, string> = { solid: '#2f5d8a', lines: '#b5651d', dots: '#3c7d3c', cross: '#7a4a8c' };

/** The patterns, defined once in the page (a hidden SVG) and referred to by every chart. */
export function patternDefs(): Markup {
  const p = (fill: Fill, body: Markup) =>
    html`<pattern id="${`fill-${fill}`}" width="6" height="6" patternUnits="userSpaceOnUse">${body}</pattern>`;
  return html`<svg class="defs" width="0" height="0" aria-hidden="true" focusable="false"><defs>
${p('solid', html`<rect width="6" height="6" fill="${COLOURS.solid}"/>`)}
${p('lines', html`<rect width="6" height="6" fill="#fff"/><path d="M0 6L6 0M-1 1L1 -1M5 7L7 5" stroke="${COLOURS.lines}" stroke-width="2"/>`)}
${p('dots', html`<rect width="6" height="6" fill="#fff"/><circle cx="3" cy="3" r="1.6" fill="${COLOURS.dots}"/>`)}
${p('cross', html`<rect width="6" height="6" fill="#fff"/><path d="M0 0L6 6M6 0L0 6" stroke="${COLOURS.cross}" stroke-width="1.2"/>`)}
</defs></svg>`;
}

const fillOf = (fill: Fill) => `url(#fill-${fill})`;
const strokeOf = (fill: Fill) => COLOURS[fill];

/** A legend swatch: the pattern and its name. */
export function swatch(fill: Fill, label: string): Markup {
  return html`<span class="swatch"><svg width="14" height="14" aria-hidden="true"><rect x="0.5" y="0.5" width="13" height="13" fill="${fillOf(fill)}" stroke="${strokeOf(fill)}"/></svg> ${label}</span>`;
}

const r1 = (x: number) => Math.round(x * 10) / 10;

export interface LimitBar {
  label: string;
  value: number;
  limit: number;
  /** Text written after the bar. */
  note: string;
}

/** Horizontal bars against a limit (lines of each role's file): the limit is a dashed line, a bar over it is crossed and says so. */
export function limitBars(title: string, bars: readonly LimitBar[]): Markup {
  const labelW = 150;
  const barW = 360;
  const rowH = 24;
  const max = Math.max(1, ...bars.map((b) => Math.max(b.value, b.limit)));
  const scale = (v: number) => r1((v / max) * barW);
  const h = bars.length * rowH + 8;
  const rows = bars.map((b, i) => {
    const y = 4 + i * rowH;
    const over = b.value > b.limit;
    const fill: Fill = over ? 'cross' : 'solid';
    return html`<g><title>${`${b.label}: ${b.note}`}</title>
<text x="${labelW - 6}" y="${y + 15}" text-anchor="end">${b.label}</text>
<rect x="${labelW}" y="${y + 3}" width="${Math.max(1, scale(b.value))}" height="16" fill="${fillOf(fill)}" stroke="${strokeOf(fill)}"/>
<line x1="${labelW + scale(b.limit)}" x2="${labelW + scale(b.limit)}" y1="${y}" y2="${y + rowH - 2}" stroke="#222" stroke-dasharray="3 2"/>
<text x="${labelW + barW + 8}" y="${y + 15}">${b.note}</text></g>`;
  });
  return html`<svg class="chart" viewBox="0 0 ${labelW + barW + 200} ${h}" width="${labelW + barW + 200}" height="${h}" role="img" aria-label="${title}"><title>${title}</title>${rows}</svg>`;
}

export interface Column {
  /** Under the column. */
  label: string;
  /** Shown on hover: the details. */
  detail: string;
  /** Stacked parts, bottom first. */
  parts: Array<{ fill: Fill; value: number; name: string }>;
}

/** Vertical stacked columns (captured lessons per week, hand-offs per day): each column's total written above it, every few labels written below. */
export function columns(title: string, cols: readonly Column[], opts: { height?: number; labelEvery?: number } = {}): Markup {
  const h = opts.height ?? 140;
  const n = Math.max(1, cols.length);
  const colW = Math.max(4, Math.min(36, Math.floor(720 / n)));
  const left = 34;
  const w = left + n * colW + 10;
  const max = Math.max(1, ...cols.map((c) => c.parts.reduce((s, p) => s + p.value, 0)));
  const every = opts.labelEvery ?? Math.max(1, Math.ceil(n / Math.floor(720 / 70)));
  const y = (v: number) => r1(h - (v / max) * (h - 18));
  const marks = cols.map((c, i) => {
    const x = left + i * colW;
    let base = 0;
    const stack = c.parts
      .filter((p) => p.value > 0)
      .map((p) => {
        const top = base + p.value;
        const rect = html`<rect x="${x + 1}" y="${y(top)}" width="${Math.max(1, colW - 2)}" height="${Math.max(0.5, r1(y(base) - y(top)))}" fill="${fillOf(p.fill)}" stroke="${strokeOf(p.fill)}" stroke-width="0.6"/>`;
        base = top;
        return rect;
      });
    const total = base;
    const count =
      total > 0 && colW >= 14 ? html`<text class="n" x="${x + colW / 2}" y="${y(total) - 3}" text-anchor="middle">${total}</text>` : '';
    const label = i % every === 0 ? html`<text class="tick" x="${x + 1}" y="${h + 14}">${c.label}</text>` : '';
    return html`<g><title>${c.detail}</title>${stack}${count}${label}</g>`;
  });
  const axis = html`<line x1="${left}" x2="${w - 6}" y1="${h}" y2="${h}" stroke="#444"/><text class="tick" x="${left - 4}" y="${y(max) + 4}" text-anchor="end">${max}</text><text class="tick" x="${left - 4}" y="${h}" text-anchor="end">0</text>`;
  return html`<svg class="chart" viewBox="0 0 ${w} ${h + 22}" width="${w}" height="${h + 22}" role="img" aria-label="${title}"><title>${title}</title>${axis}${marks}</svg>`;
}

export interface PairGroup {
  label: string;
  detail: string;
  /** One pair of bars per series: what was given (outlined) and what of it was used (filled). */
  pairs: Array<{ name: string; fill: Fill; given: number; used: number }>;
}

/** Per session and hook: the entries given as an outlined bar, the part of them used filled inside it; a letter under each bar names the hook. */
export function givenUsedGroups(title: string, groups: readonly PairGroup[], letters: readonly string[]): Markup {
  const h = 150;
  const left = 34;
  const pairs = Math.max(1, groups[0]?.pairs.length ?? 1);
  const barW = 10;
  const groupW = pairs * (barW + 2) + 10;
  const w = left + Math.max(1, groups.length) * groupW + 10;
  const max = Math.max(1, ...groups.flatMap((g) => g.pairs.map((p) => p.given)));
  const y = (v: number) => r1(h - (v / max) * (h - 16));
  const every = Math.max(1, Math.ceil(groups.length / 10));
  const marks = groups.map((g, i) => {
    const x0 = left + i * groupW + 4;
    const bars = g.pairs.map((p, j) => {
      const x = x0 + j * (barW + 2);
      return html`<rect x="${x}" y="${y(p.given)}" width="${barW}" height="${r1(h - y(p.given))}" fill="#fff" stroke="${strokeOf(p.fill)}"/>
<rect x="${x}" y="${y(p.used)}" width="${barW}" height="${r1(h - y(p.used))}" fill="${fillOf(p.fill)}" stroke="${strokeOf(p.fill)}" stroke-width="0.6"/>
<text class="tick" x="${x + barW / 2}" y="${h + 11}" text-anchor="middle">${letters[j] ?? ''}</text>`;
    });
    const label = i % every === 0 ? html`<text class="tick" x="${x0}" y="${h + 23}">${g.label}</text>` : '';
    return html`<g><title>${g.detail}</title>${bars}${label}</g>`;
  });
  const axis = html`<line x1="${left}" x2="${w - 6}" y1="${h}" y2="${h}" stroke="#444"/><text class="tick" x="${left - 4}" y="${y(max) + 4}" text-anchor="end">${max}</text><text class="tick" x="${left - 4}" y="${h}" text-anchor="end">0</text>`;
  return html`<svg class="chart" viewBox="0 0 ${w} ${h + 28}" width="${w}" height="${h + 28}" role="img" aria-label="${title}"><title>${title}</title>${axis}${joinMarkup(marks)}</svg>`;
}
