// rune-echoes forget: move an entry to archive/forgotten.md with a tombstone.

import { pickOneEntry } from '../../core/entry/entry-ids.ts';
import { EchoesError } from '../../core/errors.ts';
import { quoteInput } from '../../core/text.ts';
import { assertSafeName } from '../../store/fs/echo-paths.ts';
import { readAllEntries } from '../../store/memory/memory-files.ts';
import { forgetEntry } from '../../store/memory/role-edits.ts';
import { type Command, printJson, stringOpt } from '../cli-context.ts';

export const forgetCommand: Command = {
  name: 'forget',
  access: 'write',
  summary: 'move an entry to the archive with a tombstone (it will not come back)',
  usage: 'rune-echoes forget <id or a unique start of one> [--role R] [--yes]   (an etched entry needs --yes)',
  options: { role: { type: 'string' }, yes: { type: 'boolean' } },
  run(ctx, values, positionals) {
    const typed = positionals[0];
    if (!typed || positionals.length > 1) throw new EchoesError('bad-argument', 'forget takes exactly one entry id (see rune-echoes show)');
    const roleOpt = stringOpt(values, 'role');
    if (roleOpt) assertSafeName(roleOpt, 'role');
    const all = readAllEntries(ctx.paths)
      .roles.filter((r) => roleOpt === undefined || r.role === roleOpt)
      .flatMap((r) => r.entries.map((entry) => ({ role: r.role, entry })));
    // The id, or a unique prefix of one.
    const { role, entry: named } = pickOneEntry(all, typed, 'forget');
    const id = named.id;
    // Etched is permanent project knowledge: only the user removes it, and says so (as `reset` asks).
    if (named.layer === 'etched' && values.yes !== true) {
      if (ctx.json) printJson(ctx, { role, id, title: named.title, layer: 'etched', wouldForget: true, done: false });
      else
        ctx.io.stdout(
          `would forget ${role}/${id} ("${named.title}"), an etched entry (permanent project knowledge); if the user wants it gone, run again with --yes\n`,
        );
      return 0;
    }
    const entry = forgetEntry(ctx.paths, role, id, ctx.io.now);
    if (!entry) throw new EchoesError('not-found', `entry "${quoteInput(id)}" disappeared from ${role} meanwhile; nothing changed`);
    if (ctx.json) printJson(ctx, { role, id, title: entry.title, archivedTo: `${role}/archive/forgotten.md` });
    else ctx.io.stdout(`forgot ${role}/${id} ("${entry.title}"); kept in ${role}/archive/forgotten.md\n`);
    return 0;
  },
};
