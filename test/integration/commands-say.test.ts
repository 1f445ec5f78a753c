// Issue 20, items 9–15: commands do what they say.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cliJson, cliOk, runCli } from '../helpers/cli-run.ts';
import { makeTempProject } from '../helpers/temp-project.ts';

const LOGGER = [
  '<!-- echo-schema: v2 -->',
  '# Team Memory',
  '',
  '### [2026-04-20] Pattern: Redact the Authorization header in the logger',
  '- **id**: redact-the-authorization-header-in-the-logger',
  '- **layer**: inscribed',
  '- **evidence**: `src/logger.ts:14` — the request logger',
  '- **verified**: 2026-04-20',
  '- The request logger printed bearer tokens until it dropped the header.',
  '',
].join('\n');

test('remember --layer etched on an existing entry etches it, and slightly different text adds no near-duplicate', async (t) => {
  const tp = makeTempProject(t);
  tp.write('.claude/echoes/team/MEMORY.md', LOGGER);
  const id = 'redact-the-authorization-header-in-the-logger';
  const out = await cliOk(tp, ['remember', '--layer', 'etched', 'Redact the Authorization header in the logger']);
  assert.equal(out, `already known, refreshed team/${id} (etched)\n`);
  const memory = tp.read('.claude/echoes/team/MEMORY.md')!;
  assert.match(memory, /- \*\*layer\*\*: etched/);
  assert.doesNotMatch(memory, /- \*\*layer\*\*: inscribed/);
  assert.match(memory, /- \*\*evidence\*\*: `src\/logger\.ts:14` — the request logger/, 'the evidence stays');

  const again = await cliJson(tp, [
    'remember',
    '--layer',
    'etched',
    'Redact the Authorization header in the logger. Tokens must never reach the log.',
  ]);
  assert.deepEqual({ id: again.id, layer: again.layer }, { id, layer: 'etched' });
  const items = (await cliJson(tp, ['show', 'team'])).roles[0].items;
  assert.deepEqual(
    items.map((i: { id: string; layer: string }) => [i.id, i.layer]),
    [[id, 'etched']],
    'one entry, no …-2',
  );
  assert.match(items[0].learning, /Tokens must never reach the log\./, 'what the user added is kept');

  // A new entry remembered as etched is etched; one remembered without --layer stays inscribed.
  assert.match(await cliOk(tp, ['remember', '--layer', 'etched', 'The service runs on Node 22.']), /\(etched\)\n$/);
  assert.match(await cliOk(tp, ['remember', 'Prefer small pull requests.']), /\(inscribed\)\n$/);
});

test('remember without --layer on an etched entry leaves it etched and says so', async (t) => {
  const tp = makeTempProject(t);
  tp.write('.claude/echoes/team/MEMORY.md', LOGGER.replace('- **layer**: inscribed', '- **layer**: etched'));
  const out = await runCli(tp, ['remember', 'Redact the Authorization header in the logger']);
  assert.equal(out.stdout, 'already known, refreshed team/redact-the-authorization-header-in-the-logger (etched)\n');
  assert.match(tp.read('.claude/echoes/team/MEMORY.md')!, /- \*\*layer\*\*: etched/);
});

test('migrate --rename renames a cited path, and the dry run says how to apply the same renames', async (t) => {
  const tp = makeTempProject(t);
  const entry = (id: string, evidence: string) => [
    `### [2026-04-20] Pattern: ${id}`,
    `- **id**: ${id}`,
    '- **layer**: inscribed',
    `- **evidence**: ${evidence}`,
    '- It rounds.',
    '',
  ];
  tp.write(
    '.claude/echoes/team/MEMORY.md',
    [
      '<!-- echo-schema: v2 -->',
      '# Team Memory',
      '',
      ...entry('rounding', '`src/money.js:12` — rounding'),
      ...entry('currency', '`src/money.js` — currency codes'),
    ].join('\n'),
  );
  const dry = await cliOk(tp, ['migrate', '--rename', 'src/money.js=lib/money.js', '--dry-run']);
  assert.doesNotMatch(dry, /Everything is up to date/);
  assert.match(dry, /2 changes/);
  assert.match(dry, /Run `rune-echoes migrate --rename src\/money\.js=lib\/money\.js` \(without --dry-run\) to apply/);
  await cliOk(tp, ['migrate', '--rename', 'src/money.js=lib/money.js']);
  const memory = tp.read('.claude/echoes/team/MEMORY.md')!;
  assert.match(memory, /`lib\/money\.js:12` — rounding/);
  assert.match(memory, /`lib\/money\.js` — currency codes/);
  assert.doesNotMatch(memory, /src\/money/);
  assert.match(
    await cliOk(tp, ['migrate', '--rename', 'src/money.js=lib/money.js']),
    /Everything is up to date/,
    'a second run changes nothing',
  );
});
