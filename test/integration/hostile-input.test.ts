// Issue 8's defects, one test each: every one failed before its fix.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { documentEntries, parseEchoDocument } from '../../src/core/entry/echo-document.ts';
import { cliJson, cliOk } from '../helpers/cli-run.ts';
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
