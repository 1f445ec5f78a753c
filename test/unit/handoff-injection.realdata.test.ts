// Every session of the real project histories in ../shared/realdata/histories
// (read in place, never copied), folded as SessionEnd folds it: the hand-off it
// writes, injected by the next SessionStart within the default budget, keeps
// its Files and Commands sections, and no path in them is cut short; and no
// settings command or notice Claude Code writes as a user line is among what was asked.
// `HANDOFF_REPORT=1` prints the counts.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildDigest } from '../../src/core/recall/digest.ts';
import { renderEphemeral } from '../../src/core/session/session-records.ts';
import { didWork } from '../../src/core/session/session-work.ts';
import { foldTranscript } from '../../src/store/session/session-lifecycle.ts';

const HISTORIES = join(fileURLToPath(new URL('../../', import.meta.url)), '../shared/realdata/histories');

interface Injected {
  /** The session that started and was given the hand-off. */
  session: string;
  handOff: string;
  digest: string;
}

/** Each project's sessions in time order; every start after the first working session is given the last one's hand-off. */
async function injectedHandOffs(): Promise<Injected[]> {
  const out: Injected[] = [];
  for (const project of readdirSync(HISTORIES).sort()) {
    const dir = join(HISTORIES, project);
    const sessions = [];
    // A subagent's own transcript (agent-*.jsonl) is no session: no hook hands it on.
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.jsonl') && !f.startsWith('agent-'))) {
      const id = file.replace(/\.jsonl$/, '');
      const { draft } = await foldTranscript(join(dir, file), null, { sessionId: id });
      sessions.push({ id, draft });
    }
    sessions.sort((a, b) => (a.draft.firstTs ?? '').localeCompare(b.draft.firstTs ?? '') || a.id.localeCompare(b.id));
    let handOff = '';
    for (const { id, draft } of sessions) {
      if (handOff) {
        const digest = buildDigest({
          lastSession: handOff,
          etched: [],
          lessons: [],
          counts: { entries: 0, archiveLogs: 0, solutions: 0 },
          budgetTokens: 1500,
        }).text;
        out.push({ session: `${project}/${id}`, handOff, digest });
      }
      if (didWork(draft)) handOff = renderEphemeral(draft);
    }
  }
  return out;
}

/** A section's item lines (`- …`) in a hand-off or a digest (where headings are `Files:`). */
function sectionItems(text: string, section: string): string[] {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l === `## ${section}` || l === `${section}:`);
  if (at < 0) return [];
  const items: string[] = [];
  for (const line of lines.slice(at + 1)) {
    if (!line.startsWith('- ')) break;
    items.push(line);
  }
  return items;
}

test('real histories: every injected hand-off keeps the Files and Commands it has, no item cut at its end', async (t) => {
  if (!existsSync(HISTORIES)) return t.skip('realdata not present');
  const all = await injectedHandOffs();
  const report: string[] = [];
  const lost: string[] = [];
  for (const section of ['Files', 'Commands']) {
    const having = all.filter((h) => sectionItems(h.handOff, section).length > 0);
    const missing = having.filter((h) => sectionItems(h.digest, section).length === 0);
    // An item cut at its end (a path or command with its tail gone); one shortened in its middle keeps both ends.
    const cut = having.filter((h) =>
      sectionItems(h.digest, section).some((l) => l.endsWith('…') && !sectionItems(h.handOff, section).includes(l)),
    );
    report.push(`${section} in ${having.length}, injected in ${having.length - missing.length}, an item cut at its end in ${cut.length}`);
    lost.push(...missing.map((h) => `${section} missing: ${h.session}`), ...cut.map((h) => `${section} cut: ${h.session}`));
  }
  const starts = new Set(lost.map((l) => l.replace(/^[^:]*: /, ''))).size;
  if (process.env.HANDOFF_REPORT === '1')
    process.stdout.write(`${all.length} starts given a hand-off, ${starts} of them short of Files or Commands; ${report.join('; ')}\n`);
  assert.deepEqual(lost, []);
});

test('real histories: no settings command or notice is among what was asked', async (t) => {
  if (!existsSync(HISTORIES)) return t.skip('realdata not present');
  const notice =
    /^- (?:\(subagent\) )?(?:\/(?:model|config|clear|mcp|memory|status|statusline|login|help|btw|cost|ide)\b|<|Caveat: |\[Request interrupted|Warmup$)/;
  const asked = (await injectedHandOffs()).flatMap((h) => sectionItems(h.handOff, 'Asked'));
  assert.ok(asked.length > 20, `${asked.length} requests`);
  assert.deepEqual(
    asked.filter((a) => notice.test(a)),
    [],
  );
});
