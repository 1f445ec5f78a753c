// rune-echoes evidence: what the memory-auditor checks, gathered in the
// caller's session because the auditor has no shell — the entries to audit
// (stale first, then etched, then by score, then the oldest checked), each
// with every file it cites: present or missing, added when, its commits since
// the entry was verified, where a rename took it. Written as a brief the
// auditor Reads (.claude/echoes/.state/briefs/), the newest few kept.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { EchoesError } from '../../core/errors.ts';
import { scoreWithIndex } from '../../core/lifecycle/echo-score.ts';
import { checkedDay, citedFiles } from '../../core/lifecycle/evidence-staleness.ts';
import { retiredEntries } from '../../core/lifecycle/supersession.ts';
import { relevanceIndex, usageKey } from '../../core/lifecycle/usage-events.ts';
import { quoteInput } from '../../core/text.ts';
import { ensureDir, removeFile, writeFileAtomic } from '../../store/fs/atomic-file.ts';
import { assertSafeName, type EchoPaths } from '../../store/fs/echo-paths.ts';
import { isNotWritable } from '../../store/fs/fs-errors.ts';
import { uniqueSuffix } from '../../store/fs/unique-suffix.ts';
import { entriesWithOrigin } from '../../store/memory/entry-origin.ts';
import { staleFromStore } from '../../store/memory/evidence-changes.ts';
import { fileHistories } from '../../store/memory/evidence-history.ts';
import { readAllEntries } from '../../store/memory/memory-files.ts';
import { readUsage } from '../../store/usage/usage-log.ts';
import { type Command, printJson, stringOpt } from '../cli-context.ts';
import { type BriefEntry, briefSummary, renderEvidenceBrief } from '../render/render-evidence.ts';

/** Briefs kept in .state/briefs/: enough for a few sessions auditing at once. */
const KEEP_BRIEFS = 5;

const layerRank = (layer: string): number => (layer === 'etched' ? 0 : 1);

export const evidenceCommand: Command = {
  name: 'evidence',
  summary: "the memory-auditor's brief: entries with their cited files' state and git history since verified",
  usage: 'rune-echoes evidence [role | role#id …] [--limit 40] [--json]',
  options: { limit: { type: 'string' } },
  async run(ctx, values, positionals) {
    const limitRaw = stringOpt(values, 'limit') ?? '40';
    const limit = /^\d{1,4}$/.test(limitRaw.trim()) ? Number(limitRaw) : Number.NaN;
    if (!Number.isInteger(limit) || limit < 1 || limit > 500)
      throw new EchoesError('bad-argument', `--limit must be a whole number from 1 to 500, got "${quoteInput(limitRaw)}"`);
    const { roles } = readAllEntries(ctx.paths);
    const wanted = positionals.map((p) => {
      const [role = '', id] = p.split('#', 2);
      assertSafeName(role, 'role');
      if (!roles.some((r) => r.role === role))
        throw new EchoesError(
          'not-found',
          `no memory for role "${quoteInput(role)}" yet (roles: ${roles.map((r) => r.role).join(', ') || 'none'})`,
        );
      if (id !== undefined && !roles.some((r) => r.role === role && r.entries.some((e) => e.id === id)))
        throw new EchoesError('not-found', `no entry "${quoteInput(p)}"; list ids with rune-echoes show ${role}`);
      return { role, id };
    });
    const picked = (role: string, id: string) =>
      wanted.length === 0 || wanted.some((w) => w.role === role && (w.id === undefined || w.id === id));

    // Staleness and supersession look across every role, as show does.
    const items = entriesWithOrigin(ctx.paths, roles);
    const stale = await staleFromStore(ctx.paths, items);
    const retired = retiredEntries(items);
    const index = relevanceIndex(readUsage(ctx.paths), ctx.config.relevanceWindow);
    const candidates = roles.flatMap((r) => {
      const keys = r.entries.map((e) => usageKey(r.role, e.id));
      const scores = scoreWithIndex(r.entries, index, ctx.io.now, { role: r.role, stale: (i) => stale.has(keys[i]!) });
      return r.entries.flatMap((entry, i) => {
        if (!picked(r.role, entry.id)) return [];
        const staleDay = stale.get(keys[i]!);
        const by = retired.get(keys[i]!);
        return [
          {
            role: r.role,
            entry,
            score: scores[i]!.score,
            ...(staleDay ? { staleSince: staleDay } : {}),
            ...(by ? { supersededBy: by } : {}),
          },
        ];
      });
    });
    candidates.sort(
      (a, b) =>
        Number(!a.staleSince) - Number(!b.staleSince) ||
        layerRank(a.entry.layer) - layerRank(b.entry.layer) ||
        b.score - a.score ||
        (checkedDay(a.entry) ?? '').localeCompare(checkedDay(b.entry) ?? ''),
    );
    const chosen = candidates.slice(0, limit);
    const cited = chosen.map((c) => citedFiles(c.entry));
    const histories = new Map((await fileHistories(ctx.paths, cited.flat())).map((h) => [h.file, h]));
    const entries: BriefEntry[] = chosen.map((c, i) => ({ ...c, files: cited[i]!.flatMap((f) => histories.get(f) ?? []) }));

    const command = ['rune-echoes evidence', ...positionals, ...(values.limit === undefined ? [] : ['--limit', String(limit)])].join(' ');
    const text = renderEvidenceBrief(entries, { day: ctx.io.now.toISOString().slice(0, 10), command });
    const brief = saveBrief(ctx.paths, text, ctx.io.now);
    if (ctx.json) {
      printJson(ctx, {
        brief,
        entries: entries.map((b) => ({
          role: b.role,
          id: b.entry.id,
          title: b.entry.title,
          layer: b.entry.layer,
          score: b.score,
          verified: b.entry.verified,
          evidence: b.entry.evidence,
          ...(b.staleSince ? { staleSince: b.staleSince } : {}),
          ...(b.supersededBy ? { supersededBy: b.supersededBy } : {}),
          files: b.files,
        })),
      });
      return 0;
    }
    // A store this user cannot write still answers: the brief is printed instead of saved.
    if (brief === null) ctx.io.stdout(`${text}\n(not saved: the store is not writable; hand this text to the memory-auditor)\n`);
    else ctx.io.stdout(`brief for the memory-auditor: ${brief}\n${briefSummary(entries)}\n`);
    return 0;
  },
};

/** Writes the brief under .state/briefs/ and keeps the newest few; its absolute path, or null when the store is read-only. */
function saveBrief(paths: EchoPaths, text: string, now: Date): string | null {
  const dir = join(paths.stateDir, 'briefs');
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
  const file = join(dir, `evidence-${stamp}-${uniqueSuffix()}.md`);
  try {
    ensureDir(paths, dir);
    writeFileAtomic(paths, file, `${text}\n`, { durable: false });
    const old = readdirSync(dir)
      .filter((n) => /^evidence-.*\.md$/.test(n))
      .sort()
      .slice(0, -KEEP_BRIEFS);
    for (const name of old) removeFile(paths, join(dir, name));
    return file;
  } catch (err) {
    if (isNotWritable(err)) return null;
    throw err;
  }
}
