// Search and prompt recall decide which entries a `supersedes` retired from
// the index's manifest alone; `show`, the digest and consolidation decide from
// the entries. Random claim graphs across roles — self claims, mutual pairs,
// longer cycles, chains, retracted claimers, same-day ties — must give the
// same answer both ways.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { renderEntry } from '../../src/core/entry/echo-document.ts';
import { retiredEntries } from '../../src/core/lifecycle/supersession.ts';
import { retiredKeys } from '../../src/store/recall/search-index.ts';
import { updateIndex } from '../../src/store/recall/search-indexer.ts';
import { makeTempProject } from '../helpers/temp-project.ts';
import { makeEntry } from '../unit/entry-arbitrary.ts';

const ROLES = ['planner', 'reviewer', 'team'];

test('the index and the entries agree on what supersedes retires, on random claim graphs', async (t) => {
  const tp = makeTempProject(t);
  const node = fc.record({
    role: fc.constantFrom(...ROLES),
    day: fc.integer({ min: 1, max: 4 }),
    retracted: fc.boolean(),
    targets: fc.array(fc.record({ n: fc.nat(7), role: fc.option(fc.constantFrom(...ROLES), { nil: undefined }) }), { maxLength: 2 }),
  });
  let round = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(node, { minLength: 1, maxLength: 8 }), async (nodes) => {
      round++;
      const items = nodes.map((n, i) => ({
        role: n.role,
        entry: makeEntry({
          id: `e${i}`,
          title: `Entry ${i}`,
          date: `2026-03-0${n.day}`,
          verified: `2026-03-0${n.day}`,
          ...(n.retracted && i % 3 === 0 ? { status: 'retracted' as const } : {}),
          supersedes: n.targets.length ? n.targets.map((x) => (x.role ? `${x.role}#e${x.n}` : `e${x.n}`)).join(', ') : 'none',
        }),
      }));
      const echoes = join(tp.dir, '.claude', 'echoes');
      for (const role of ROLES) {
        mkdirSync(join(echoes, role), { recursive: true });
        const mine = items.filter((it) => it.role === role).map((it) => renderEntry(it.entry));
        writeFileSync(join(echoes, role, 'MEMORY.md'), `<!-- echo-schema: v2 -->\n# ${role} Memory\n\n${mine.join('\n')}`);
      }
      const m = updateIndex(tp.paths, { force: true }).manifest;
      assert.deepEqual([...retiredKeys(m)].sort(), [...retiredEntries(items).keys()].sort(), `round ${round}`);
    }),
    { numRuns: 60 },
  );
});
