// Issue 8's defects, one test each: every one failed before its fix.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { documentEntries, parseEchoDocument } from '../../src/core/entry/echo-document.ts';
import { cliJson, cliOk, runCli } from '../helpers/cli-run.ts';
import { makeTempProject, type TempProject } from '../helpers/temp-project.ts';

const memory = (tp: TempProject, role: string) => documentEntries(parseEchoDocument(tp.read(`.claude/echoes/${role}/MEMORY.md`) ?? ''));

test('findings with one title and different sensitive evidence stay apart: none is silently deleted', async (t) => {
  const tp = makeTempProject(t);
  const places = ['`api/settings.py:12`', '`worker/config.py:40`', '`scripts/deploy.sh:7`'];
  const ids: string[] = [];
  for (const [i, place] of places.entries()) {
    const out = await cliJson(tp, [
      'record',
      '--role',
      'reviewer',
      '--agent',
      `scout${i}`,
      '--pattern',
      'Hard-coded DB password',
      '--evidence',
      `${place} — DB_PASSWORD = "Hunter2pw${i}x"`,
      `The password is hard-coded in ${place}.`,
    ]);
    ids.push(...out.recorded);
  }
  const report = await cliJson(tp, ['consolidate']);
  assert.equal(report.roles[0].appended.length, 3, 'three findings, three entries');
  const entries = memory(tp, 'reviewer');
  assert.equal(entries.length, 3);
  for (const [i, place] of places.entries()) {
    const e = entries.find((x) => x.evidence.includes(place.replace(/`/g, '')));
    assert.ok(e, `an entry keeps ${place} as its identity`);
    assert.match(e.learning, new RegExp(place.replace(/[`.]/g, '\\$&')));
    assert.ok(!JSON.stringify(entries).includes(`Hunter2pw${i}x`), 'the password is gone');
  }
});

