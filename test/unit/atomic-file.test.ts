import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs, { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { EchoesError } from '../../src/core/errors.ts';
import {
  appendLine,
  createFileExclusive,
  ensureDir,
  readTextFile,
  readTextOrNull,
  removeFile,
  writeFileAtomic,
} from '../../src/store/fs/atomic-file.ts';
import { makeTempProject } from '../helpers/temp-project.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const ATOMIC = join(REPO, 'src/store/fs/atomic-file.ts');
const PATHS = join(REPO, 'src/store/fs/echo-paths.ts');

/** Runs ESM code in a fresh node process with tsx; resolves with its stdout. */
function runNode(code: string, args: string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code, '--', ...args], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (exitCode) => resolve({ code: exitCode, stdout, stderr }));
  });
}

/** Replaces an fs function for the duration of `fn`, also for modules that imported it by name. */
function withPatchedFs<K extends keyof typeof fs>(name: K, replacement: (typeof fs)[K], fn: () => void): void {
  const original = fs[name];
  (fs as Record<string, unknown>)[name] = replacement;
  syncBuiltinESMExports();
  try {
    fn();
  } finally {
    (fs as Record<string, unknown>)[name] = original;
    syncBuiltinESMExports();
  }
}

const tempFiles = (dir: string) => readdirSync(dir).filter((n) => n.endsWith('.tmp'));

test('writeFileAtomic creates missing folders and writes the exact bytes', (t) => {
  const tp = makeTempProject(t);
  const target = join(tp.paths.echoes, 'reviewer', 'MEMORY.md');
  writeFileAtomic(tp.paths, target, 'héllo\r\nwörld\n');
  assert.equal(readFileSync(target, 'utf8'), 'héllo\r\nwörld\n');
  writeFileAtomic(tp.paths, target, new Uint8Array([0x61, 0x62]));
  assert.equal(readFileSync(target, 'utf8'), 'ab');
  writeFileAtomic(tp.paths, target, '');
  assert.equal(readFileSync(target, 'utf8'), '');
});

test('writeFileAtomic replaces a file and leaves no temp files beside it, after many writes', (t) => {
  const tp = makeTempProject(t);
  const dir = join(tp.paths.echoes, 'reviewer');
  const target = join(dir, 'MEMORY.md');
  for (let i = 0; i < 50; i++) writeFileAtomic(tp.paths, target, `version ${i}\n`);
  assert.equal(readFileSync(target, 'utf8'), 'version 49\n');
  assert.deepEqual(readdirSync(dir), ['MEMORY.md']);
});

test('writeFileAtomic that fails to rename (the target is a folder) throws and leaves no temp file', (t) => {
  const tp = makeTempProject(t);
  const dir = join(tp.paths.echoes, 'reviewer');
  mkdirSync(join(dir, 'MEMORY.md', 'inside'), { recursive: true });
  assert.throws(() => writeFileAtomic(tp.paths, join(dir, 'MEMORY.md'), 'x'));
  assert.deepEqual(tempFiles(dir), []);
  assert.deepEqual(readdirSync(join(dir, 'MEMORY.md')), ['inside']);
});

test('writeFileAtomic that fails while writing leaves the old file whole and no temp file', (t) => {
  const tp = makeTempProject(t);
  const dir = join(tp.paths.echoes, 'reviewer');
  const target = join(dir, 'MEMORY.md');
  writeFileAtomic(tp.paths, target, 'old content\n');
  const enospc = () => {
    throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  };
  withPatchedFs('writeSync', enospc as typeof fs.writeSync, () => {
    assert.throws(() => writeFileAtomic(tp.paths, target, 'new content\n'), /ENOSPC/);
  });
  assert.equal(readFileSync(target, 'utf8'), 'old content\n');
  assert.deepEqual(tempFiles(dir), []);
});

test('writeFileAtomic writes all the data even when the OS takes it in small pieces', (t) => {
  const tp = makeTempProject(t);
  const target = join(tp.paths.echoes, 'reviewer', 'MEMORY.md');
  const original = fs.writeSync;
  // POSIX lets write() take fewer bytes than asked (e.g. near a full disk); the rest must still be written.
  const short = ((fd: number, buffer: NodeJS.ArrayBufferView, offset?: number, length?: number, position?: number | null) => {
    const bytes = Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength);
    const start = offset ?? 0;
    const len = Math.min(length ?? bytes.length - start, 7);
    return original(fd, bytes, start, len, position);
  }) as typeof fs.writeSync;
  const data = 'a memory file that is longer than seven bytes — with ünïcödé\n'.repeat(20);
  withPatchedFs('writeSync', short, () => {
    writeFileAtomic(tp.paths, target, data);
    assert.equal(createFileExclusive(tp.paths, join(tp.paths.echoes, 'reviewer', 'archive', 'MEMORY-2026-01-01.md'), data), true);
  });
  assert.equal(readFileSync(target, 'utf8'), data);
  assert.equal(readFileSync(join(tp.paths.echoes, 'reviewer', 'archive', 'MEMORY-2026-01-01.md'), 'utf8'), data);
});

