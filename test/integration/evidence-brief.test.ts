// `rune-echoes evidence` on a real git repository: the memory-auditor's brief
// (it has no shell, so this is the git history it works from).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { renderEntry } from '../../src/core/entry/echo-document.ts';
import type { EchoEntry } from '../../src/core/entry/echo-entry.ts';
import { cliJson, cliOk, runCli } from '../helpers/cli-run.ts';
import { gitIn } from '../helpers/git-clones.ts';
import { makeTempProject, type TempProject } from '../helpers/temp-project.ts';
import { makeEntry } from '../unit/entry-arbitrary.ts';

const NOW = new Date('2026-05-01T10:00:00Z');

const entry = (over: Partial<EchoEntry>): EchoEntry =>
  makeEntry({ date: '2026-03-01', layer: 'inscribed', confidence: 0.8, verified: '2026-03-01', learning: 'Something.', ...over });

/**
 * A repository where, after the entries were verified on 2026-03-01, one cited file changed (its entry is stale), one
 * moved and one was deleted (the store does not date files git no longer tracks: the brief says where they went).
 */
function project(t: { after(fn: () => void): void }): TempProject {
  const tp = makeTempProject(t);
  gitIn(tp.dir, ['init', '-q']);
  tp.write('src/retry.ts', 'export const cap = 3;\n');
  tp.write('src/auth.ts', 'export {};\n');
  tp.write('src/legacy.ts', 'export {};\n');
  tp.write('src/calm.ts', 'export {};\n');
  gitIn(tp.dir, ['add', '.']);
  gitIn(tp.dir, ['commit', '-qm', 'Start'], '2026-01-10T10:00:00Z');
  tp.write('src/retry.ts', 'export const cap = 5;\n');
  gitIn(tp.dir, ['mv', 'src/auth.ts', 'src/session.ts']);
  gitIn(tp.dir, ['rm', '-q', 'src/legacy.ts']);
  gitIn(tp.dir, ['commit', '-qam', 'Raise the retry cap; move auth; drop legacy'], '2026-04-02T10:00:00Z');
  const header = '<!-- echo-schema: v2 -->\n# Memory\n\n';
  tp.write(
    '.claude/echoes/reviewer/MEMORY.md',
    `${header}${[
      entry({ id: 'retry-cap', title: 'Retries capped at 3', evidence: '`src/retry.ts:1` — cap' }),
      entry({ id: 'auth-file', title: 'Auth in one file', evidence: '`src/auth.ts:1` — auth' }),
      entry({ id: 'calm', title: 'Calm file', layer: 'etched', evidence: '`src/calm.ts:1` — calm' }),
    ]
      .map((e) => renderEntry(e))
      .join('\n')}`,
  );
  tp.write(
    '.claude/echoes/planner/MEMORY.md',
    `${header}${renderEntry(entry({ id: 'legacy', title: 'Legacy path', evidence: '`src/legacy.ts:1` — old' }))}`,
  );
  return tp;
}

test('the brief lists stale entries first, each cited file with its commits since verified, and where a moved file went', async (t) => {
  const tp = project(t);
  const out = await cliOk(tp, ['evidence'], { now: NOW });
  const path = /^brief for the memory-auditor: (\/.+\.md)$/m.exec(out)?.[1];
  assert.ok(path?.startsWith(join(tp.dir, '.claude/echoes/.state/briefs/evidence-')), out);
  assert.match(out, /^4 entries \(1 stale, 2 cited files missing\) from reviewer, planner$/m);
  const brief = readFileSync(path!, 'utf8');
  const order = [...brief.matchAll(/^## (\S+)/gm)].map((m) => m[1]);
  assert.deepEqual(order.slice(0, 2), ['reviewer#retry-cap', 'reviewer#calm'], 'the stale entry first, then the etched one');
  assert.match(
    brief,
    /^- `src\/retry\.ts`: present; added 2026-01-10; commits since 2026-03-01:\n {2}- [0-9a-f]+ 2026-04-02 Raise the retry cap; move auth; drop legacy$/m,
  );
  assert.match(brief, /^- `src\/auth\.ts`: missing: renamed to `src\/session\.ts` in [0-9a-f]+ 2026-04-02 /m);
  assert.match(brief, /^- `src\/legacy\.ts`: missing: deleted in [0-9a-f]+ 2026-04-02 /m);
  assert.match(brief, /^- `src\/calm\.ts`: present; added 2026-01-10; no commit since 2026-03-01$/m);
  assert.match(brief, /stale since 2026-03-01/);
});

test('roles and role#id narrow the brief, --limit caps it, --json gives the same facts, and only the newest five briefs stay', async (t) => {
  const tp = project(t);
  const json = await cliJson(tp, ['evidence', 'reviewer#auth-file', 'planner'], { now: NOW });
  assert.deepEqual(json.entries.map((e: { role: string; id: string }) => `${e.role}#${e.id}`).sort(), [
    'planner#legacy',
    'reviewer#auth-file',
  ]);
  const auth = json.entries.find((e: { id: string }) => e.id === 'auth-file');
  assert.equal(auth.files[0].present, false);
  assert.equal(auth.files[0].commits[0].to, 'src/session.ts');
  assert.match(await cliOk(tp, ['evidence', '--limit', '1'], { now: NOW }), /^1 entry /m);
  for (let i = 0; i < 6; i++) await cliOk(tp, ['evidence'], { now: NOW });
  assert.equal(readdirSync(join(tp.dir, '.claude/echoes/.state/briefs')).length, 5);
  const refused = await runCli(tp, ['evidence', 'nobody'], { now: NOW });
  assert.notEqual(refused.code, 0);
  assert.match(refused.stderr, /no memory for role "nobody"/);
  const noEntry = await runCli(tp, ['evidence', 'reviewer#nope'], { now: NOW });
  assert.match(noEntry.stderr, /no entry "reviewer#nope"/);
});
