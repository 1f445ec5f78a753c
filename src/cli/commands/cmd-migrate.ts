// rune-echoes migrate: schema v1 → v2 with ids, and renames of stale names in
// metadata (seed 000 RENAME-2, seed 004), with backups and a full report.
import { checkRenames, parseRenameArgs } from '../../core/adopt/renames.ts';
import { plural } from '../../core/text.ts';
import { migrateStore } from '../../store/adopt/store-migration.ts';
import { type Command, printJson } from '../cli-context.ts';

export const migrateCommand: Command = {
  name: 'migrate',
  access: 'write',
  summary: 'bring every memory file to schema v2 (ids, header) and rename stale agent/concept names in metadata; backups first',
  usage: 'rune-echoes migrate [--rename old=new …] [--dry-run]   (echoes.renames in the config adds more)',
  options: { rename: { type: 'string', multiple: true }, 'dry-run': { type: 'boolean' } },
  run(ctx, values) {
    const flags = Array.isArray(values.rename) ? values.rename : typeof values.rename === 'string' ? [values.rename] : [];
    // The config's map first; a flag for the same old name wins.
    const renames = new Map([...Object.entries(ctx.config.renames), ...parseRenameArgs(flags)]);
    checkRenames(renames);
    const dryRun = values['dry-run'] === true;
    const report = migrateStore(ctx.paths, { renames, dryRun, now: ctx.io.now });
    if (ctx.json) {
      printJson(ctx, report);
      return 0;
    }
    const out: string[] = [`Migrate${dryRun ? ' (dry run: nothing written)' : ''} — schema v2`];
    out.push(renames.size ? `, renames: ${[...renames].map(([a, b]) => `${a} → ${b}`).join(', ')}\n\n` : ', no renames\n\n');
    const changed = report.files.filter((f) => f.changes.length > 0);
    if (changed.length === 0) out.push('Everything is up to date: nothing to change.\n');
    for (const f of report.files) {
      if (f.skipped) {
        out.push(`${f.file}: skipped — ${f.skipped}\n`);
        continue;
      }
      out.push(
        `${f.file}: ${plural(f.changes.length, 'change')}${f.backup ? ` (backup: ${f.backup})` : dryRun ? ' (would back up first)' : ''}\n`,
      );
      for (const c of f.changes) out.push(`  ${c}\n`);
    }
    // The same renames again: those of the config apply by themselves, the flags must be given again.
    const again = ['rune-echoes migrate', ...flags.map((f) => `--rename ${f}`)].join(' ');
    if (changed.length && dryRun) out.push(`\nRun \`${again}\` (without --dry-run) to apply; each file is backed up first.\n`);
    ctx.io.stdout(out.join(''));
    return 0;
  },
};
