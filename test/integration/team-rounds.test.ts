// Two clones of one repository share memory through real git for 20 rounds.
// Each round each side records findings (some the same as the other side's,
// some colliding on an id, some re-verifying the other side's entries),
// consolidates and prunes, forgets and remembers, and commits; pulls and
// pushes are interleaved so the sides diverge over several rounds. git must
// report no conflict on any memory file, every entry must end up once (or
// archived, or forgotten, as its history says), and both clones must agree
// byte for byte. The CLI runs in-process; git runs the merge driver from the
// built bundle, as it would for a user.

import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { documentEntries, parseEchoDocument } from '../../src/core/entry/echo-document.ts';
import type { EchoEntry } from '../../src/core/entry/echo-entry.ts';
import { BUILT_CLI, runCli } from '../helpers/cli-run.ts';
import { type Clone, makeOrigin, type Origin } from '../helpers/git-clones.ts';
import type { TempProject } from '../helpers/temp-project.ts';

const ROUNDS = 20;
const ROLES = ['planner', 'reviewer'];
const DAY_MS = 86_400_000;
const START = Date.UTC(2026, 2, 1, 10);

let origin: Origin;
let a: Clone;
let b: Clone;
const pulls: Array<{ who: string; round: number; code: number | null; out: string }> = [];

/** Every learning recorded, by `title|evidence`, with the role it went to. */
const recorded = new Map<string, string>();
/** Learnings forgotten by one side (never recorded again afterwards). */
const forgotten = new Set<string>();

async function cli(clone: Clone, round: number, ...argv: string[]): Promise<string> {
  const r = await runCli({ dir: clone.dir } as TempProject, argv, {
    env: { CLAUDE_PROJECT_DIR: clone.dir, HOME: origin.env.HOME },
    now: new Date(START + round * DAY_MS + (clone.name === 'b' ? 3_600_000 : 0)),
  });
  assert.equal(r.code, 0, `${clone.name} round ${round}: rune-echoes ${argv.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

function entriesOf(clone: Clone, role: string, file = 'MEMORY.md'): EchoEntry[] {
  const path = join(clone.dir, '.claude/echoes', role, file);
  return existsSync(path) ? documentEntries(parseEchoDocument(readFileSync(path, 'utf8'))) : [];
}

const key = (e: Pick<EchoEntry, 'title' | 'evidence'>) => `${e.title}|${e.evidence}`;

async function record(clone: Clone, round: number, role: string, title: string, evidence: string, layer = 'inscribed'): Promise<void> {
  await cli(
    clone,
    round,
    'record',
    '--role',
    role,
    '--agent',
    `${clone.name}-scout`,
    '--pattern',
    title,
    '--evidence',
    evidence,
    '--layer',
    layer,
    '--confidence',
    String(0.5 + (round % 5) / 10),
    `Learning: ${title}.`,
  );
  if (!forgotten.has(`${title}|${evidence}`)) recorded.set(`${title}|${evidence}`, role);
}

function commit(clone: Clone, round: number): void {
  clone.git('add', '-A');
  if (clone.tryGit('diff', '--cached', '--quiet').code !== 0) clone.git('commit', '--quiet', '-m', `${clone.name}: round ${round}`);
}

/** Most pulls merge; in every fourth round clone b rebases its commits instead (the driver then merges each one as it is replayed). */
function pull(clone: Clone, round: number): void {
  const how = clone.name === 'b' && round % 4 === 2 ? '--rebase' : '--no-rebase';
  const r = clone.tryGit('pull', how, '--no-edit', 'origin', 'main');
  pulls.push({ who: clone.name, round, ...r });
  assert.equal(r.code, 0, `${clone.name} round ${round}: git pull failed: ${r.out}`);
  assert.doesNotMatch(r.out, /CONFLICT/, `${clone.name} round ${round}: ${r.out}`);
  assert.equal(clone.git('diff', '--name-only', '--diff-filter=U'), '', 'no unmerged paths');
}

function sync(clone: Clone, round: number): void {
  pull(clone, round);
  clone.git('push', '--quiet', 'origin', 'main');
}

/** One side's work in a round: findings, re-verifications, forgets, etched facts, consolidation, commit. */
async function work(clone: Clone, other: Clone, round: number): Promise<void> {
  const role = ROLES[round % 2]!;
  const me = clone.name.toUpperCase();
  for (const k of [1, 2])
    await record(
      clone,
      round,
      role,
      `${me} round ${round} finding ${k}`,
      `\`src/${clone.name}/r${round}.ts:${k}\` — seen`,
      k === 1 && round % 3 === 0 ? 'traced' : 'inscribed',
    );
  // The same learning found on both sides in one round: kept once.
  if (round % 3 === 1) await record(clone, round, role, `Shared lesson of round ${round}`, '`src/shared.ts:1` — both saw it');
  // Two different learnings under one title (so one id): both kept.
  if (round % 7 === 2)
    await record(clone, round, 'reviewer', `Colliding title ${round}`, `\`src/${clone.name}/collide.ts:${round}\` — ${me}`);
  // Re-verify an entry of the other side that this clone has: both sides move its stamp.
  if (round % 4 === 0) {
    const theirs = ROLES.flatMap((r) => entriesOf(clone, r).map((e) => ({ e, r }))).filter(({ e }) =>
      e.title.startsWith(other.name.toUpperCase()),
    );
    const pick = theirs[round % Math.max(1, theirs.length)];
    if (pick) await record(clone, round, pick.r, pick.e.title, pick.e.evidence);
  }
  // Forget one of its own entries from an earlier round.
  if (round % 5 === (clone.name === 'a' ? 0 : 2)) {
    for (const r of ROLES) {
      const own = entriesOf(clone, r).find((e) => e.title.startsWith(`${me} round`) && !e.title.includes(`round ${round} `));
      if (!own) continue;
      await cli(clone, round, 'forget', own.id, '--role', r);
      forgotten.add(key(own));
      recorded.delete(key(own));
      break;
    }
  }
  if (round % 6 === 0) await cli(clone, round, 'remember', '--layer', 'etched', `${me} etched fact of round ${round}`);
  await cli(clone, round, 'consolidate', '--prune');
  if (round % 5 === 3) await cli(clone, round, 'prune');
  commit(clone, round);
}