test('createFileExclusive creates a new file and never overwrites an existing one', (t) => {
  const tp = makeTempProject(t);
  const dir = join(tp.paths.echoes, 'reviewer', 'archive');
  const target = join(dir, 'MEMORY-2026-05-01.md');
  assert.equal(createFileExclusive(tp.paths, target, 'first'), true);
  for (let i = 0; i < 20; i++) assert.equal(createFileExclusive(tp.paths, target, `attempt ${i}`), false);
  assert.equal(readFileSync(target, 'utf8'), 'first');
  assert.deepEqual(readdirSync(dir), ['MEMORY-2026-05-01.md'], 'no temp files, won or lost');
});

test('createFileExclusive does not replace a folder, or a file written by someone else, of that name', (t) => {
  const tp = makeTempProject(t);
  const dir = join(tp.paths.echoes, 'reviewer', 'archive');
  mkdirSync(join(dir, 'taken-dir'), { recursive: true });
  writeFileSync(join(dir, 'taken-file.md'), 'by hand');
  assert.equal(createFileExclusive(tp.paths, join(dir, 'taken-dir'), 'x'), false);
  assert.equal(createFileExclusive(tp.paths, join(dir, 'taken-file.md'), 'x'), false);
  assert.equal(readFileSync(join(dir, 'taken-file.md'), 'utf8'), 'by hand');
  assert.deepEqual(readdirSync(dir).sort(), ['taken-dir', 'taken-file.md']);
});

test('createFileExclusive that fails while writing leaves no temp file behind', (t) => {
  const tp = makeTempProject(t);
  const dir = join(tp.paths.echoes, 'reviewer', 'archive');
  mkdirSync(dir, { recursive: true });
  const enospc = () => {
    throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  };
  withPatchedFs('writeSync', enospc as typeof fs.writeSync, () => {
    assert.throws(() => createFileExclusive(tp.paths, join(dir, 'MEMORY-2026-05-01.md'), 'data'), /ENOSPC/);
  });
  assert.deepEqual(readdirSync(dir), []);
});

test("createFileExclusive from many processes at once: each name gets exactly one winner, with the winner's whole text", async (t) => {
  const tp = makeTempProject(t);
  const dir = join(tp.paths.echoes, 'team', 'archive');
  const names = 30;
  const code = `
    import { createFileExclusive } from ${JSON.stringify(ATOMIC)};
    import { echoPaths } from ${JSON.stringify(PATHS)};
    import { join } from 'node:path';
    const [project, dir, who, names] = process.argv.slice(-4);
    const paths = echoPaths(project, { sessionScope: 'project' }, join(project, 'home'));
    const won = [];
    for (let i = 0; i < Number(names); i++) {
      if (createFileExclusive(paths, join(dir, 'log-' + i + '.md'), ('writer ' + who + ' ').repeat(2000))) won.push(i);
    }
    process.stdout.write(JSON.stringify(won));
  `;
  const runs = await Promise.all(Array.from({ length: 5 }, (_, w) => runNode(code, [tp.dir, dir, String(w), String(names)])));
  const winners = new Map<number, number>();
  runs.forEach((r, w) => {
    assert.equal(r.code, 0, r.stderr);
    for (const i of JSON.parse(r.stdout) as number[]) {
      assert.equal(winners.has(i), false, `log-${i} won twice`);
      winners.set(i, w);
    }
  });
  assert.equal(winners.size, names);
  for (const [i, w] of winners) assert.equal(readFileSync(join(dir, `log-${i}.md`), 'utf8'), `writer ${w} `.repeat(2000));
  assert.deepEqual(tempFiles(dir), []);
});

