// rune-echoes forget: move an entry to archive/forgotten.md with a tombstone.
import { EchoesError } from '../../core/errors.ts';
import { quoteInput } from '../../core/text.ts';
import { assertSafeName } from '../../store/fs/echo-paths.ts';
import { readAllEntries } from '../../store/memory/memory-files.ts';
import { forgetEntry } from '../../store/memory/role-edits.ts';
import { type Command, printJson, stringOpt } from '../cli-context.ts';

export const forgetCommand: Command = {
  name: 'forget',
  summary: 'move an entry to the archive with a tombstone (it will not come back)',
  usage: 'rune-echoes forget <id> [--role R]',
  options: { role: { type: 'string' } },
  run(ctx, values, positionals) {
    const id = positionals[0];
    if (!id || positionals.length > 1) throw new EchoesError('bad-argument', 'forget takes exactly one entry id (see rune-echoes show)');
    const roleOpt = stringOpt(values, 'role');
    if (roleOpt) assertSafeName(roleOpt, 'role');
    const holders = readAllEntries(ctx.paths)
      .roles.filter((r) => (roleOpt === undefined || r.role === roleOpt) && r.entries.some((e) => e.id === id))
      .map((r) => r.role);
    if (holders.length === 0)
      throw new EchoesError('not-found', `no entry "${quoteInput(id)}"${roleOpt ? ` in ${roleOpt}` : ''}; list ids with rune-echoes show`);
    if (holders.length > 1)
      throw new EchoesError('bad-argument', `"${quoteInput(id)}" exists in ${holders.join(' and ')}; add --role to choose`);
    const role = holders[0]!;
    const entry = forgetEntry(ctx.paths, role, id, ctx.io.now);
    if (!entry) throw new EchoesError('not-found', `entry "${quoteInput(id)}" disappeared from ${role} meanwhile; nothing changed`);
    if (ctx.json) printJson(ctx, { role, id, title: entry.title, archivedTo: `${role}/archive/forgotten.md` });
    else ctx.io.stdout(`forgot ${role}/${id} ("${entry.title}"); kept in ${role}/archive/forgotten.md\n`);
    return 0;
  },
};
