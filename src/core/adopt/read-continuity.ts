// agent-memory's continuity.md: `##` sections of facts, each a top-level list
// item, most with a metadata footer in an HTML comment
// (`<!-- id: kebab | created: … | last_used: … | uses: N | tier: core -->`,
// seed 004). Each fact becomes an entry that keeps its id, dates and tier
// (core and the Architectural Invariants become etched, archive candidates
// traced); the Project State block, headings and prose stay verbatim.

import type { Layer } from '../entry/echo-entry.ts';
import { isValidId } from '../entry/entry-ids.ts';
import { parseIsoDate } from '../entry/field-values.ts';
import { blankAt, headingLevel, headingText, isTopItem, itemBody, itemEnd, outline, textOf } from './markdown-outline.ts';
import {
  draftEntry,
  evidenceAt,
  latestDay,
  pushPart,
  type ReadContext,
  type SourcePart,
  type SourceReading,
  titleFrom,
} from './source-reading.ts';

const FOOTER_RE = /<!--\s*(id\s*:[^>]*?)\s*-->/;

/** `id: x | tier: core | uses: 3` → { id: 'x', tier: 'core', uses: '3' }. */
export function readFooter(text: string): Record<string, string> | null {
  const m = FOOTER_RE.exec(text);
  if (!m) return null;
  const out: Record<string, string> = {};
  for (const pair of (m[1] ?? '').split('|')) {
    const at = pair.indexOf(':');
    if (at > 0) out[pair.slice(0, at).trim().toLowerCase()] = pair.slice(at + 1).trim();
  }
  return out;
}

const TIER_LAYER: Record<string, Layer> = {
  core: 'etched',
  active: 'inscribed',
  working: 'inscribed',
  'archive-candidate': 'traced',
  archived: 'traced',
};
const TIER_CONFIDENCE: Record<string, number> = { core: 0.9, active: 0.8, working: 0.6, 'archive-candidate': 0.4, archived: 0.3 };

const SECTION_KIND: Array<[RegExp, string]> = [
  [/invariant/i, 'Invariant'],
  [/decision/i, 'Decision'],
  [/open thread|thread/i, 'Thread'],
  [/convention/i, 'Convention'],
  [/stack|tool/i, 'Stack'],
  [/preference/i, 'Preference'],
  [/blueprint/i, 'Blueprint'],
  [/built/i, 'Built'],
];

/** Sections that hold state, not lessons: kept verbatim. */
const STATE_SECTION = /^(project state|team|members|team \/ members)$/i;

export function readContinuity(text: string, ctx: ReadContext): SourceReading {
  const o = outline(text);
  const parts: SourcePart[] = [];
  const n = o.lines.length;
  let section: string | null = null;
  for (let i = 0; i < n; ) {
    const level = headingLevel(o, i);
    if (level > 0 && level <= 2) {
      section = level === 2 ? headingText(o.lines[i]?.text ?? '') : null;
      pushPart(parts, { type: 'verbatim', line: i + 1, raw: textOf(o, i, i + 1), why: 'heading' });
      i++;
      continue;
    }
    const plainSection = section?.replace(/\*.*$/, '').trim() ?? null;
    if (plainSection === null || STATE_SECTION.test(plainSection) || !isTopItem(o, i)) {
      const why =
        plainSection === null
          ? 'text before the first section'
          : STATE_SECTION.test(plainSection)
            ? `${plainSection}: state, not lessons`
            : blankAt(o, i)
              ? 'blank'
              : 'prose between facts';
      pushPart(parts, { type: 'verbatim', line: i + 1, raw: textOf(o, i, i + 1), why });
      i++;
      continue;
    }
    const end = itemEnd(o, i, n);
    const raw = textOf(o, i, end);
    const { text: body, checked } = itemBody(o, i, end);
    const footer = readFooter(raw);
    // The footer is metadata, on a line of its own or at the end of the fact's line: it leaves the text.
    const learning = body
      .replace(/^[ \t]*<!--\s*id\s*:[^>]*-->[ \t]*$/gm, '')
      .replace(/[ \t]*<!--\s*id\s*:[^>]*-->/g, '')
      .replace(/\n+$/, '')
      .trimEnd();
    const tier = footer?.tier?.toLowerCase() ?? '';
    const invariant = /invariant/i.test(plainSection);
    const layer: Layer = invariant ? 'etched' : (TIER_LAYER[tier] ?? 'inscribed');
    const kind = SECTION_KIND.find(([re]) => re.test(plainSection))?.[1] ?? 'Fact';
    const extra: Array<[string, string]> = [];
    if (tier) extra.push(['tier', tier]);
    if (footer?.uses) extra.push(['uses', footer.uses]);
    if (footer?.origin) extra.push(['origin', footer.origin]);
    if (checked !== null) extra.push(['thread', checked ? 'done' : 'open']);
    const id = footer?.id && isValidId(footer.id) ? footer.id : undefined;
    const created = parseIsoDate(footer?.created ?? '') ?? '';
    const lastUsed = parseIsoDate(footer?.last_used ?? '') ?? '';
    parts.push({
      type: 'entry',
      line: i + 1,
      raw,
      entry: draftEntry(
        {
          title: titleFrom(learning),
          kind,
          learning,
          layer,
          confidence: TIER_CONFIDENCE[tier] ?? (invariant ? 0.9 : 0.7),
          date: created || latestDay(learning, ctx.fileDay),
          verified: lastUsed || created,
          evidence: evidenceAt(ctx, i + 1, `continuity.md, ${plainSection}${id ? ` (${id})` : ''}`),
          supersedes: footer?.supersedes || 'none',
          ...(id ? { id } : {}),
          extra,
        },
        ctx,
      ),
    });
    i = end;
  }
  return { parts, notes: [] };
}
