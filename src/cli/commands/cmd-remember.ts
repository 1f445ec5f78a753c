// rune-echoes remember: the user adds an entry directly. Etched only when asked.

import { assertSafeName } from '../../store/fs/echo-paths.ts';
import { rememberEntry } from '../../store/memory/role-edits.ts';
import { type Command, printJson, stringOpt } from '../cli-context.ts';
import { ENTRY_OPTIONS, ENTRY_OPTIONS_USAGE, entryFromOptions, evidenceFileOption } from '../entry-options.ts';

/** Past this many characters a lesson is stored whole but the user is told how it will be shown. */
const LONG_LESSON = 1000;

export const rememberCommand: Command = {
  name: 'remember',
  freeText: true,
  access: 'write',
  summary: "add an entry to a role's MEMORY.md (etched only with --layer etched)",
  usage: `rune-echoes remember <text…> [--role team] ${ENTRY_OPTIONS_USAGE}`,
  options: { ...ENTRY_OPTIONS, role: { type: 'string' } },
  run(ctx, values, _positionals, text) {
    const role = assertSafeName(stringOpt(values, 'role') ?? 'team', 'role');
    const today = ctx.io.now.toISOString().slice(0, 10);
    // The user said so: a remembered lesson starts with high confidence.
    const evidence = evidenceFileOption(values, ctx.io.cwd);
    const entry = entryFromOptions(evidence === undefined ? values : { ...values, evidence }, text, {
      today,
      defaultLayer: 'inscribed',
      defaultSource: 'user',
      defaultConfidence: 0.9,
    });
    const report = rememberEntry(ctx.paths, ctx.config, role, entry);
    const id = report.id;
    if (ctx.json)
      printJson(ctx, {
        role,
        id,
        action: report.appended.length ? 'added' : report.updated.length ? 'updated' : 'unchanged',
        layer: report.layer,
      });
    else {
      ctx.io.stdout(`${report.appended.length ? 'remembered' : 'already known, refreshed'} ${role}/${id} (${report.layer})\n`);
      if (entry.learning.length > LONG_LESSON)
        ctx.io.stdout(
          `note: the lesson is ${entry.learning.length.toLocaleString('en-US')} characters long; it is stored whole in ${role}/MEMORY.md, and the digest and show give only its start. A lesson of a sentence or two is recalled best.\n`,
        );
    }
    return 0;
  },
};
