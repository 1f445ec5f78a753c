// rune-echoes search: ranked search over entries, knowledge, archives, archive logs and solutions.
import { EchoesError } from '../../core/errors.ts';
import { searchDocs } from '../../core/recall/text-search.ts';
import { quoteInput } from '../../core/text.ts';
import { assertSafeName } from '../../store/fs/echo-paths.ts';
import { searchCorpus } from '../../store/recall/search-corpus.ts';
import { flushEndedSessions } from '../../store/session/session-recovery.ts';
import { scanSessions } from '../../store/session/session-state.ts';
import { type Command, printJson, stringOpt } from '../cli-context.ts';

export const searchCommand: Command = {
  name: 'search',
  freeText: true,
  summary: 'ranked search over entries, knowledge, archives, archive logs and docs/solutions',
  usage: 'rune-echoes search <words…> [--role R] [--limit 10] [--json]',
  options: { role: { type: 'string' }, limit: { type: 'string' } },
  async run(ctx, values, _positionals, text) {
    const query = text.trim();
    if (!query) throw new EchoesError('bad-argument', 'search needs some words, e.g. rune-echoes search retry backoff');
    const role = stringOpt(values, 'role');
    if (role) assertSafeName(role, 'role');
    const limitRaw = stringOpt(values, 'limit') ?? '10';
    const limit = Number(limitRaw);
    if (!Number.isInteger(limit) || limit < 1 || limit > 200)
      throw new EchoesError('bad-argument', `--limit must be a whole number from 1 to 200, got "${quoteInput(String(limitRaw))}"`);
    // Sessions that ended since the last start still hold their last span: archive it first, so it is found.
    await flushEndedSessions(ctx.paths, scanSessions(ctx.paths, ''), ctx.io.now);
    const hits = searchDocs(searchCorpus(ctx.paths, role), query, limit);
    if (ctx.json) {
      printJson(ctx, { query, hits });
      return 0;
    }
    if (hits.length === 0) {
      ctx.io.stdout(`no matches for "${query}"\n`);
      return 0;
    }
    const out = hits.map((h, i) => `${i + 1}. [${h.kind}] ${h.title}\n   ${h.ref}${h.date ? ` · ${h.date}` : ''}\n   ${h.snippet}\n`);
    ctx.io.stdout(out.join(''));
    return 0;
  },
};
