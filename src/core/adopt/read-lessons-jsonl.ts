// ArcheFlow's `.archeflow/memory/lessons.jsonl` (seed 002): one lesson per
// line — id m-NNN, type (pattern, preference, archetype_hint, anti_pattern),
// source archetype, description, frequency, severity, domain, tags. Built from
// the seed's field table (no real file was found in public repositories).
// Lessons seen twice or more (and user preferences) are inscribed; a
// candidate seen once is traced. A line that is not a lesson is kept verbatim
// with a one-line note, and the rest is read.

import { parseIsoDate } from '../entry/field-values.ts';
import { clip, oneLine } from '../text.ts';
import { draftEntry, evidenceAt, pushPart, type ReadContext, type SourcePart, type SourceReading, titleFrom } from './source-reading.ts';

const KIND: Record<string, string> = { pattern: 'Pattern', preference: 'Preference', archetype_hint: 'Hint', anti_pattern: 'Anti-pattern' };

export function readLessonsJsonl(text: string, ctx: ReadContext): SourceReading {
  const parts: SourcePart[] = [];
  const notes: string[] = [];
  const lines = text.split(/(?<=\n)/);
  for (const [k, raw] of lines.entries()) {
    const line = k + 1;
    const body = raw.trim();
    if (body === '') {
      pushPart(parts, { type: 'verbatim', line, raw, why: 'blank' });
      continue;
    }
    let lesson: Record<string, unknown>;
    try {
      const parsed = JSON.parse(body) as unknown;
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not a JSON object');
      lesson = parsed as Record<string, unknown>;
    } catch (err) {
      notes.push(`${ctx.ref}:${line}: not a lesson (${(err instanceof Error ? err.message : String(err)).split('\n')[0]}); skipped`);
      pushPart(parts, { type: 'verbatim', line, raw, why: 'malformed line' });
      continue;
    }
    const str = (key: string) => (typeof lesson[key] === 'string' ? oneLine(lesson[key] as string) : '');
    const description = str('description');
    if (!description) {
      notes.push(`${ctx.ref}:${line}: lesson ${str('id') || '(no id)'} has no description; skipped`);
      pushPart(parts, { type: 'verbatim', line, raw, why: 'lesson without a description' });
      continue;
    }
    const type = str('type') || 'pattern';
    const frequency = Number.isInteger(lesson.frequency) ? (lesson.frequency as number) : 1;
    const preference = type === 'preference';
    const day = parseIsoDate(str('ts').slice(0, 10)) ?? '';
    const tags = [
      ...(Array.isArray(lesson.tags) ? lesson.tags.filter((t): t is string => typeof t === 'string').map(oneLine) : []),
      str('severity'),
      str('domain'),
    ].filter((t) => t !== '');
    const who = str('archetype') || str('source');
    const extra: Array<[string, string]> = [];
    if (str('id')) extra.push(['archeflow_id', str('id')]);
    extra.push(['frequency', String(frequency)]);
    if (str('last_seen_run')) extra.push(['last_seen_run', str('last_seen_run')]);
    parts.push({
      type: 'entry',
      line,
      raw,
      entry: draftEntry(
        {
          title: titleFrom(description),
          kind: KIND[type] ?? 'Pattern',
          learning: description,
          layer: preference || frequency >= 2 ? 'inscribed' : 'traced',
          confidence: preference ? 0.9 : Math.min(9, 4 + frequency) / 10,
          date: day,
          evidence: evidenceAt(ctx, line, `ArcheFlow lesson ${str('id') || ''}, seen ${frequency}×`.replace(' ,', ',')),
          source: clip(`archeflow${who ? ` ${who}` : ''}${str('run_id') ? ` (run ${str('run_id')})` : ''}`, 120),
          tags: [...new Set(tags)],
          extra,
        },
        ctx,
      ),
    });
  }
  return { parts, notes };
}