before(async () => {
  assert.ok(existsSync(BUILT_CLI), 'dist/cli.mjs is built (npm test builds first; else npm run build)');
  origin = makeOrigin();
  a = origin.clone('a');
  a.write('README.md', '# Project\n');
  // A small limit, so pruning happens within 20 rounds.
  a.write('.claude/rune-config.yml', 'echoes:\n  memory_max_lines: 60\n');
  a.git('add', '-A');
  a.git('commit', '--quiet', '-m', 'start');
  await cli(a, 0, 'team', 'init');
  commit(a, 0);
  a.git('push', '--quiet', 'origin', 'main');
  b = origin.clone('b');
  await cli(b, 0, 'team', 'init');

  for (let round = 1; round <= ROUNDS; round++) {
    await work(a, b, round);
    if (round % 3 !== 0) sync(a, round);
    await work(b, a, round);
    if (round % 2 === 0) sync(b, round);
    if (round % 4 === 0) pull(a, round);
  }
  sync(a, ROUNDS + 1);
  sync(b, ROUNDS + 1);
  pull(a, ROUNDS + 1);
});

after(() => origin?.cleanup());

test('git reported no conflict on any pull, and the merges really happened', () => {
  assert.ok(pulls.length >= 25, `${pulls.length} pulls`);
  assert.ok(pulls.filter((p) => /Successfully rebased/.test(p.out)).length >= 3, 'pulls that rebased');
  const merges = Number(a.git('rev-list', '--merges', '--count', 'HEAD').trim());
  assert.ok(merges >= 8, `only ${merges} merge commits: the sides did not diverge enough to test the driver`);
  for (const p of pulls) assert.doesNotMatch(p.out, /CONFLICT|conflict/, `${p.who} round ${p.round}`);
});