test('sensitive evidence that names no place keeps a keyed fingerprint: different secrets stay apart, the same one merges', async (t) => {
  const tp = makeTempProject(t);
  const rec = (agent: string, secret: string, learning: string) =>
    cliOk(tp, [
      'record',
      '--role',
      'reviewer',
      '--agent',
      agent,
      '--pattern',
      'Token in the env example',
      '--evidence',
      `API_TOKEN=${secret}`,
      learning,
    ]);
  await rec('a', 'Zx9QpL2mWv8RkT4yHn6Jb0Cd', 'The example env file ships a live token.');
  await rec('b', 'Rk3TyHn6Jb0CdFgZx9QpL2mW', 'Another live token in the example env file.');
  await rec('c', 'Zx9QpL2mWv8RkT4yHn6Jb0Cd', 'Same token seen again.');
  await cliOk(tp, ['consolidate']);
  const entries = memory(tp, 'reviewer');
  assert.equal(entries.length, 2, 'two different secrets, two entries; the repeat merged');
  const merged = entries.find((e) => e.learning.includes('ships a live token'))!;
  assert.match(merged.learning, /Same token seen again/, "the merge kept the repeat's learning");
  assert.match(merged.evidence, /^\(evidence removed: sensitive\) #[0-9a-f]{12}$/);
  assert.ok(!JSON.stringify(entries).includes('Zx9QpL2m'));
});

test('a findings file that is not UTF-8, or a symlink leading out, is moved aside unread; the other findings still merge', async (t) => {
  const tp = makeTempProject(t);
  const outside = makeTempProject(t);
  const secretFile = outside.write('credentials', 'aws_secret_access_key = not-for-the-model\n');
  await cliOk(tp, ['record', '--role', 'reviewer', '--agent', 'good', '--pattern', 'Retry the flaky upload', 'Uploads need one retry.']);
  const latin1 = Buffer.from('# Findings\n\n## Caf\xe9 cache\n- **layer**: traced\n\nBody \xff\xfe.\n', 'latin1');
  writeFileSync(join(tp.dir, '.claude/echoes/reviewer/latin-findings.md'), latin1);
  symlinkSync(secretFile, join(tp.dir, '.claude/echoes/reviewer/leak-findings.md'));

  const report = await cliJson(tp, ['consolidate']);
  const role = report.roles[0];
  assert.equal(role.appended.length, 1, 'the readable finding merged');
  assert.equal(role.setAside.length, 2, 'both unsafe files set aside');
  const archived = tp.files('.claude/echoes/reviewer/archive');
  const latin = archived.find((f) => f.includes('unreadable-latin-findings-'));
  assert.ok(latin, `unreadable file archived: ${archived.join(', ')}`);
  assert.deepEqual(readFileSync(join(tp.dir, '.claude/echoes/reviewer/archive', latin)), latin1, 'its bytes kept');
  const link = readdirSync(join(tp.dir, '.claude/echoes/reviewer/archive')).find((f) => f.startsWith('unsafe-leak-findings-'));
  assert.ok(link, 'the symlink moved as a link');
  assert.equal(readlinkSync(join(tp.dir, '.claude/echoes/reviewer/archive', link)), secretFile);
  assert.equal(readFileSync(secretFile, 'utf8'), 'aws_secret_access_key = not-for-the-model\n', 'its target untouched');
  assert.ok(!(tp.read('.claude/echoes/reviewer/MEMORY.md') ?? '').includes('not-for-the-model'));
  assert.deepEqual(
    tp.files('.claude/echoes/reviewer').filter((f) => f.endsWith('-findings.md')),
    [],
    'nothing left to re-read every session',
  );
  const again = await cliJson(tp, ['consolidate']);
  assert.equal(again.roles[0].findingsFiles + again.roles[0].setAside.length, 0, 'a second run has nothing to do');
});

test('CLI edges: a missing role, a file as --project and huge bad arguments give one short line, exit 1, and create nothing', async (t) => {
  const tp = makeTempProject(t);
  tp.write('notes.txt', 'hello\n');
  tp.write('.git/HEAD', 'ref: refs/heads/main\n'); // a project, found from the working folder
  const huge = 'x'.repeat(1_000_000);
  const cases: string[][] = [
    ['reset', 'nobody', '--yes'],
    ['reset', 'nobody'],
    ['show', '--project', 'notes.txt'],
    ['status', '--project', 'no/such/folder'],
    [huge],
    ['show', `--${huge}`],
    ['show', huge],
    ['forget', huge],
    ['record', '--role', huge, '--pattern', 'p', 'learning'],
    ['record', '--role', 'r', '--confidence', huge, '--pattern', 'p', 'learning'],
    ['search', '--limit', huge, 'words'],
  ];
  const before = tp.snapshot();
  for (const argv of cases) {
    const r = await runCli(tp, argv, { env: { HOME: join(tp.dir, 'home') } });
    const label = argv.map((a) => a.slice(0, 20)).join(' ');
    assert.equal(r.code, 1, `${label}: exit 1 (${r.stderr.slice(0, 200)})`);
    assert.equal(r.stdout, '', label);
    assert.equal(r.stderr.split('\n').length, 2, `${label}: one line`);
    assert.ok(r.stderr.length <= 300, `${label}: a short line, got ${r.stderr.length} characters`);
    assert.match(r.stderr, /^rune-echoes: /);
  }
  assert.deepEqual(tp.snapshot(), before, 'nothing created');
});

test('an argument that was not UTF-8 (Node hands it on with U+FFFD) is refused in one line, and nothing is stored', async (t) => {
  const tp = makeTempProject(t);
  await cliOk(tp, ['remember', 'Pin the Node version in CI.']);
  const before = tp.snapshot();
  for (const argv of [
    ['remember', 'caf\uFFFD au lait'],
    ['remember', '--pattern', 'T\uFFFD(itle', 'body text'],
  ]) {
    const r = await runCli(tp, argv);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^rune-echoes: argument \d is not valid UTF-8 text .*nothing was changed\n$/);
  }
  assert.deepEqual(tp.snapshot(), before);
});
