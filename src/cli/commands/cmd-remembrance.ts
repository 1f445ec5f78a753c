// rune-echoes remembrance: list or search the docs/solutions documents (SPEC §11),
// and with --verify check each echo_ref against the entry it came from.
import { isSolutionCategory, SOLUTION_CATEGORIES } from '../../core/remembrance/solution-doc.ts';
import { ensureStoreIgnored } from '../../store/gitignore.ts';
import { searchMemory, searchTerms } from '../../store/recall/search-index.ts';
import { type Drift, listSolutions, type SolutionFile, solutionDrift } from '../../store/remembrance/solution-files.ts';
import { type Command, printJson } from '../cli-context.ts';

const STATE_TEXT: Record<Drift['state'], string> = {
  current: 'entry unchanged since promotion',
  changed: 'entry changed since promotion: review the document',
  vanished: 'entry no longer in memory (forgotten or pruned)',
  'unreadable-ref': 'echo_ref cannot be read',
};

export const remembranceCommand: Command = {
  name: 'remembrance',
  summary: 'list or search docs/solutions documents (--verify: which ones their entry has changed since)',
  usage: `rune-echoes remembrance [category | words…] [--verify] [--json]   (categories: ${SOLUTION_CATEGORIES.join(', ')})`,
  options: { verify: { type: 'boolean' } },
  async run(ctx, values, positionals) {
    const all = listSolutions(ctx.paths);
    const arg = positionals.join(' ').trim();
    let docs: SolutionFile[] = all;
    let mode: 'all' | 'category' | 'search' = 'all';
    if (arg !== '' && positionals.length === 1 && isSolutionCategory(arg)) {
      mode = 'category';
      docs = all.filter((s) => s.doc.category === arg || s.path.startsWith(`docs/solutions/${arg}/`));
    } else if (arg !== '') {
      mode = 'search';
      searchTerms(arg);
      ensureStoreIgnored(ctx.paths, ctx.config.versionControlled);
      const { hits } = await searchMemory(ctx.paths, { query: arg, limit: 50, kinds: ['solution'] });
      const byPath = new Map(all.map((s) => [s.path, s]));
      docs = hits.map((h) => byPath.get(h.path)).filter((s): s is SolutionFile => s !== undefined);
    }
    const drift = values.verify === true ? new Map(solutionDrift(ctx.paths, docs).map((d) => [d.path, d])) : null;
    if (ctx.json) {
      printJson(ctx, {
        ...(mode === 'all' ? {} : mode === 'category' ? { category: arg } : { query: arg }),
        documents: docs.map((s) => ({
          path: s.path,
          title: s.doc.title,
          category: s.doc.category,
          tags: s.doc.tags,
          date: s.doc.date,
          symptom: s.doc.symptom,
          rootCause: s.doc.rootCause,
          solutionSummary: s.doc.solutionSummary,
          confidence: s.doc.confidence,
          verifiedBy: s.doc.verifiedBy,
          echoRef: s.doc.echoRef,
          ...(s.doc.problem ? { problem: s.doc.problem } : {}),
          ...(drift?.get(s.path) ? { state: drift.get(s.path)!.state } : {}),
        })),
      });
      return 0;
    }
    if (docs.length === 0) {
      const where = mode === 'all' ? 'in docs/solutions/ yet (promote an etched entry with rune-echoes promote)' : `for "${arg}"`;
      ctx.io.stdout(`no solution documents ${where}\n`);
      return 0;
    }
    const out: string[] = [];
    const byCategory = new Map<string, SolutionFile[]>();
    for (const s of docs) {
      const cat = s.doc.category || s.path.split('/')[2] || 'uncategorised';
      byCategory.set(cat, [...(byCategory.get(cat) ?? []), s]);
    }
    for (const [cat, list] of mode === 'search' ? [['matches', docs] as const] : [...byCategory].sort(([a], [b]) => (a < b ? -1 : 1))) {
      out.push(`${cat} (${list.length})\n`);
      for (const s of list) {
        const meta = [
          s.doc.date,
          s.doc.confidence && `confidence ${s.doc.confidence}`,
          s.doc.verifiedBy && `verified by ${s.doc.verifiedBy}`,
        ]
          .filter(Boolean)
          .join(' · ');
        out.push(`  ${s.doc.title} — ${s.path}${meta ? ` (${meta})` : ''}\n`);
        if (s.doc.problem) out.push(`    (${s.doc.problem}; its text is still searched)\n`);
        if (s.doc.symptom) out.push(`    symptom: ${s.doc.symptom}\n`);
        if (s.doc.solutionSummary) out.push(`    solution: ${s.doc.solutionSummary}\n`);
        const d = drift?.get(s.path);
        if (d) out.push(`    ${d.state === 'current' ? 'ok' : 'CHECK'}: ${STATE_TEXT[d.state]}\n`);
      }
    }
    if (drift) {
      const stale = [...drift.values()].filter((d) => d.state !== 'current');
      out.push(
        stale.length === 0
          ? `all ${drift.size} promoted documents match their entries\n`
          : `${stale.length} document(s) out of date with their entry\n`,
      );
    }
    ctx.io.stdout(out.join(''));
    return 0;
  },
};