test('both clones agree byte for byte, with clean work trees', () => {
  assert.equal(a.git('status', '--porcelain'), '');
  assert.equal(b.git('status', '--porcelain'), '');
  assert.equal(a.git('rev-parse', 'HEAD'), b.git('rev-parse', 'HEAD'));
  const files = a.git('ls-files').split('\n').filter(Boolean);
  assert.deepEqual(files, b.git('ls-files').split('\n').filter(Boolean));
  for (const f of files) assert.ok(readFileSync(join(a.dir, f)).equals(readFileSync(join(b.dir, f))), f);
});

test('no personal file was ever committed: hand-offs, archive logs, usage, state and findings stay in each clone', () => {
  const everCommitted = a.git('log', '--all', '--name-only', '--format=').split('\n').filter(Boolean);
  const personal = everCommitted.filter((f) =>
    /EPHEMERAL\.md|ARCHIVE\.md|memories\/|usage\.jsonl|\.state\/|\.locks\/|\.log$|-findings\.md|archive\/MEMORY-/.test(f),
  );
  assert.deepEqual([...new Set(personal)], []);
  // They do exist on disk, each clone its own.
  assert.ok(existsSync(join(a.dir, '.claude/echoes/.state')));
  assert.ok(
    readdirSync(join(a.dir, '.claude/echoes/planner/archive')).some((n) => n.startsWith('MEMORY-')),
    'pruning backed up locally',
  );
});

test('every learning recorded on either side is in its MEMORY.md exactly once, or archived by pruning', () => {
  const live = new Map<string, number>();
  const archived = new Set<string>();
  for (const role of ROLES) {
    for (const e of entriesOf(a, role)) live.set(key(e), (live.get(key(e)) ?? 0) + 1);
    for (const file of ['archive/pruned.md', 'knowledge.md']) for (const e of entriesOf(a, role, file)) archived.add(key(e));
  }
  const missing: string[] = [];
  for (const [k, role] of recorded) {
    const n = live.get(k) ?? 0;
    assert.ok(n <= 1, `${k} is in ${role}/MEMORY.md ${n} times`);
    if (n === 0 && !archived.has(k)) missing.push(k);
  }
  assert.deepEqual(missing, []);
  for (const [k, n] of live) assert.equal(n, 1, `${k} twice`);
  const pruned = [...recorded.keys()].filter((k) => !live.has(k));
  assert.ok(recorded.size >= 80, `${recorded.size} learnings recorded`);
  assert.ok(pruned.length >= 20 && live.size >= 10, `${live.size} live, ${pruned.length} archived by pruning`);
});

test('forgotten learnings are in forgotten.md once and in no MEMORY.md, on both sides', () => {
  assert.ok(forgotten.size >= 4, `${forgotten.size} forgets`);
  const tombstones = new Map<string, number>();
  for (const role of ROLES)
    for (const e of entriesOf(a, role, 'archive/forgotten.md')) tombstones.set(key(e), (tombstones.get(key(e)) ?? 0) + 1);
  for (const k of forgotten) {
    assert.equal(tombstones.get(k), 1, `tombstone of ${k}`);
    for (const role of ROLES) assert.ok(!entriesOf(a, role).some((e) => key(e) === k), `${k} came back into ${role}`);
  }
});

test('entries changed on both sides were only re-verified, so nothing was kept as superseded; colliding ids were both kept', () => {
  const all = ROLES.flatMap((r) => entriesOf(a, r));
  assert.deepEqual(
    all.filter((e) => e.status === 'superseded').map((e) => e.id),
    [],
  );
  const colliding = all.filter((e) => e.title.startsWith('Colliding title'));
  const titles = new Set(colliding.map((e) => e.title));
  for (const t of titles) assert.equal(colliding.filter((e) => e.title === t).length, 2, `${t}: both sides' learnings`);
  const etched = entriesOf(a, 'team').filter((e) => e.layer === 'etched');
  assert.equal(etched.length, 6, etched.map((e) => e.title).join(', '));
});
