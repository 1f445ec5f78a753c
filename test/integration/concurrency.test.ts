// Many agents and sessions at once, and processes killed at any instant:
// no finding is ever lost or doubled (SPEC §6).

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { documentEntries, parseEchoDocument } from '../../src/core/entry/echo-document.ts';
import { runBundle, runCliSync } from '../helpers/run-bundle.ts';

const AGENTS = 8;
const PER_AGENT = 50;

function findingsText(agent: number, perAgent = PER_AGENT): string {
  const blocks: string[] = [];
  for (let j = 0; j < perAgent; j++) {
    blocks.push(
      `### [2026-11-${String(1 + (j % 20)).padStart(2, '0')}] Pattern: Finding ${agent}-${j}\n` +
        `- **layer**: ${j % 3 === 0 ? 'traced' : 'inscribed'}\n- **source**: agent-${agent}\n- **confidence**: 0.${5 + (j % 5)}\n` +
        `- **evidence**: \`src/module${agent}/file${j}.ts:${j + 1}\` — observed\n- **verified**: 2026-11-20\n- **supersedes**: none\n` +
        `- Learning number ${j} of agent ${agent}.\n`,
    );
  }
  return blocks.join('\n');
}

function tempProject(t: { after: (fn: () => void) => void }): { dir: string; env: Record<string, string> } {
  const root = mkdtempSync(join(tmpdir(), 'rune-conc-'));
  const dir = join(root, 'proj');
  mkdirSync(join(dir, '.git'), { recursive: true });
  mkdirSync(join(root, 'home'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  // A large line limit: this test is about consolidation, not pruning.
  mkdirSync(join(dir, '.claude'), { recursive: true });
  return { dir, env: { HOME: join(root, 'home') } };
}

function assertAllOnce(dir: string, agents = AGENTS, perAgent = PER_AGENT): void {
  const roleDir = join(dir, '.claude', 'echoes', 'reviewer');
  const memory = readFileSync(join(roleDir, 'MEMORY.md'), 'utf8');
  const doc = parseEchoDocument(memory);
  const titles = documentEntries(doc).map((e) => e.title);
  const expected = [];
  for (let a = 0; a < agents; a++) for (let j = 0; j < perAgent; j++) expected.push(`Finding ${a}-${j}`);
  assert.equal(titles.length, expected.length, `exactly ${expected.length} entries`);
  assert.deepEqual([...titles].sort(), expected.sort(), 'each finding exactly once');
  assert.equal(new Set(documentEntries(doc).map((e) => e.id)).size, titles.length, 'ids unique');
  assert.deepEqual(
    readdirSync(roleDir).filter((f) => f.endsWith('-findings.md')),
    [],
    'findings files processed',
  );
  for (const f of readdirSync(roleDir).filter((n) => n.endsWith('.md'))) {
    const text = readFileSync(join(roleDir, f), 'utf8');
    assert.equal(
      parseEchoDocument(text)
        .blocks.map((b) => b.text)
        .join(''),
      text,
      `${f} parses losslessly`,
    );
  }
}

test('8 processes record and consolidate 8 agents × 50 findings at once: all 400 present exactly once', async (t) => {
  const { dir, env } = tempProject(t);
  const chains = Array.from({ length: AGENTS }, async (_, a) => {
    const rec = await runBundle('cli.mjs', ['record', '--role', 'reviewer', '--agent', `agent-${a}`, '--stdin'], {
      cwd: dir,
      input: findingsText(a),
      env,
    }).done;
    assert.equal(rec.code, 0, rec.stderr);
    const con = await runBundle('cli.mjs', ['consolidate', '--role', 'reviewer'], { cwd: dir, env }).done;
    assert.equal(con.code, 0, con.stderr);
  });
  await Promise.all(chains);
  assertAllOnce(dir);
});

test('consolidators killed at random instants lose and double nothing', async (t) => {
  const { dir, env } = tempProject(t);
  for (let a = 0; a < AGENTS; a++) {
    const r = runCliSync(['record', '--role', 'reviewer', '--agent', `agent-${a}`, '--stdin'], { cwd: dir, input: findingsText(a), env });
    assert.equal(r.code, 0, r.stderr);
  }
  // A fixed pseudo-random sequence: kill delays differ run to run only by scheduling.
  let seed = 7;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  let killed = 0;
  for (let round = 0; round < 4; round++) {
    const runs = Array.from({ length: 4 }, (_, k) => {
      const run = runBundle('cli.mjs', ['consolidate', '--role', 'reviewer'], { cwd: dir, env });
      // The first of each round is killed before it can have finished, however fast the machine: kills are certain.
      const delay = k === 0 ? 0 : Math.floor(rand() * 700);
      let finished = false;
      const timer = setTimeout(() => {
        if (finished) return;
        killed++;
        run.kill('SIGKILL');
      }, delay);
      return run.done.then((r) => {
        finished = true;
        clearTimeout(timer);
        return r;
      });
    });
    await Promise.all(runs);
  }
  t.diagnostic(`killed ${killed} of 16 consolidators while running`);
  assert.ok(killed >= 4, 'consolidators were killed while they ran');
  const final = runCliSync(['consolidate', '--role', 'reviewer'], { cwd: dir, env });
  assert.equal(final.code, 0, final.stderr);
  assertAllOnce(dir);
});

test('16 processes at once, each recording 25 findings and consolidating: all 400 present exactly once', async (t) => {
  const { dir, env } = tempProject(t);
  const agents = 16;
  const perAgent = 25;
  await Promise.all(
    Array.from({ length: agents }, async (_, a) => {
      const rec = await runBundle('cli.mjs', ['record', '--role', 'reviewer', '--agent', `agent-${a}`, '--stdin'], {
        cwd: dir,
        input: findingsText(a, perAgent),
        env,
      }).done;
      assert.equal(rec.code, 0, rec.stderr);
      const con = await runBundle('cli.mjs', ['consolidate', '--role', 'reviewer'], { cwd: dir, env }).done;
      assert.equal(con.code, 0, con.stderr);
    }),
  );
  assertAllOnce(dir, agents, perAgent);
});
