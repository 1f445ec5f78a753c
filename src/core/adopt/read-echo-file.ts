// Rune's echoes as Rune really wrote them (no schema header, `## Inscribed —
// …` narratives, `## Observations — …` blocks, `Confidence: LOW`), and any
// file in the echo format: the lossless document model already reads them;
// this reader only turns its blocks into parts and gives entries without
// evidence a pointer back to the block they came from (so two observations
// with the same title stay two entries).

import { documentEntries, parseEchoDocument } from '../entry/echo-document.ts';
import { parseFieldLine } from '../entry/field-syntax.ts';
import { evidenceAt, type ReadContext, type SourcePart, type SourceReading } from './source-reading.ts';

export function readEchoFile(text: string, ctx: ReadContext): SourceReading {
  const doc = parseEchoDocument(text);
  const parts: SourcePart[] = doc.blocks.map((b): SourcePart => {
    const raw = b.text.replace(/^\uFEFF/, '');
    if (b.type === 'verbatim') return { type: 'verbatim', line: b.line, raw, why: 'not an entry (title, notes, separators)' };
    const entry = { ...b.entry, tags: [...b.entry.tags], extra: b.entry.extra.map(([k, v]): [string, string] => [k, v]) };
    // Ids are assigned where the entry lands; a written one is kept.
    if (!entry.idExplicit) entry.id = '';
    if (!entry.evidence) entry.evidence = evidenceAt(ctx, b.line, `${ctx.source} entry`);
    if (!entry.source) entry.source = ctx.source;
    // Consolidated entries carry a range like `(2026-02 to 2026-03)`: the file's day is when they were last written.
    if (!entry.date) entry.date = ctx.fileDay;
    if (!entry.verified) entry.verified = entry.date;
    // `HIGH (4 research agents …)`: the word is kept beside the number, the reason here.
    const basis = confidenceBasis(b.text);
    if (basis && !entry.extra.some(([k]) => k === 'confidence_basis')) entry.extra.push(['confidence_basis', basis]);
    return { type: 'entry', line: b.line, raw, entry };
  });
  const notes = doc.issues.length
    ? [`${ctx.ref}: ${doc.issues.length} entries read leniently (first: line ${doc.issues[0]?.line}, ${doc.issues[0]?.message})`]
    : [];
  return { parts, notes: documentEntries(doc).length ? notes : [] };
}

/** What follows the confidence word or number on a legacy confidence line. */
function confidenceBasis(block: string): string {
  for (const line of block.split(/\r\n|\r|\n/).slice(1, 12)) {
    const f = parseFieldLine(line);
    if (f?.key !== 'confidence') continue;
    const m = /^(?:[A-Za-z]+|[0-9.]+%?)[ \t]*\((.+)\)[ \t]*$/.exec(f.value);
    return m && !/^(low|medium|high)$/i.test(m[1] ?? '') ? (m[1] ?? '').trim() : '';
  }
  return '';
}
