// rune-echoes show: every role's entries with layer, score, age and evidence.
import { isLayer } from '../../core/entry/echo-entry.ts';
import { entryFieldValues } from '../../core/entry/entry-fields.ts';
import { EchoesError } from '../../core/errors.ts';
import { scoreWithIndex } from '../../core/lifecycle/echo-score.ts';
import { retiredEntries } from '../../core/lifecycle/supersession.ts';
import { relevanceIndex, usageKey } from '../../core/lifecycle/usage-events.ts';
import { quoteInput } from '../../core/text.ts';
import { assertSafeName } from '../../store/fs/echo-paths.ts';
import { entriesWithOrigin } from '../../store/memory/entry-origin.ts';
import { staleFromStore } from '../../store/memory/evidence-changes.ts';
import { readAllEntries } from '../../store/memory/memory-files.ts';
import { readUsage } from '../../store/usage/usage-log.ts';
import { type Command, printJson, stringOpt } from '../cli-context.ts';
import { renderShow, type ShowRole } from '../render/render-show.ts';

export const showCommand: Command = {
  name: 'show',
  summary: 'list entries with layer, score, age and evidence; totals per role',
  usage: 'rune-echoes show [role] [--layer etched|inscribed|traced] [--json]',
  options: { layer: { type: 'string' } },
  async run(ctx, values, positionals) {
    const role = positionals[0];
    if (role !== undefined) assertSafeName(role, 'role');
    if (positionals.length > 1) throw new EchoesError('bad-argument', 'show takes at most one role name');
    const layer = stringOpt(values, 'layer');
    if (layer !== undefined && !isLayer(layer))
      throw new EchoesError('bad-argument', `--layer must be etched, inscribed or traced, got "${quoteInput(String(layer))}"`);
    const { roles } = readAllEntries(ctx.paths);
    if (role !== undefined && !roles.some((r) => r.role === role))
      throw new EchoesError(
        'not-found',
        `no memory for role "${quoteInput(role)}" yet (roles: ${roles.map((r) => r.role).join(', ') || 'none'})`,
      );
    const index = relevanceIndex(readUsage(ctx.paths), ctx.config.relevanceWindow);
    // Supersession and staleness look across every role (an entry may retire another role's).
    const items = entriesWithOrigin(ctx.paths, roles);
    const retired = retiredEntries(items);
    const stale = await staleFromStore(ctx.paths, items);
    const picked: ShowRole[] = roles
      .filter((r) => role === undefined || r.role === role)
      .map((r) => {
        const keys = r.entries.map((e) => usageKey(r.role, e.id));
        const scores = scoreWithIndex(r.entries, index, ctx.io.now, { role: r.role, stale: (i) => stale.has(keys[i]!) });
        const rows = r.entries
          .map((entry, i) => {
            const staleDay = stale.get(keys[i]!);
            const by = retired.get(keys[i]!);
            return { entry, score: scores[i]!, ...(staleDay ? { staleSince: staleDay } : {}), ...(by ? { supersededBy: by } : {}) };
          })
          .filter((x) => layer === undefined || x.entry.layer === layer);
        return {
          role: r.role,
          lines: r.lines,
          maxLines: ctx.config.memoryMaxLines,
          verbatimBlocks: r.verbatimBlocks,
          error: r.error,
          rows,
          total: r.entries.length,
        };
      });
    if (ctx.json) {
      printJson(ctx, {
        roles: picked.map((r) => ({
          role: r.role,
          lines: r.lines,
          maxLines: r.maxLines,
          entries: r.total,
          verbatimBlocks: r.verbatimBlocks,
          ...(r.error ? { error: r.error } : {}),
          items: r.rows.map(({ entry, score, staleSince, supersededBy }) => ({
            ...entryFieldValues(entry),
            score: score.score,
            ageDays: score.ageDays,
            injected: score.injected,
            used: score.used,
            ...(staleSince ? { staleSince } : {}),
            ...(supersededBy ? { supersededBy } : {}),
          })),
        })),
      });
    } else ctx.io.stdout(renderShow(picked, layer));
    return 0;
  },
};
