// What team mode shares and keeps personal (the store's .gitignore and
// .gitattributes), the merge driver's command, setting one config key, and
// git's conflict markers in a memory file.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withEchoesKey } from '../../src/core/config/config-edit.ts';
import { parseEchoDocument, serializeEchoDocument } from '../../src/core/entry/echo-document.ts';
import { EchoesError } from '../../src/core/errors.ts';
import {
  driverCommand,
  driverLacksFallback,
  driverPaths,
  PERSONAL_PATTERNS,
  planStoreGitattributes,
  planStoreGitignore,
  shellWord,
} from '../../src/core/team/shared-files.ts';

test('a new store .gitignore lists every personal file; a complete one needs nothing', () => {
  const text = planStoreGitignore(null)!;
  for (const p of [
    '/EPHEMERAL.md',
    '/ARCHIVE.md',
    '/memories/',
    '/usage.jsonl',
    '.state/',
    '.locks/',
    '.log',
    '*-findings.md',
    '/*/archive/MEMORY-*.md',
  ])
    assert.match(text, new RegExp(`^${p.replace(/[.*/]/g, (c) => `\\${c}`)}$`, 'm'), p);
  assert.equal(planStoreGitignore(text), null);
  assert.equal(text.split('\n').filter((l) => l && !l.startsWith('#')).length, PERSONAL_PATTERNS.length);
});

test('an older store .gitignore keeps every byte and gains only the missing lines, the same in every clone', () => {
  const old = '# Rune Echoes bookkeeping\n.state/\n.locks/\n.log\nmemories/.locks/\n';
  const next = planStoreGitignore(old)!;
  assert.ok(next.startsWith(old));
  assert.doesNotMatch(next.slice(old.length), /\.state\/|\.locks\/\n|^\.log$/m, 'lines already there are not repeated');
  assert.equal(planStoreGitignore(next), null);
  assert.equal(planStoreGitignore('a\r\nb'), `a\r\nb\r\n${PERSONAL_PATTERNS.map((p) => p.pattern).join('\r\n')}\r\n`);
});

test('the store .gitattributes sends MEMORY.md, knowledge.md and archive files to the rune-echoes driver', () => {
  const text = planStoreGitattributes(null)!;
  assert.match(text, /^\/\*\/MEMORY\.md merge=rune-echoes$/m);
  assert.match(text, /^\/\*\/knowledge\.md merge=rune-echoes$/m);
  assert.match(text, /^\/\*\/archive\/\*\.md merge=rune-echoes$/m);
  assert.equal(planStoreGitattributes(`*.png binary\n${text}`), null);
});

test('the driver command quotes paths for the shell and reads back the paths it runs', () => {
  assert.equal(shellWord('/usr/bin/node'), '/usr/bin/node');
  assert.equal(shellWord("/home/o'neil/my plugin/cli.mjs"), `'/home/o'\\''neil/my plugin/cli.mjs'`);
  const command = driverCommand('/opt/node 20/bin/node', "/home/o'neil/.claude/plugins/rune/dist/cli.mjs");
  assert.ok(
    command.startsWith(`'/opt/node 20/bin/node' '/home/o'\\''neil/.claude/plugins/rune/dist/cli.mjs' merge-file %O %A %B %P || `),
    command,
  );
  // When the CLI is gone (exit without its own markers in %A), git's own merge leaves markers: no side is dropped.
  assert.match(command, /git merge-file -L ours -L ancestor -L theirs %A %O %B/);
  assert.equal(driverLacksFallback(command), false);
  assert.equal(driverLacksFallback(`'/usr/bin/node' '/p/cli.mjs' merge-file %O %A %B %P`), true, 'an older install');
  assert.equal(driverLacksFallback('my-merge-tool %O %A %B'), false, 'not ours');
  assert.deepEqual(driverPaths(command), ['/opt/node 20/bin/node', "/home/o'neil/.claude/plugins/rune/dist/cli.mjs"]);
  assert.equal(driverPaths('my-merge-tool %O %A %B'), null, 'a command someone else wrote');
  assert.deepEqual(driverPaths('rune-echoes merge-file %O %A %B'), [], 'found on PATH: nothing to check');
});

test('withEchoesKey sets one key and keeps comments, order and every other key', () => {
  assert.equal(withEchoesKey(null, 'version_controlled', true), 'echoes:\n  version_controlled: true\n');
  assert.equal(
    withEchoesKey('# team settings\nechoes:\n  inject: true # on\n  version_controlled: false\n', 'version_controlled', true),
    '# team settings\nechoes:\n  inject: true # on\n  version_controlled: true\n',
  );
  assert.equal(withEchoesKey('echoes:\n', 'version_controlled', true), 'echoes:\n  version_controlled: true\n');
  assert.equal(withEchoesKey('echoes:\n  version_controlled: true\n', 'version_controlled', true), null);
});

test('withEchoesKey refuses a file it would have to rewrite: invalid YAML, or echoes that is not a mapping', () => {
  for (const text of ['echoes: [1\n', 'echoes: 3\n', '- a list\n']) {
    assert.throws(
      () => withEchoesKey(text, 'version_controlled', true),
      (err: unknown) => err instanceof EchoesError && err.code === 'refused' && /by hand/.test(err.message),
      text,
    );
  }
});

const CONFLICTED = [
  '<!-- echo-schema: v2 -->',
  '# Team Memory',
  '',
  '<<<<<<< HEAD',
  '### [2026-01-01] Pattern: Ours',
  '- **id**: ours',
  '- **layer**: inscribed',
  '=======',
  '### [2026-01-01] Pattern: Theirs',
  '- **id**: theirs',
  '>>>>>>> origin/main',
  '- **confidence**: 0.8',
  '- shared tail',
  '',
].join('\n');

test('conflict markers end entries, stay text, and are reported with the lines of their region', () => {
  const doc = parseEchoDocument(CONFLICTED);
  assert.equal(serializeEchoDocument(doc), CONFLICTED, 'read back byte for byte');
  assert.deepEqual(
    doc.blocks.filter((b) => b.type === 'entry').map((b) => b.type === 'entry' && b.entry.id),
    ['ours', 'theirs'],
  );
  for (const b of doc.blocks) if (b.type === 'entry') assert.doesNotMatch(b.text, /^(<{7}|={7}|>{7})/m, 'no marker inside an entry');
  const conflicts = doc.issues.filter((i) => i.code === 'merge-conflict');
  assert.deepEqual(
    conflicts.map((i) => [i.line, i.message]),
    [[4, 'unresolved merge conflict, lines 4–11: keep what is right and delete the marker lines']],
  );
});

test('a region never closed is reported from its first line; a lone ======= underline or a marker in a code fence is just text', () => {
  const open = parseEchoDocument('# M\n<<<<<<< HEAD\nours\n');
  assert.deepEqual(
    open.issues.map((i) => [i.code, i.line]),
    [['merge-conflict', 2]],
  );
  assert.match(open.issues[0]!.message, /never closed/);
  const prose = parseEchoDocument('# M\nTitle\n=======\n\n```\n<<<<<<< HEAD\n=======\n>>>>>>> x\n```\n');
  assert.deepEqual(prose.issues, []);
});
