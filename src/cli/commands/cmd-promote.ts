// rune-echoes promote: an etched entry becomes docs/solutions/<category>/<slug>.md (SPEC §11).
import { EchoesError } from '../../core/errors.ts';
import { usageKey } from '../../core/lifecycle/usage-events.ts';
import { canonicalEntryText, formatEchoRef } from '../../core/remembrance/echo-ref.ts';
import { planPromotion } from '../../core/remembrance/promotion.ts';
import { isSolutionCategory, SOLUTION_CATEGORIES } from '../../core/remembrance/solution-doc.ts';
import { sanitizeEntry } from '../../core/security/entry-sanitize.ts';
import { filterSecrets } from '../../core/security/secret-filter.ts';
import { findEntry } from '../../store/memory/find-entry.ts';
import { entryHash, listSolutions, writeSolution } from '../../store/remembrance/solution-files.ts';
import { readUsage } from '../../store/usage/usage-log.ts';
import { type Command, printJson, stringOpt } from '../cli-context.ts';

export const promoteCommand: Command = {
  name: 'promote',
  summary: 'turn an etched entry into a docs/solutions document (security needs --verified-by human, from the user)',
  usage:
    'rune-echoes promote <role/MEMORY.md#id | role#id | id> --category C [--symptom …] [--root-cause …] [--solution …] [--verified-by human|agent] [--json]',
  options: {
    category: { type: 'string' },
    symptom: { type: 'string' },
    'root-cause': { type: 'string' },
    solution: { type: 'string' },
    'verified-by': { type: 'string' },
  },
  run(ctx, values, positionals) {
    if (positionals.length !== 1)
      throw new EchoesError(
        'bad-argument',
        'promote takes one entry reference, e.g. rune-echoes promote reviewer#n-plus-one --category performance',
      );
    const category = stringOpt(values, 'category');
    if (category === undefined || !isSolutionCategory(category)) {
      throw new EchoesError(
        'bad-argument',
        `--category must be one of ${SOLUTION_CATEGORIES.join(', ')}${category ? `, got ${JSON.stringify(category)}` : ''}`,
      );
    }
    // `human` only when it was typed: nothing defaults to it (SPEC §11).
    const verifiedRaw = stringOpt(values, 'verified-by') ?? 'agent';
    if (verifiedRaw !== 'human' && verifiedRaw !== 'agent')
      throw new EchoesError('bad-argument', `--verified-by must be human or agent, got ${JSON.stringify(verifiedRaw)}`);
    const { role, entry: stored } = findEntry(ctx.paths, positionals[0]!);
    const entry = sanitizeEntry(stored, ctx.config.ignore).entry;
    const clean = (key: string) => {
      const v = stringOpt(values, key);
      return v === undefined ? undefined : filterSecrets(v).text;
    };
    // Sessions that used it (SPEC §11 "referenced by 2+ sessions"): being injected is not validation.
    // Compacted history counts once per folded event.
    const key = usageKey(role, stored.id);
    const usedBy = new Set<string>();
    let carried = 0;
    for (const e of readUsage(ctx.paths)) {
      if (e.event !== 'used' || !(e.ids.includes(key) || e.ids.includes(stored.id))) continue;
      if (e.count !== undefined) carried += e.count;
      else usedBy.add(e.session);
    }
    const referencedSessions = usedBy.size + carried;
    const echoRef = formatEchoRef(role, stored.id, entryHash(canonicalEntryText(stored)));
    const plan = planPromotion({
      entry,
      role,
      category,
      given: { symptom: clean('symptom'), rootCause: clean('root-cause'), solution: clean('solution') },
      verifiedBy: verifiedRaw,
      referencedSessions,
      existing: listSolutions(ctx.paths).map((s) => ({ path: s.path, doc: s.doc })),
      echoRef,
      today: ctx.io.now.toISOString().slice(0, 10),
    });
    if (!plan.ok) throw new EchoesError('refused', `promote refused (${plan.rule}): ${plan.message}`);
    const path = writeSolution(ctx.paths, category, plan.slug, plan.text);
    if (ctx.json) printJson(ctx, { path, role, id: stored.id, echoRef, frontmatter: plan.frontmatter });
    else
      ctx.io.stdout(
        `promoted ${role}#${stored.id} → ${path} (verified_by: ${verifiedRaw}, confidence: ${plan.frontmatter.confidence})\necho_ref: ${echoRef}\n`,
      );
    return 0;
  },
};
