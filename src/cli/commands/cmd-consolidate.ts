// rune-echoes consolidate: what the Stop hook does, on demand (SPEC §6).

import { plural } from '../../core/text.ts';
import { retirementsByRole } from '../../store/memory/consolidate-all.ts';
import { readAllEntries } from '../../store/memory/memory-files.ts';
import { consolidateRole } from '../../store/memory/role-consolidation.ts';
import { readUsage } from '../../store/usage/usage-log.ts';
import { type Command, printJson, stringOpt, targetRoles } from '../cli-context.ts';

export const consolidateCommand: Command = {
  name: 'consolidate',
  access: 'write',
  summary: "merge agents' findings files into each role's MEMORY.md now (--prune also prunes)",
  usage: 'rune-echoes consolidate [--role R] [--prune]',
  options: { role: { type: 'string' }, prune: { type: 'boolean' } },
  run(ctx, values) {
    const only = stringOpt(values, 'role');
    const roles = targetRoles(ctx, only);
    const prune = values.prune === true;
    const events = prune ? readUsage(ctx.paths) : [];
    // --prune does what happens between sessions: superseded entries leave, and pruning moves a few entries
    // per run as the hooks do (`prune` does the whole plan).
    const retire = prune ? retirementsByRole(readAllEntries(ctx.paths).roles) : new Map<string, Map<string, string>>();
    let maxMoves = ctx.config.prunePerSession;
    const reports = roles.map((role) => {
      const r = consolidateRole(ctx.paths, ctx.config, role, {
        now: ctx.io.now,
        prune,
        events,
        maxMoves,
        ...(retire.has(role) ? { retire: retire.get(role)! } : {}),
      });
      maxMoves -= (r.pruned?.archive.length ?? 0) + (r.pruned?.compress.length ?? 0);
      return r;
    });
    if (ctx.json) {
      printJson(ctx, {
        roles: reports.map((r) => ({
          role: r.role,
          findingsFiles: r.findingsFiles,
          appended: r.appended,
          updated: r.updated,
          linesAfter: r.linesAfter,
          pruned: r.pruned ? [...r.pruned.archive, ...r.pruned.compress] : [],
          superseded: r.retired ?? [],
          keptUnparsed: r.keptUnparsed ?? [],
          forgottenDropped: r.forgottenDropped ?? [],
          setAside: r.setAside ?? [],
        })),
      });
    } else {
      for (const r of reports) {
        const dropped = r.forgottenDropped?.length
          ? `, ${r.forgottenDropped.length} dropped (forgotten earlier: ${r.forgottenDropped.join('; ')})`
          : '';
        ctx.io.stdout(
          `${r.role}: ${plural(r.findingsFiles, 'findings file')}, ${r.appended.length} added, ${r.updated.length} merged${dropped}, ${plural(r.linesAfter, 'line')}\n`,
        );
        if (r.retired?.length) ctx.io.stdout(`  superseded, moved to ${r.role}/archive/superseded.md: ${r.retired.join(', ')}\n`);
        for (const kept of r.keptUnparsed ?? []) ctx.io.stdout(`  a findings file held text that is not an entry: kept as ${kept}\n`);
        for (const aside of r.setAside ?? []) ctx.io.stdout(`  a findings file was not safe to read: moved unread to ${aside}\n`);
      }
      if (reports.length === 0) ctx.io.stdout('No roles yet.\n');
    }
    return 0;
  },
};
