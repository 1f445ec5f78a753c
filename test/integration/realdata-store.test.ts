// Real memory files written by other people (../shared/realdata/memory), put
// into a temporary store at test time (never copied into this repository):
// `show` reads what it can as entries and says how many blocks it kept
// verbatim; consolidation adds an entry and keeps every original line.

import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO, runCliSync } from '../helpers/run-bundle.ts';

const REAL = join(REPO, '..', 'shared', 'realdata', 'memory');

test('show reads real memory files as entries and counts the blocks kept verbatim', (t) => {
  if (!existsSync(REAL)) return t.skip('realdata not present');
  const root = mkdtempSync(join(tmpdir(), 'rune-real-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const files = readdirSync(REAL)
    .filter((f) => f.endsWith('.md'))
    .sort();
  const roles = files.map((_, i) => `real-${i}`);
  files.forEach((f, i) => {
    mkdirSync(join(root, '.claude', 'echoes', roles[i]!), { recursive: true });
    copyFileSync(join(REAL, f), join(root, '.claude', 'echoes', roles[i]!, 'MEMORY.md'));
  });
  const env = { HOME: join(root, 'home') };
  const r = runCliSync(['show', '--json'], { cwd: root, env });
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { roles: Array<{ role: string; entries: number; verbatimBlocks: number; lines: number }> };
  assert.equal(out.roles.length, files.length);
  const byFile = new Map(out.roles.map((x) => [files[roles.indexOf(x.role)]!, x]));
  for (const [file, x] of byFile) t.diagnostic(`${file}: ${x.entries} entries, ${x.verbatimBlocks} verbatim blocks, ${x.lines} lines`);
  for (const [file, x] of byFile) {
    if (file.startsWith('vinhnxv__rune__')) assert.ok(x.entries > 0, `${file} has Rune entries`);
    assert.ok(x.entries + x.verbatimBlocks > 0, `${file} is read`);
  }
  const text = runCliSync(['show', 'real-0'], { cwd: root, env });
  assert.equal(text.code, 0);
  assert.match(text.stdout, /blocks kept verbatim|entries/);

  // Consolidating a finding into each real file keeps every original line, in order.
  for (const role of roles) {
    const before = readFileSync(join(root, '.claude', 'echoes', role, 'MEMORY.md'), 'utf8');
    const rec = runCliSync(
      [
        'record',
        '--role',
        role,
        '--agent',
        'tester',
        '--pattern',
        'Real file append check',
        '--evidence',
        '`src/x.ts:1`',
        'A new learning.',
      ],
      { cwd: root, env },
    );
    assert.equal(rec.code, 0, rec.stderr);
    assert.equal(runCliSync(['consolidate', '--role', role], { cwd: root, env }).code, 0);
    const after = readFileSync(join(root, '.claude', 'echoes', role, 'MEMORY.md'), 'utf8');
    assert.ok(after.startsWith(before.replace(/\s*$/, '')), `${role}: original text kept as a prefix`);
    assert.match(after, /Real file append check/);
  }
  writeFileSync(join(root, 'done'), '');
});
