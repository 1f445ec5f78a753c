// `rune-echoes report` as a command: where it writes, what it prints, what it
// refuses; the page stays personal (git-ignored alone and with team memory)
// and is never read back as memory.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { cliJson, cliOk, runCli } from '../helpers/cli-run.ts';
import { makeOrigin } from '../helpers/git-clones.ts';
import { typicalReportStore } from '../helpers/report-stores.ts';
import { makeTempProject, type TempProject } from '../helpers/temp-project.ts';

const NOW = new Date('2026-05-01T10:00:00Z');

test('report writes .claude/echoes/report.html by default and prints its path', async (t) => {
  const tp = makeTempProject(t);
  typicalReportStore(tp.dir, NOW);
  const out = await cliOk(tp, ['report'], { now: NOW });
  const path = join(tp.dir, '.claude', 'echoes', 'report.html');
  assert.equal(out, `${path}\n`);
  const page = readFileSync(path, 'utf8');
  assert.match(page, /^<!DOCTYPE html>/);
  assert.match(page, /data-figure="roles">4</);
  assert.match(page, /made 2026-05-01 10:00 UTC/);
  const json = await cliJson(tp, ['report'], { now: NOW });
  assert.equal(json.report, path);
  assert.equal(json.bytes, Buffer.byteLength(readFileSync(path, 'utf8')));
});

test('report --out writes where it is told; a name that is not .html or a missing folder is refused', async (t) => {
  const tp = makeTempProject(t);
  typicalReportStore(tp.dir, NOW);
  mkdirSync(join(tp.dir, 'out'));
  assert.equal(await cliOk(tp, ['report', '--out', 'out/memory.html'], { now: NOW }), `${join(tp.dir, 'out', 'memory.html')}\n`);
  assert.ok(existsSync(join(tp.dir, 'out', 'memory.html')));
  assert.ok(!existsSync(join(tp.dir, '.claude', 'echoes', 'report.html')));
  const notHtml = await runCli(tp, ['report', '--out', '.claude/echoes/team/MEMORY.md'], { now: NOW });
  assert.equal(notHtml.code, 1);
  assert.match(notHtml.stderr, /--out must name an \.html file/);
  const missing = await runCli(tp, ['report', '--out', 'nowhere/r.html'], { now: NOW });
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /does not exist/);
});

test('an empty project gets a report that says there is nothing yet', async (t) => {
  const tp = makeTempProject(t);
  mkdirSync(join(tp.dir, '.claude'), { recursive: true });
  await cliOk(tp, ['report'], { now: NOW });
  assert.match(tp.read('.claude/echoes/report.html') ?? '', /No roles yet/);
});

test('the report is never read back as memory: not a role, not searched, not in show', async (t) => {
  const tp: TempProject = makeTempProject(t);
  typicalReportStore(tp.dir, NOW);
  await cliOk(tp, ['report'], { now: NOW });
  // A word that is only on the page.
  assert.ok(readFileSync(join(tp.dir, '.claude', 'echoes', 'report.html'), 'utf8').includes('Hand-off history'));
  const search = await cliJson(tp, ['search', 'Hand-off', 'history'], { now: NOW });
  assert.ok(!JSON.stringify(search).includes('report.html'));
  const show = await cliJson(tp, ['show'], { now: NOW });
  assert.deepEqual(show.roles.map((r: { role: string }) => r.role).sort(), ['planner', 'reviewer', 'team', 'workers']);
  const status = await cliJson(tp, ['status'], { now: NOW });
  assert.equal(status.roles.length, 4);
});

test('the report stays personal: git ignores it alone and with team memory, where the store is committed', async (t) => {
  const origin = makeOrigin();
  t.after(() => origin.cleanup());
  const a = origin.clone('a');
  const env = { CLAUDE_PROJECT_DIR: a.dir, HOME: origin.env.HOME };
  const tp = { dir: a.dir } as TempProject;
  // Alone: the whole store is ignored.
  await cliOk(tp, ['report'], { env, now: NOW });
  assert.equal(a.tryGit('check-ignore', '-q', '.claude/echoes/report.html').code, 0);
  // Team memory: the store is committed, its own .gitignore names the report.
  await cliOk(tp, ['team', 'init'], { env, now: NOW });
  await cliOk(tp, ['report'], { env, now: NOW });
  assert.match(readFileSync(join(a.dir, '.claude', 'echoes', '.gitignore'), 'utf8'), /^\/report\.html$/m);
  assert.equal(a.tryGit('check-ignore', '-q', '.claude/echoes/report.html').code, 0);
  a.git('add', '-A');
  assert.doesNotMatch(a.git('status', '--porcelain'), /report\.html/);
  // A store .gitignore written before the report existed gains the line on the next report.
  const ignore = join(a.dir, '.claude', 'echoes', '.gitignore');
  writeFileSync(ignore, readFileSync(ignore, 'utf8').replace(/^\/report\.html\n/m, ''));
  await cliOk(tp, ['report'], { env, now: NOW });
  assert.match(readFileSync(ignore, 'utf8'), /^\/report\.html$/m);
});
