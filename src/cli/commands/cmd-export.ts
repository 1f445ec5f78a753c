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
  summary:
    'write etched (or chosen) entries into a marked section of CLAUDE.md or into Claude Code auto memory; a re-run updates it, --role only that role’s part, --remove takes it away',
  usage: 'rune-echoes export --to claude-md|auto-memory [id…] [--role R] [--layer etched] [--remove] [--dry-run]',
  options: {
    to: { type: 'string' },
    role: { type: 'string' },
    layer: { type: 'string' },
    remove: { type: 'boolean' },
    'dry-run': { type: 'boolean' },
  },
  run(ctx, values, positionals) {
    const to = stringOpt(values, 'to');
    if (!to || !(TARGETS as readonly string[]).includes(to)) {
      throw new EchoesError('bad-argument', `export needs --to claude-md or --to auto-memory${to ? `, got ${JSON.stringify(to)}` : ''}`);
    }
    const role = stringOpt(values, 'role');
    if (role !== undefined) assertSafeName(role, 'role');
    const dryRun = values['dry-run'] === true;
    const remove = values.remove === true;
    if (remove && positionals.length)
      throw new EchoesError('bad-argument', 'export --remove takes no ids: it removes the export (of --role R)');
    const report = exportMemory(ctx.paths, ctx.config, {
      to: to as ExportTarget,
      ...(role === undefined ? {} : { role }),
      layer: layerOption(stringOpt(values, 'layer'), 'etched'),
      ids: positionals,
      remove,
      dryRun,
      now: ctx.io.now,
      home: ctx.io.env.HOME || homedir(),
      configDir: claudeConfigDir(ctx.io.env.HOME || homedir(), ctx.io.env),
    });
    if (ctx.json) {
      printJson(ctx, report);
      return 0;
    }
    const out = [
      remove
        ? `Export to ${to} removed${role === undefined ? '' : ` for role ${role}`}${dryRun ? ' (dry run: nothing written)' : ''}\n`
        : `Export to ${to}${dryRun ? ' (dry run: nothing written)' : ''} — ${plural(report.entries.length, 'entry', 'entries')}\n`,
    ];
    for (const e of report.entries) out.push(`  ${e.role}/${e.id}  ${e.title}\n`);
    for (const f of report.files) out.push(`${dryRun && f.action !== 'unchanged' ? `would be ${f.action}` : f.action}: ${f.file}\n`);
    if (remove && report.files.length === 0) out.push('Nothing export wrote was there.\n');
    if (!remove && report.entries.length === 0)
      out.push(
        'No entry chosen, so the earlier export stays as it was: export takes etched entries by default (--layer, or ids, choose others; --remove takes an export away).\n',
      );
    ctx.io.stdout(out.join(''));
    return 0;
  },
};
