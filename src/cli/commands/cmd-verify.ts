// rune-echoes verify: re-stamps an entry's `verified` day after a person (or
// the memory-auditor's report) checked it against the code. An entry whose
// evidence changed since it was verified is shown as stale and has no recency
// until this runs (SPEC §8).

import { pickOneEntry } from '../../core/entry/entry-ids.ts';
import { EchoesError } from '../../core/errors.ts';
import { citedFiles, staleSince } from '../../core/lifecycle/evidence-staleness.ts';
import { usageKey } from '../../core/lifecycle/usage-events.ts';
import { quoteInput } from '../../core/text.ts';
import { assertSafeName } from '../../store/fs/echo-paths.ts';
import { changeDays } from '../../store/memory/evidence-changes.ts';
import { readAllEntries } from '../../store/memory/memory-files.ts';
import { verifyEntry } from '../../store/memory/role-edits.ts';
import { dropStaleEntry } from '../../store/memory/stale-entries.ts';
import { type Command, printJson, stringOpt } from '../cli-context.ts';

export const verifyCommand: Command = {
  name: 'verify',
  access: 'write',
  summary: "re-stamp an entry's verified date after checking it against the code",
  usage: 'rune-echoes verify <id or a unique start of one> [--role R] [--json]',
  options: { role: { type: 'string' } },
  async run(ctx, values, positionals) {
    const typed = positionals[0];
    if (!typed || positionals.length > 1) throw new EchoesError('bad-argument', 'verify takes exactly one entry id (see rune-echoes show)');
    const roleOpt = stringOpt(values, 'role');
    if (roleOpt) assertSafeName(roleOpt, 'role');
    const all = readAllEntries(ctx.paths)
      .roles.filter((r) => roleOpt === undefined || r.role === roleOpt)
      .flatMap((r) => r.entries.map((entry) => ({ role: r.role, entry })));
    const { role, entry: named } = pickOneEntry(all, typed, 'verify');
    const wasStale = staleSince(named, await changeDays(ctx.paths, citedFiles(named), named.verified || named.date || '0000-00-00'));
    const done = verifyEntry(ctx.paths, role, named.id, ctx.io.now);
    if (!done) throw new EchoesError('not-found', `entry "${quoteInput(named.id)}" disappeared from ${role} meanwhile; nothing changed`);
    // Prompt and subagent recall read the last list of stale entries: this one is no longer among them.
    dropStaleEntry(ctx.paths, usageKey(role, named.id));
    const previous = done.before.verified || null;
    if (ctx.json)
      printJson(ctx, { role, id: named.id, title: named.title, verified: done.verified, previous, wasStale: wasStale !== null });
    else
      ctx.io.stdout(
        `verified ${role}/${named.id} ("${named.title}") on ${done.verified}${previous && previous !== done.verified ? ` (was ${previous})` : ''}${wasStale ? '; its evidence had changed since then, so it was shown as stale until now' : ''}\n`,
      );
    return 0;
  },
};
