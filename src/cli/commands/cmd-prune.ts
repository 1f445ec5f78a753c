// rune-echoes prune: run the lifecycle rules now (SPEC §5).
import { pruneRole } from '../../store/memory/role-pruning.ts';
import { readUsage } from '../../store/usage/usage-log.ts';
import { type Command, printJson, stringOpt, targetRoles } from '../cli-context.ts';

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
        })),
      });
      return 0;
    }
    const out: string[] = [];
    for (const r of reports) {
      const moves = r.plan.archive.length + r.plan.compress.length;
      if (moves === 0) {
        out.push(`${r.role}: ${r.linesBefore}/${ctx.config.memoryMaxLines} lines, nothing to prune\n`);
        continue;
      }
      out.push(`${r.role}: ${r.linesBefore} → ${r.plan.linesAfter} lines${dryRun ? ' (dry run: nothing moved)' : ''}\n`);
      for (const id of r.plan.archive) out.push(`  ${dryRun ? 'would archive' : 'archived'}  ${id} — ${r.plan.reasons.get(id) ?? ''}\n`);
      for (const id of r.plan.compress)
        out.push(`  ${dryRun ? 'would compress' : 'compressed'} ${id} → knowledge.md — ${r.plan.reasons.get(id) ?? ''}\n`);
      if (r.plan.overLimit) out.push('  still over the limit: only etched entries are left (remove some with rune-echoes forget)\n');
    }
    ctx.io.stdout(out.join('') || 'No roles yet.\n');
    return 0;
  },
};
