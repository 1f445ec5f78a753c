// Learnings sections in CLAUDE.md: under a heading such as `## Learnings`,
// `## Lessons learned`, `### Gotchas` or `## Pitfalls`, each top-level list
// item is an entry. Everything else in CLAUDE.md is instructions, not
// memory: kept verbatim (and left where it is). What `rune-echoes export`
// wrote between its markers is skipped, so an export never comes back.

import { isExportBegin, isExportEnd } from './export-section.ts';
import { blankAt, headingLevel, headingText, isTopItem, itemBody, itemEnd, outline, textOf } from './markdown-outline.ts';
import {
  draftEntry,
  evidenceAt,
  latestDay,
  plainText,
  pushPart,
  type ReadContext,
  type SourcePart,
  type SourceReading,
  titleFrom,
} from './source-reading.ts';

export const LEARNINGS_HEADING = /\b(learnings?|lessons?(?: learned)?|gotchas?|pitfalls?)\b/i;

export function readClaudeMd(text: string, ctx: ReadContext): SourceReading {
  const o = outline(text);
  const parts: SourcePart[] = [];
  const n = o.lines.length;
  /** The heading level of the learnings section we are in, or 0. */
  let inside = 0;
  let section = '';
  let inExport = false;
  let found = false;
  for (let i = 0; i < n; ) {
    const line = o.lines[i]?.text ?? '';
    if (inExport || isExportBegin(line)) {
      inExport = !isExportEnd(line);
      pushPart(parts, { type: 'verbatim', line: i + 1, raw: textOf(o, i, i + 1), why: 'written by rune-echoes export' });
      i++;
      continue;
    }
    const level = headingLevel(o, i);
    if (level > 0) {
      if (inside && level <= inside) inside = 0;
      if (!inside && LEARNINGS_HEADING.test(headingText(line))) {
        inside = level;
        section = plainText(headingText(line));
        found = true;
      }
      pushPart(parts, {
        type: 'verbatim',
        line: i + 1,
        raw: textOf(o, i, i + 1),
        why: inside ? 'heading' : 'instructions, not a learnings section',
      });
      i++;
      continue;
    }
    if (!inside || !isTopItem(o, i)) {
      const why = !inside ? 'instructions, not a learnings section' : blankAt(o, i) ? 'blank' : 'prose in a learnings section';
      pushPart(parts, { type: 'verbatim', line: i + 1, raw: textOf(o, i, i + 1), why });
      i++;
      continue;
    }
    const end = itemEnd(o, i, n);
    const learning = itemBody(o, i, end).text;
    parts.push({
      type: 'entry',
      line: i + 1,
      raw: textOf(o, i, end),
      entry: draftEntry(
        {
          title: titleFrom(learning),
          kind: 'Learning',
          learning,
          confidence: 0.8,
          date: latestDay(learning, ctx.fileDay),
          evidence: evidenceAt(ctx, i + 1, `CLAUDE.md, ${section}`),
        },
        ctx,
      ),
    });
    i = end;
  }
  const notes = found
    ? []
    : [`${ctx.ref}: no learnings section (## Learnings, ## Lessons learned, ## Gotchas, ## Pitfalls); nothing to import`];
  return { parts, notes };
}
