// rune-echoes search: ranked search over entries, knowledge, archives, archive
// logs, EPHEMERAL.md and docs/solutions, through the on-disk index.
import { isLayer } from '../../core/entry/echo-entry.ts';
import { EchoesError } from '../../core/errors.ts';
import { staleNote } from '../../core/lifecycle/evidence-staleness.ts';
import { usageKey } from '../../core/lifecycle/usage-events.ts';
import type { DocKind } from '../../core/recall/search-segment.ts';
import { quoteInput } from '../../core/text.ts';
import { assertSafeName } from '../../store/fs/echo-paths.ts';
import { isNotWritable } from '../../store/fs/fs-errors.ts';
import { ensureStoreIgnored } from '../../store/gitignore.ts';
import { roleSummaries } from '../../store/memory/entry-cache.ts';
import { staleFromStore } from '../../store/memory/evidence-changes.ts';
import { searchMemory, searchTerms } from '../../store/recall/search-index.ts';
import { flushEndedSessions } from '../../store/session/session-recovery.ts';
import { scanSessions } from '../../store/session/session-state.ts';
import { type Command, printJson, stringOpt } from '../cli-context.ts';

const KINDS: readonly DocKind[] = ['entry', 'log', 'solution'];

/** `--since 2026-01-31` or `--since 30d` (days before today) → days since 1970. */
export function sinceDay(raw: string, now: Date): number {
  const rel = /^(\d{1,5})d$/.exec(raw);
  if (rel) return Math.floor(now.getTime() / 86_400_000) - Number(rel[1]);
  // A real calendar day (no 2026-02-30 rolling into March), 1970-01-01 included.
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw.trim());
  const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : Number.NaN;
  if (!m || !Number.isFinite(ms) || new Date(ms).toISOString().slice(0, 10) !== raw.trim())
    throw new EchoesError('bad-argument', `--since takes a date like 2026-01-31 or a number of days like 30d, got "${quoteInput(raw)}"`);
  return Math.max(0, Math.floor(ms / 86_400_000));
}

export const searchCommand: Command = {
  name: 'search',
  freeText: true,
  summary: 'ranked search over entries, knowledge, archives, archive logs and docs/solutions',
  usage: 'rune-echoes search <words…> [--role R] [--layer L] [--kind entry|log|solution] [--since 2026-01-31|30d] [--limit 10] [--json]',
  options: {
    role: { type: 'string' },
    layer: { type: 'string' },
    kind: { type: 'string' },
    since: { type: 'string' },
    limit: { type: 'string' },
  },
  async run(ctx, values, _positionals, text) {
    const query = text.trim();
    if (!query) throw new EchoesError('bad-argument', 'search needs some words, e.g. rune-echoes search retry backoff');
    const role = stringOpt(values, 'role');
    if (role) assertSafeName(role, 'role');
    const layer = stringOpt(values, 'layer');
    if (layer !== undefined && !isLayer(layer))
      throw new EchoesError('bad-argument', `--layer must be etched, inscribed or traced, got "${quoteInput(layer)}"`);
    const kindRaw = stringOpt(values, 'kind');
    const kinds = kindRaw === undefined ? undefined : kindRaw.split(',').map((k) => k.trim());
    for (const k of kinds ?? [])
      if (!(KINDS as readonly string[]).includes(k))
        throw new EchoesError(
          'bad-argument',
          `--kind must be entry, log or solution (or several, comma-separated), got "${quoteInput(k)}"`,
        );
    const sinceRaw = stringOpt(values, 'since');
    const since = sinceRaw === undefined ? undefined : sinceDay(sinceRaw, ctx.io.now);
    const limitRaw = stringOpt(values, 'limit') ?? '10';
    const limit = /^\d{1,4}$/.test(limitRaw.trim()) ? Number(limitRaw) : Number.NaN;
    if (!Number.isInteger(limit) || limit < 1 || limit > 200)
      throw new EchoesError('bad-argument', `--limit must be a whole number from 1 to 200, got "${quoteInput(String(limitRaw))}"`);
    // Refused before anything is written.
    searchTerms(query);
    // Sessions that ended since the last start still hold their last span: archive it first, so it is found.
    try {
      await flushEndedSessions(ctx.paths, scanSessions(ctx.paths, ''), ctx.io.now);
    } catch (err) {
      // A store this user cannot write still answers; the final logs wait for someone who can.
      if (!isNotWritable(err)) throw err;
    }
    try {
      ensureStoreIgnored(ctx.paths, ctx.config.versionControlled);
    } catch (err) {
      if (!isNotWritable(err)) throw err;
    }
    const result = await searchMemory(ctx.paths, {
      query,
      limit,
      ...(role ? { role } : {}),
      ...(layer ? { layer } : {}),
      ...(kinds ? { kinds: kinds as DocKind[] } : {}),
      ...(since !== undefined ? { sinceDay: since } : {}),
    });
    // Entries whose evidence changed since they were verified are marked (SPEC §8).
    let stale = new Map<string, string>();
    if (result.hits.some((h) => h.id && h.role && h.source === 'memory')) {
      const summaries = await roleSummaries(ctx.paths);
      stale = await staleFromStore(
        ctx.paths,
        summaries.flatMap((r) => r.entries.map((entry) => ({ role: r.role, entry }))),
      );
    }
    const hits = result.hits.map((h) => {
      const since = h.id && h.role && h.source === 'memory' ? stale.get(usageKey(h.role, h.id)) : undefined;
      return since ? { ...h, staleSince: since } : h;
    });
    if (ctx.json) {
      printJson(ctx, { query, terms: result.terms, hits, index: result.index });
      return 0;
    }
    const note = result.index.stale ? '(the index is being updated by another process: the newest changes may be missing)\n' : '';
    if (result.hits.length === 0) {
      ctx.io.stdout(`no matches for "${query}"\n${note}`);
      return 0;
    }
    const out = hits.map((h, i) => {
      const what = [h.source === 'memory' ? 'entry' : h.source, h.role, h.teammate ? "a teammate's" : '', h.layer, h.date, h.status]
        .filter(Boolean)
        .join(' · ');
      const stale = 'staleSince' in h && h.staleSince ? ` ${staleNote(h.staleSince)}` : '';
      return `${i + 1}. ${h.title}${h.id ? `  [${h.id}]` : ''}${stale}\n   ${h.at} · ${what} · score ${h.score.toFixed(2)}\n   ${h.snippet}\n`;
    });
    ctx.io.stdout(out.join('') + note);
    return 0;
  },
};
