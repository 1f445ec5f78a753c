// Pruning and knowledge compression on a real store folder (SPEC §5).

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { defaultConfig } from '../../src/core/config/config-defaults.ts';
import { countLines, documentEntries, parseEchoDocument, renderEntry } from '../../src/core/entry/echo-document.ts';
import { estimateTokens } from '../../src/core/text.ts';
import { echoPaths } from '../../src/store/fs/echo-paths.ts';
import { consolidateRole } from '../../src/store/memory/role-consolidation.ts';
import { compressKnowledgeFile, pruneRole } from '../../src/store/memory/role-pruning.ts';
import { cliJson, runCli } from '../helpers/cli-run.ts';
import { diffSnapshots, makeTempProject } from '../helpers/temp-project.ts';
import { makeEntry } from '../unit/entry-arbitrary.ts';

const NOW = new Date('2026-11-22T12:00:00Z');

function store(t: { after: (fn: () => void) => void }) {
  const dir = mkdtempSync(join(tmpdir(), 'rune-life-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const config = defaultConfig();
  const paths = echoPaths(dir, config, join(dir, 'home'));
  mkdirSync(join(paths.echoes, 'reviewer'), { recursive: true });
  return { dir, config, paths, role: join(paths.echoes, 'reviewer') };
}

function memoryWith(n: number, layerOf: (i: number) => 'etched' | 'inscribed' | 'traced', verified: (i: number) => string): string {
  const blocks = Array.from({ length: n }, (_, i) =>
    renderEntry(
      makeEntry({
        id: `entry-${i}`,
        title: `Entry number ${i}`,
        layer: layerOf(i),
        verified: verified(i),
        date: verified(i),
        evidence: `\`src/f${i}.ts:${i}\` — seen`,
        learning: `Learning ${i} about module ${i % 7}.`,
      }),
    ),
  );
  return `<!-- echo-schema: v2 -->\n# Reviewer Memory\n\n${blocks.join('\n')}`;
}

test('over 150 lines, pruning backs up, archives stale entries, keeps etched and meets the limit', (t) => {
  const { config, paths, role } = store(t);
  const text = memoryWith(
    40,
    (i) => (i < 5 ? 'etched' : i % 2 ? 'traced' : 'inscribed'),
    (i) => (i % 3 === 0 ? '2025-01-10' : '2026-11-01'),
  );
  writeFileSync(join(role, 'MEMORY.md'), text);
  assert.ok(countLines(text) > 150);
  const report = consolidateRole(paths, config, 'reviewer', { now: NOW, prune: true, events: [] });
  const after = readFileSync(join(role, 'MEMORY.md'), 'utf8');
  assert.ok(countLines(after) <= 150, `MEMORY.md has ${countLines(after)} lines`);
  const ids = documentEntries(parseEchoDocument(after)).map((e) => e.id);
  for (let i = 0; i < 5; i++) assert.ok(ids.includes(`entry-${i}`), 'etched entries stay');
  assert.ok(existsSync(join(role, 'archive', 'MEMORY-2026-11-22.md')), 'backup first');
  assert.equal(readFileSync(join(role, 'archive', 'MEMORY-2026-11-22.md'), 'utf8'), text);
  const moved = [...(report.pruned?.archive ?? []), ...(report.pruned?.compress ?? [])];
  const archived = documentEntries(parseEchoDocument(readFileSync(join(role, 'archive', 'pruned.md'), 'utf8'))).map((e) => e.id);
  const knowledge = existsSync(join(role, 'knowledge.md'))
    ? documentEntries(parseEchoDocument(readFileSync(join(role, 'knowledge.md'), 'utf8'))).map((e) => e.id)
    : [];
  assert.deepEqual([...archived, ...knowledge].sort(), [...moved].sort(), 'every pruned entry lands in the archive or knowledge.md');
  assert.deepEqual([...ids, ...moved].sort(), Array.from({ length: 40 }, (_, i) => `entry-${i}`).sort(), 'nothing lost');
});

test('prune --dry-run changes nothing on disk', (t) => {
  const { config, paths, role } = store(t);
  writeFileSync(
    join(role, 'MEMORY.md'),
    memoryWith(
      40,
      () => 'inscribed',
      () => '2025-01-10',
    ),
  );
  const before = readdirSync(role, { recursive: true }).map(String).sort();
  const r = pruneRole(paths, config, 'reviewer', { now: NOW, events: [], dryRun: true });
  assert.ok(r.plan.archive.length > 0);
  assert.deepEqual(readdirSync(role, { recursive: true }).map(String).sort(), before);
});

test('knowledge.md over 300 lines is compressed into blocks that keep every evidence reference', (t) => {
  const { paths, role } = store(t);
  const entries = Array.from({ length: 40 }, (_, i) =>
    makeEntry({
      id: `k-${i}`,
      title: `${['Retry', 'Cache', 'Auth', 'Index'][i % 4]} handling in service ${i}`,
      layer: 'traced',
      tags: [['retry', 'cache', 'auth', 'db'][i % 4]!],
      evidence: `\`src/svc${i}.ts:${10 + i}\` — observed twice`,
      learning: `Service ${i} retried without backoff and flooded the upstream. We added jitter and a cap of three attempts. The effect was visible in the dashboards within a day, and the on-call load dropped.`,
    }),
  );
  const text = `# Reviewer knowledge\n\n${entries.map((e) => renderEntry(e)).join('\n')}`;
  writeFileSync(join(role, 'knowledge.md'), text);
  assert.ok(countLines(text) > 300);
  const r = compressKnowledgeFile(paths, 'reviewer', 300, NOW);
  assert.ok(r);
  const after = readFileSync(join(role, 'knowledge.md'), 'utf8');
  const saving = 1 - estimateTokens(after) / estimateTokens(text);
  t.diagnostic(
    `knowledge.md: ${estimateTokens(text)} → ${estimateTokens(after)} tokens (${(saving * 100).toFixed(1)}% saved), ${countLines(text)} → ${countLines(after)} lines`,
  );
  assert.ok(saving > 0.2, `saving ${saving}`);
  for (let i = 0; i < 40; i++) assert.ok(after.includes(`src/svc${i}.ts:${10 + i}`), `evidence of k-${i} kept`);
  const archived = readFileSync(join(role, 'archive', 'knowledge-compressed.md'), 'utf8');
  assert.equal(documentEntries(parseEchoDocument(archived)).length, 40, 'originals archived');
});

test('prune --dry-run shows what knowledge.md compression would do and writes nothing; prune does it', async (t) => {
  const tp = makeTempProject(t);
  const topics = ['retry', 'cache', 'auth', 'db'];
  const entries = Array.from({ length: 40 }, (_, i) =>
    makeEntry({
      id: `k-${i}`,
      title: `${['Retry', 'Cache', 'Auth', 'Index'][i % 4]} handling in service ${i}`,
      layer: 'traced',
      tags: [topics[i % 4]!],
      evidence: `\`src/svc${i}.ts:${10 + i}\` — observed twice`,
      learning: `Service ${i} needed a fix. We added jitter and a cap of three attempts, and the on-call load dropped.`,
    }),
  );
  tp.write('.claude/echoes/reviewer/MEMORY.md', '<!-- echo-schema: v2 -->\n# Reviewer Memory\n');
  tp.write('.claude/echoes/reviewer/knowledge.md', `# Reviewer knowledge\n\n${entries.map((e) => renderEntry(e)).join('\n')}`);
  const before = tp.snapshot();
  const dry = await runCli(tp, ['prune', '--dry-run']);
  assert.equal(dry.code, 0, dry.stderr);
  assert.match(
    dry.stdout,
    /^ {2}knowledge\.md would be compressed: \d+ → \d+ lines, \d+ → \d+ tokens \(\d+% fewer\), \d+ blocks by topic/m,
  );
  for (const topic of ['retry', 'cache', 'auth', 'db · Index'])
    assert.match(dry.stdout, new RegExp(`^ {4}${topic}: 10 entries$`, 'm'), dry.stdout);
  assert.deepEqual(diffSnapshots(before, tp.snapshot()), [], 'a dry run writes nothing');
  const json = await cliJson(tp, ['prune', '--dry-run']);
  assert.equal(json.roles[0].knowledge.blocks.flatMap((b: { ids: string[] }) => b.ids).length, 40);
  const real = await runCli(tp, ['prune']);
  assert.match(real.stdout, /^ {2}knowledge\.md compressed: /m);
  assert.match(tp.read('.claude/echoes/reviewer/knowledge.md')!, /^\*\*retry\*\* — \d+ entries/m);
});
