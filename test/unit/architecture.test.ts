// ARCHITECTURE.md is the map a newcomer uses: it must name every source file,
// and the layers it describes must hold in the imports.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const SRC = join(REPO, 'src');
const map = readFileSync(join(REPO, 'ARCHITECTURE.md'), 'utf8');

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? tsFiles(p) : n.endsWith('.ts') ? [p] : [];
  });
}
const files = tsFiles(SRC).map((f) => relative(SRC, f));

/** Relative imports of a file, as paths under src/. */
function imports(file: string): string[] {
  const text = readFileSync(join(SRC, file), 'utf8');
  return [...text.matchAll(/(?:from|import\()\s*'(\.[^']+)'/g)].map((m) => relative(SRC, resolve(dirname(join(SRC, file)), m[1]!)));
}

test('ARCHITECTURE.md names every source file', () => {
  const missing = files.filter((f) => {
    const name = f.split('/').pop()!;
    if (f.startsWith('hooks/entries/')) return !map.includes('entries/*.ts');
    if (f.startsWith('cli/commands/')) return !map.includes('commands/cmd-*.ts');
    return !map.includes(name);
  });
  assert.deepEqual(missing, []);
});

test('every file ARCHITECTURE.md names exists', () => {
  // Source files, and the scripts and test helpers it points to.
  const others = [join(REPO, 'scripts'), join(REPO, 'test')].flatMap(tsFiles);
  const names = new Set([...files, ...others].map((f) => f.split('/').pop()!));
  const named = [...map.matchAll(/(?<![\w.-])([a-z][a-z0-9-]*\.ts)\b/g)].map((m) => m[1]!);
  const ghosts = named.filter(
    (n) => !names.has(n) && !/^(build|bench|grade-handoffs|handoff-grading)\.ts$/.test(n) && !n.endsWith('.test.ts'),
  );
  assert.deepEqual([...new Set(ghosts)], []);
});

const LAYER_ORDER = ['cli', 'hooks', 'store', 'core'];
const layer = (f: string) => LAYER_ORDER.indexOf(f.split('/')[0]!);

test('imports point down the layers: cli and hooks → store → core, never back up', () => {
  const wrong: string[] = [];
  for (const f of files) {
    for (const target of imports(f)) {
      const [from, to] = [layer(f), layer(target)];
      // The CLI's status lists the hooks from their registry (metadata, no hook code).
      if (f.startsWith('cli/') && target === 'hooks/hook-registry.ts') continue;
      if (to < from || (from !== to && from < 2 && to < 2)) wrong.push(`${f} → ${target}`);
    }
  }
  assert.deepEqual(wrong, []);
});

test('the core touches no file system, process or clock', () => {
  const impure: string[] = [];
  for (const f of files.filter((x) => x.startsWith('core/'))) {
    const text = readFileSync(join(SRC, f), 'utf8');
    if (/from 'node:(fs|child_process|os)|process\.|Date\.now\(\)|new Date\(\)/.test(text)) impure.push(f);
  }
  assert.deepEqual(impure, []);
});

test('inside the core, concepts depend downwards: report → team → recall → remembrance → capture → session → adopt → lifecycle → transcript → security → entry → text', () => {
  const order = [
    'report',
    'team',
    'recall',
    'remembrance',
    'capture',
    'session',
    'adopt',
    'lifecycle',
    'transcript',
    'security',
    'config',
    'entry',
  ];
  const rank = (f: string) => (f.startsWith('core/') && f.split('/').length > 2 ? order.indexOf(f.split('/')[1]!) : order.length);
  const wrong: string[] = [];
  for (const f of files.filter((x) => x.startsWith('core/'))) {
    for (const target of imports(f)) if (target.startsWith('core/') && rank(target) < rank(f)) wrong.push(`${f} → ${target}`);
  }
  assert.deepEqual(wrong, []);
});
