// rune-echoes prune: run the lifecycle rules now (SPEC §5).
import { type KnowledgeCompression, pruneRole } from '../../store/memory/role-pruning.ts';
import { readUsage } from '../../store/usage/usage-log.ts';
import { type Command, printJson, stringOpt, targetRoles } from '../cli-context.ts';

/** What knowledge.md compression did or would do: sizes, then one line per topic block. */
function knowledgeLines(k: KnowledgeCompression | null, dryRun: boolean): string[] {
  if (k === null) return [];
  const saving = Math.round((1 - k.tokensAfter / Math.max(1, k.tokensBefore)) * 100);
  const topics = new Map<string, number>();
  for (const b of k.blocks) topics.set(b.topic, (topics.get(b.topic) ?? 0) + b.ids.length);
  return [
    `  knowledge.md ${dryRun ? 'would be compressed' : 'compressed'}: ${k.linesBefore} → ${k.linesAfter} lines, ${k.tokensBefore} → ${k.tokensAfter} tokens (${saving}% fewer), ${k.blocks.length} blocks by topic (originals kept in archive/knowledge-compressed.md)\n`,
    ...[...topics].map(([topic, n]) => `    ${topic}: ${n} entr${n === 1 ? 'y' : 'ies'}\n`),
  ];
}

export const pruneCommand: Command = {
  name: 'prune',
  access: 'write',
  summary: 'archive stale entries of roles over the line limit (--dry-run shows what would move)',
  usage: 'rune-echoes prune [--dry-run] [--role R]',
  options: { 'dry-run': { type: 'boolean' }, role: { type: 'string' } },
  run(ctx, values) {
    const only = stringOpt(values, 'role');
    const roles = targetRoles(ctx, only);
    const events = readUsage(ctx.paths);
    const dryRun = values['dry-run'] === true;
    const reports = roles.map((role) => pruneRole(ctx.paths, ctx.config, role, { now: ctx.io.now, events, dryRun }));
    if (ctx.json) {
      printJson(ctx, {
        dryRun,
        roles: reports.map((r) => ({
          role: r.role,
          linesBefore: r.linesBefore,
          linesAfter: r.plan.linesAfter,
          archive: r.plan.archive,
          compress: r.plan.compress,
          reasons: Object.fromEntries(r.plan.reasons),
          overLimit: r.plan.overLimit,
          knowledge: r.knowledge,
        })),
      });
      return 0;
    }
    const out: string[] = [];
    for (const r of reports) {
      const moves = r.plan.archive.length + r.plan.compress.length;
      if (moves === 0) {
        out.push(`${r.role}: ${r.linesBefore}/${ctx.config.memoryMaxLines} lines, nothing to prune\n`);
        out.push(...knowledgeLines(r.knowledge, dryRun));
        continue;
      }
      out.push(`${r.role}: ${r.linesBefore} → ${r.plan.linesAfter} lines${dryRun ? ' (dry run: nothing moved)' : ''}\n`);
      for (const id of r.plan.archive) out.push(`  ${dryRun ? 'would archive' : 'archived'}  ${id} — ${r.plan.reasons.get(id) ?? ''}\n`);
      for (const id of r.plan.compress)
        out.push(`  ${dryRun ? 'would compress' : 'compressed'} ${id} → knowledge.md — ${r.plan.reasons.get(id) ?? ''}\n`);
      if (r.plan.overLimit) out.push('  still over the limit: only etched entries are left (remove some with rune-echoes forget)\n');
      out.push(...knowledgeLines(r.knowledge, dryRun));
    }
    ctx.io.stdout(out.join('') || 'No roles yet.\n');
    return 0;
  },
};
