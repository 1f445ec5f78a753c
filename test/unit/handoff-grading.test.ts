// The hand-off grader (npm run grade): its scorer on small texts, and every
// real transcript beside the repository against its expectation file.

import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { test } from 'node:test';
import { DEFAULT_TRANSCRIPTS, EXPECTATIONS, FIXTURE_TRANSCRIPTS, grade, gradeFolder, listedFiles } from '../../scripts/handoff-grading.ts';

const HANDOFF = [
  '# Last session — 2026-11-22 10:00 → 11:00 (session abc…)',
  '## Asked',
  '- Fix the payment retry backoff',
  '## Done and decided',
  '- Retries capped at 3',
  '## Files',
  '- edited: src/payments.ts, test/payments.spec.ts',
  '- deleted: src/old.ts',
  '## Open',
  '- `npm run build` failed on its last run',
  '',
].join('\n');

test('the scorer checks each section for its phrases, the file lists for paths, and statements that must not appear', () => {
  const ok = grade(HANDOFF, {
    about: 'x',
    asked: [['retry', 'backoff']],
    done: ['capped'],
    open: ['npm run build'],
    edited: ['src/payments.ts'],
    deleted: ['src/old.ts'],
    notEdited: ['src/old.ts'],
    mustNot: [{ text: 'last run failed', in: 'Done and decided' }],
  });
  assert.deepEqual(
    ok.filter((c) => !c.ok),
    [],
  );
  const bad = grade(HANDOFF, {
    about: 'x',
    asked: ['invoice'],
    done: [],
    open: [],
    openEmpty: true,
    edited: ['payments.ts'],
    mustNot: [{ text: 'failed on its last run' }],
  });
  assert.deepEqual(
    bad.filter((c) => !c.ok).map((c) => c.check),
    ['Asked mentions invoice', 'nothing is left open', 'edited: payments.ts', 'no "failed on its last run" in all'],
  );
  assert.deepEqual(listedFiles(HANDOFF, 'edited'), ['src/payments.ts', 'test/payments.spec.ts']);
});

test('every real transcript has an expectation file, and every expectation file a transcript', (t) => {
  if (!existsSync(DEFAULT_TRANSCRIPTS)) {
    t.skip('skipped: no real transcripts at ../shared/realdata/transcripts (CI keeps them beside the repository)');
    return;
  }
  const transcripts = [DEFAULT_TRANSCRIPTS, FIXTURE_TRANSCRIPTS].flatMap((d) => readdirSync(d).filter((f) => f.endsWith('.jsonl')));
  const expectations = readdirSync(EXPECTATIONS).map((f) => f.replace(/\.json$/, ''));
  assert.deepEqual([...expectations].sort(), [...transcripts].sort());
});

test('the sessions made with the real CLI pass their hand-off expectations, read whole and in four parts', async () => {
  const result = await gradeFolder(FIXTURE_TRANSCRIPTS, { parts: 4 });
  assert.deepEqual(result.missing, []);
  assert.ok(result.rows.length > 0);
  for (const r of result.rows) {
    assert.deepEqual(
      r.checks.filter((c) => !c.ok).map((c) => c.check),
      [],
      `${r.transcript}\n${r.handoff}`,
    );
    assert.equal(r.passedInParts, r.total, `${r.transcript}: read in parts`);
    assert.ok(r.sameFinalState, `${r.transcript}: the parts give another Open or Files section`);
  }
});

test('every real transcript passes its hand-off expectations, read whole and in four parts as the hooks read it', async (t) => {
  if (!existsSync(DEFAULT_TRANSCRIPTS)) {
    t.skip('skipped: no real transcripts at ../shared/realdata/transcripts (CI keeps them beside the repository)');
    return;
  }
  const result = await gradeFolder(DEFAULT_TRANSCRIPTS, { parts: 4 });
  assert.deepEqual(result.missing, []);
  for (const r of result.rows) {
    const failed = r.checks.filter((c) => !c.ok).map((c) => c.check);
    assert.deepEqual(failed, [], `${r.transcript}\n${r.handoff}`);
    assert.equal(r.passedInParts, r.total, `${r.transcript}: read in parts`);
    assert.ok(r.sameFinalState, `${r.transcript}: the parts give another Open or Files section`);
  }
  assert.equal(result.mean, 5);
});
