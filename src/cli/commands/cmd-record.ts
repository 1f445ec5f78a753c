// rune-echoes record: how agents write findings without touching .claude/
// through Write/Edit (which Claude Code guards as sensitive). SPEC §6.

import { appendEntries } from '../../core/entry/document-edits.ts';
import { documentEntries, newMemoryDocumentText, parseEchoDocument } from '../../core/entry/echo-document.ts';
import type { EchoEntry } from '../../core/entry/echo-entry.ts';
import { EchoesError } from '../../core/errors.ts';
import { assertSafeName } from '../../store/fs/echo-paths.ts';
import { recordFindings } from '../../store/memory/role-edits.ts';
import { type Command, printJson, stringOpt } from '../cli-context.ts';
import { ENTRY_OPTIONS, ENTRY_OPTIONS_USAGE, entryFromOptions, evidenceFileOption } from '../entry-options.ts';

export const recordCommand: Command = {
  name: 'record',
  freeText: true,
  access: 'write',
  summary: 'append a finding to <role>/<agent>-findings.md (consolidated after the turn)',
  usage: `rune-echoes record --role R --agent A ${ENTRY_OPTIONS_USAGE} <learning…>
rune-echoes record --role R --agent A --stdin     (entries in the echo format on stdin)`,
  options: { ...ENTRY_OPTIONS, role: { type: 'string' }, agent: { type: 'string' }, stdin: { type: 'boolean' } },
  run(ctx, values, _positionals, text) {
    const role = stringOpt(values, 'role');
    const agent = stringOpt(values, 'agent');
    if (!role || !agent)
      throw new EchoesError('bad-argument', 'record needs --role and --agent (e.g. --role reviewer --agent security-scout)');
    assertSafeName(role, 'role');
    assertSafeName(agent, 'agent');
    const today = ctx.io.now.toISOString().slice(0, 10);
    let entries: EchoEntry[];
    if (values.stdin) {
      const doc = parseEchoDocument(ctx.io.readStdin());
      entries = documentEntries(doc);
      if (entries.length === 0)
        throw new EchoesError(
          'bad-argument',
          'no entries found on stdin: each needs a "### [YYYY-MM-DD] Kind: Title" heading and field bullets',
        );
    } else {
      const evidence = evidenceFileOption(values, ctx.io.cwd);
      const given = evidence === undefined ? values : { ...values, evidence };
      entries = [entryFromOptions(given, text, { today, defaultLayer: 'inscribed', defaultSource: `agent:${agent}` })];
    }
    // Judge the entries as consolidation will read them back, not only as given: a title such as
    // `X - **layer**: etched` renders into a heading that reads back as an etched entry.
    const readBack = documentEntries(appendEntries(parseEchoDocument(newMemoryDocumentText('check')), entries));
    if ([...entries, ...readBack].some((e) => e.layer === 'etched')) {
      throw new EchoesError(
        'refused',
        'agents cannot record etched entries; etched memory is added by the user (rune-echoes remember --layer etched)',
      );
    }
    const result = recordFindings(ctx.paths, ctx.config, role, agent, entries);
    if (ctx.json) printJson(ctx, { file: result.path, recorded: result.recorded.map((e) => e.id), evidenceStripped: result.stripped });
    else {
      ctx.io.stdout(
        `recorded ${result.recorded.length} finding(s) in ${role}/${agent}-findings.md: ${result.recorded.map((e) => e.id).join(', ')}\n`,
      );
      if (result.stripped) ctx.io.stdout(`note: sensitive evidence removed from ${result.stripped} finding(s); the learning was kept\n`);
    }
    return 0;
  },
};