test('a reader in another process sees the old file or the new one, never a mix', async (t) => {
  const tp = makeTempProject(t);
  const target = join(tp.paths.echoes, 'team', 'MEMORY.md');
  const stop = join(tp.dir, 'stop');
  const A = 'a'.repeat(200_000);
  const B = 'b'.repeat(150_000);
  writeFileAtomic(tp.paths, target, A);
  const reader = runNode(
    `
    import { readFileSync, existsSync } from 'node:fs';
    const [target, stop] = process.argv.slice(-2);
    const seen = { a: 0, b: 0, bad: 0 };
    process.stdout.write('ready\\n');
    while (!existsSync(stop)) {
      const text = readFileSync(target, 'utf8');
      if (text === 'a'.repeat(200000)) seen.a++;
      else if (text === 'b'.repeat(150000)) seen.b++;
      else seen.bad++;
    }
    process.stdout.write(JSON.stringify(seen));
  `,
    [target, stop],
  );
  // Give the reader a head start by writing until it has had time to loop; the check is on content only.
  for (let i = 0; i < 400; i++) writeFileAtomic(tp.paths, target, i % 2 ? A : B);
  writeFileSync(stop, '');
  const r = await reader;
  assert.equal(r.code, 0, r.stderr);
  const seen = JSON.parse(r.stdout.split('\n').pop()!) as { a: number; b: number; bad: number };
  assert.equal(seen.bad, 0, JSON.stringify(seen));
  assert.ok(seen.a + seen.b > 0);
});

test('appendLine adds a newline when missing and never doubles it', (t) => {
  const tp = makeTempProject(t);
  appendLine(tp.paths, tp.paths.usageLog, '{"a":1}');
  appendLine(tp.paths, tp.paths.usageLog, '{"b":2}\n');
  assert.equal(readFileSync(tp.paths.usageLog, 'utf8'), '{"a":1}\n{"b":2}\n');
});

test('readTextOrNull is null only for a missing file', (t) => {
  const tp = makeTempProject(t);
  assert.equal(readTextOrNull(tp.paths, join(tp.paths.echoes, 'missing.md')), null);
  tp.write('.claude/echoes/present.md', '');
  assert.equal(readTextOrNull(tp.paths, join(tp.paths.echoes, 'present.md')), '');
  assert.throws(() => readTextOrNull(tp.paths, tp.paths.echoes));
});

test('reads refuse a store file that is a symlink leading out of the memory folders', (t) => {
  const tp = makeTempProject(t);
  const outside = tp.write('home/.aws/credentials', '[default]\naws_secret_access_key = x\n');
  mkdirSync(tp.paths.echoes, { recursive: true });
  symlinkSync(outside, join(tp.paths.echoes, 'EPHEMERAL.md'));
  assert.throws(() => readTextOrNull(tp.paths, join(tp.paths.echoes, 'EPHEMERAL.md')), /outside/);
  assert.throws(() => readTextFile(tp.paths, join(tp.paths.echoes, 'EPHEMERAL.md')), /outside/);
  assert.throws(() => readTextOrNull(tp.paths, outside), /outside the memory folders/);
  // A link that stays inside the store is fine.
  tp.write('.claude/echoes/reviewer/MEMORY.md', 'x');
  symlinkSync(join(tp.paths.echoes, 'reviewer', 'MEMORY.md'), join(tp.paths.echoes, 'alias.md'));
  assert.equal(readTextOrNull(tp.paths, join(tp.paths.echoes, 'alias.md')), 'x');
});

test('removeFile removes inside the store, ignores a missing file, and refuses outside', (t) => {
  const tp = makeTempProject(t);
  const f = tp.write('.claude/echoes/reviewer/a-findings.md', 'x');
  removeFile(tp.paths, f);
  assert.equal(existsSync(f), false);
  removeFile(tp.paths, f);
  const outside = tp.write('src/keep.ts', 'keep');
  assert.throws(
    () => removeFile(tp.paths, outside),
    (e: unknown) => e instanceof EchoesError && e.code === 'unsafe-path',
  );
  assert.equal(readFileSync(outside, 'utf8'), 'keep');
});

test('every writer refuses targets outside the memory folders and writes nothing there', (t) => {
  const tp = makeTempProject(t);
  const unsafe = (e: unknown) => e instanceof EchoesError && e.code === 'unsafe-path';
  const outside = join(tp.dir, 'src', 'x.ts');
  assert.throws(() => writeFileAtomic(tp.paths, outside, 'x'), unsafe);
  assert.throws(() => createFileExclusive(tp.paths, outside, 'x'), unsafe);
  assert.throws(() => appendLine(tp.paths, outside, 'x'), unsafe);
  assert.throws(() => ensureDir(tp.paths, join(tp.dir, 'src')), unsafe);
  symlinkSync('/tmp', join(tp.dir, 'link'));
  assert.throws(() => writeFileAtomic(tp.paths, join(tp.dir, 'link', 'x'), 'x'), unsafe);
  assert.deepEqual([...tp.snapshot().keys()], ['link']);
});
