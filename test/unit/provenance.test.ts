// Provenance (SPEC §6b): this clone's mark on an entry, what changes it, a
// teammate's supersession of an etched entry, the mark in recalled lines, and
// git's index read without git (versions 2 to 4) for which files are tracked.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { heldSupersessions, retiredEntries } from '../../src/core/lifecycle/supersession.ts';
import { renderRecall } from '../../src/core/recall/recall-render.ts';
import { markedByKey, originMark } from '../../src/core/team/provenance.ts';
import { isPersonalPath } from '../../src/core/team/shared-files.ts';
import { trackedUnder } from '../../src/store/fs/git-index.ts';
import { makeEntry } from './entry-arbitrary.ts';

const KEY = 'a'.repeat(32);

test("this clone's mark covers what an entry says, not its verification stamp; another key's mark is not ours", () => {
  const e = makeEntry({
    id: 'retry-cap',
    title: 'Retry cap',
    learning: 'Cap retries at 3.',
    layer: 'inscribed',
    verified: '2026-04-01',
    confidence: 0.8,
  });
  const marked = { ...e, origin: originMark(e, KEY) };
  assert.ok(markedByKey(marked, KEY));
  assert.ok(markedByKey({ ...marked, verified: '2026-05-01', confidence: 0.9 }, KEY), 're-verifying keeps the mark');
  assert.ok(!markedByKey({ ...marked, learning: 'Cap retries at 30.' }, KEY), 'other text');
  assert.ok(!markedByKey({ ...marked, layer: 'etched' }, KEY), 'another layer');
  assert.ok(!markedByKey({ ...marked, supersedes: 'x' }, KEY), 'a supersedes added');
  assert.ok(!markedByKey(marked, 'b'.repeat(32)), "another clone's key");
  assert.ok(!markedByKey(e, KEY), 'no mark');
  assert.ok(!markedByKey(marked, null), 'no key');
});

test("a teammate's supersedes never retires this clone's etched entry; it is held, and applies to the rest", () => {
  const mine = makeEntry({ id: 'friday-check', layer: 'etched' });
  const inscribed = makeEntry({ id: 'old-note', layer: 'inscribed' });
  const theirs = makeEntry({ id: 'automatic', layer: 'inscribed', supersedes: 'friday-check, old-note' });
  const items = [
    { role: 'team', entry: mine },
    { role: 'team', entry: inscribed },
    { role: 'team', entry: theirs, teammate: true },
  ];
  assert.deepEqual([...retiredEntries(items).keys()], ['team#old-note']);
  assert.deepEqual([...heldSupersessions(items)], [['team#friday-check', 'team#automatic']]);
  // Their own etched entry, or ours superseding ours: applied as before.
  assert.deepEqual(
    [
      ...retiredEntries([
        { role: 'team', entry: mine, teammate: true },
        { role: 'team', entry: theirs, teammate: true },
      ]).keys(),
    ].sort(),
    ['team#friday-check', 'team#old-note'],
  );
  assert.deepEqual(
    [
      ...retiredEntries([
        { role: 'team', entry: mine },
        { role: 'team', entry: theirs },
      ]).keys(),
    ].sort(),
    ['team#friday-check', 'team#old-note'],
  );
});

test("a recalled line says when the item is a teammate's", () => {
  const item = {
    source: 'memory',
    title: 'Retry cap',
    role: 'team',
    id: 'retry-cap',
    path: '.claude/echoes/team/MEMORY.md',
    line: 4,
    text: '- Cap retries at 3.',
  };
  assert.match(renderRecall([{ ...item, teammate: true }], 400)?.text ?? '', /\(team#retry-cap; a teammate's\)/);
  assert.doesNotMatch(renderRecall([item], 400)?.text ?? '', /teammate/);
});

test('personal paths of the store, as the .gitignore names them', () => {
  for (const p of [
    'EPHEMERAL.md',
    'ARCHIVE.md',
    'usage.jsonl',
    'memories/archive-log-001.md',
    '.state/search/manifest.json',
    'team/scout-findings.md',
    'team/archive/MEMORY-2026-04-01.md',
    '.log',
  ])
    assert.ok(isPersonalPath(p), p);
  for (const p of ['team/MEMORY.md', 'team/knowledge.md', 'team/archive/pruned.md', '.gitignore', '.gitattributes'])
    assert.ok(!isPersonalPath(p), p);
});

test("git's index read without git: the same tracked files in index versions 2, 3 and 4", (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'rune-echoes-index-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const git = (...args: string[]) => {
    const r = spawnSync('git', args, { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH, GIT_CONFIG_NOSYSTEM: '1', HOME: dir } });
    assert.equal(r.status, 0, r.stderr);
  };
  git('init', '--quiet');
  const files = [
    'README.md',
    '.claude/echoes/EPHEMERAL.md',
    '.claude/echoes/team/MEMORY.md',
    '.claude/echoes/memories/archive-log-001.md',
    '.claude/settings.json',
  ];
  for (const f of files) {
    mkdirSync(join(dir, f, '..'), { recursive: true });
    writeFileSync(join(dir, f), `${f}\n`);
  }
  git('add', '--', ...files);
  const expected = ['EPHEMERAL.md', 'memories/archive-log-001.md', 'team/MEMORY.md'];
  for (const version of ['2', '3', '4']) {
    git('update-index', '--index-version', version);
    assert.deepEqual([...trackedUnder(join(dir, '.claude', 'echoes'))].sort(), expected, `index version ${version}`);
  }
  assert.deepEqual([...trackedUnder(join(dir, '.claude', 'nothing'))], []);
});
