// rune-echoes export: etched (or chosen) entries into a marked section of
// CLAUDE.md or into Claude Code auto memory, updated in place on a re-run.
import { homedir } from 'node:os';
import { EchoesError } from '../../core/errors.ts';
import { plural } from '../../core/text.ts';
import { type ExportTarget, exportMemory } from '../../store/adopt/memory-export.ts';
import { claudeConfigDir } from '../../store/adopt/memory-sources.ts';
import { assertSafeName } from '../../store/fs/echo-paths.ts';
import { type Command, printJson, stringOpt } from '../cli-context.ts';
import { layerOption } from '../entry-options.ts';

const TARGETS: readonly ExportTarget[] = ['claude-md', 'auto-memory'];

export const exportCommand: Command = {
  name: 'export',
  access: 'write',
  summary: 'write etched (or chosen) entries into a marked section of CLAUDE.md or into Claude Code auto memory; a re-run updates it',
  usage: 'rune-echoes export --to claude-md|auto-memory [id…] [--role R] [--layer etched] [--dry-run]',
  options: { to: { type: 'string' }, role: { type: 'string' }, layer: { type: 'string' }, 'dry-run': { type: 'boolean' } },
  run(ctx, values, positionals) {
    const to = stringOpt(values, 'to');
    if (!to || !(TARGETS as readonly string[]).includes(to)) {
      throw new EchoesError('bad-argument', `export needs --to claude-md or --to auto-memory${to ? `, got ${JSON.stringify(to)}` : ''}`);
    }
    const role = stringOpt(values, 'role');
    if (role !== undefined) assertSafeName(role, 'role');
    const dryRun = values['dry-run'] === true;
    const report = exportMemory(ctx.paths, ctx.config, {
      to: to as ExportTarget,
      ...(role === undefined ? {} : { role }),
      layer: layerOption(stringOpt(values, 'layer'), 'etched'),
      ids: positionals,
      dryRun,
      now: ctx.io.now,
      home: ctx.io.env.HOME || homedir(),
      configDir: claudeConfigDir(ctx.io.env.HOME || homedir(), ctx.io.env),
    });
    if (ctx.json) {
      printJson(ctx, report);
      return 0;
    }
    const out = [`Export to ${to}${dryRun ? ' (dry run: nothing written)' : ''} — ${plural(report.entries.length, 'entry', 'entries')}\n`];
    for (const e of report.entries) out.push(`  ${e.role}/${e.id}  ${e.title}\n`);
    for (const f of report.files) out.push(`${dryRun && f.action !== 'unchanged' ? `would be ${f.action}` : f.action}: ${f.file}\n`);
    if (report.entries.length === 0)
      out.push('No entry chosen: export takes etched entries by default (--layer, or ids, choose others).\n');
    ctx.io.stdout(out.join(''));
    return 0;
  },
};
