// Adopting a store as it is never destroys it (issue 12): automatic pruning
// between sessions moves a few entries per session, archived entries keep
// their exact bytes under a header line, no stray separator is left, and a
// file long because of what the user wrote keeps its new lessons. The real
// Rune files are read in place from ../shared/realdata and written into a
// temporary store at test time (never copied into this repository).

import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { countLines, documentEntries, parseEchoDocument } from '../../src/core/entry/echo-document.ts';
import { hookSpec } from '../../src/hooks/hook-registry.ts';
import { executeHook, type HookHandler } from '../../src/hooks/run-hook.ts';
import { sessionEnd } from '../../src/hooks/session-end-handler.ts';
import { sessionStart } from '../../src/hooks/session-start-handler.ts';
import { pruneRole } from '../../src/store/memory/role-pruning.ts';
import { runCli } from '../helpers/cli-run.ts';
import { REPO } from '../helpers/run-bundle.ts';
import { makeTempProject, type TempProject } from '../helpers/temp-project.ts';
import { TranscriptBuilder } from '../helpers/transcript-builder.ts';

const REAL = join(REPO, '..', 'shared', 'realdata', 'memory');
const REVIEWER = join(REAL, 'vinhnxv__rune__.claude__echoes__reviewer__MEMORY.md');
const PLANNER = join(REAL, 'vinhnxv__rune__.claude__echoes__planner__MEMORY.md');

async function hook(tp: TempProject, name: string, handler: HookHandler, input: unknown): Promise<void> {
  // SessionEnd's budget raised as Claude Code's setting does: pruning runs however busy the machine is.
  await executeHook(
    hookSpec(name),
    handler,
    input,
    { HOME: join(tp.dir, 'home'), CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS: '600000' },
    tp.dir,
  );
}

/** Entry blocks in pruned.md, each the text between two `## Archived` header lines. */
function archivedBlocks(tp: TempProject, role: string): Array<{ header: string; text: string }> {
  const text = tp.read(`.claude/echoes/${role}/archive/pruned.md`) ?? '';
  const parts = text.split(/^(## Archived .*)\n/m);
  const out: Array<{ header: string; text: string }> = [];
  // Each header line is preceded by one blank line of its own.
  for (let i = 1; i < parts.length; i += 2)
    out.push({ header: parts[i]!, text: i + 2 < parts.length ? parts[i + 1]!.slice(0, -1) : parts[i + 1]! });
  return out;
}

const entryCount = (tp: TempProject, role: string) =>
  documentEntries(parseEchoDocument(tp.read(`.claude/echoes/${role}/MEMORY.md`) ?? '')).length;

test('the real Rune reviewer file survives ten SessionStart/SessionEnd cycles, at most prune_per_session entries a cycle', async (t) => {
  if (!existsSync(REVIEWER)) return t.skip('realdata not present');
  const tp = makeTempProject(t);
  const original = readFileSync(REVIEWER, 'utf8');
  tp.write('.claude/echoes/reviewer/MEMORY.md', original);
  const before = entryCount(tp, 'reviewer');
  let previous = before;
  let archivedSoFar = 0;
  for (let cycle = 1; cycle <= 10; cycle++) {
    const session = `cycle-${cycle}`;
    const transcript = join(tp.dir, `${session}.jsonl`);
    new TranscriptBuilder(transcript, session, tp.dir).user('Review the pull request').assistant('Looked at it.');
    await hook(tp, 'session-start', sessionStart, { session_id: session, transcript_path: transcript, cwd: tp.dir, source: 'startup' });
    await hook(tp, 'session-end', sessionEnd, { session_id: session, transcript_path: transcript, cwd: tp.dir, reason: 'other' });
    const now = entryCount(tp, 'reviewer');
    const archived = archivedBlocks(tp, 'reviewer').length;
    const moved = previous - now;
    t.diagnostic(`cycle ${cycle}: ${now} entries, ${moved} moved, ${archived} in the archive`);
    assert.ok(moved >= 0 && moved <= 10, `cycle ${cycle} moved ${moved} entries`);
    assert.equal(archived - archivedSoFar, moved, 'every entry that left is in the archive');
    previous = now;
    archivedSoFar = archived;
  }
  assert.ok(previous < before, 'automatic pruning did run');
  // One backup a day: the archive holds every moved entry byte for byte (two if the run crosses midnight).
  const backups = readdirSync(join(tp.dir, '.claude/echoes/reviewer/archive')).filter((n) => n.startsWith('MEMORY-'));
  assert.ok(backups.length >= 1 && backups.length <= 2, backups.join(', '));
  assert.equal(readFileSync(join(tp.dir, '.claude/echoes/reviewer/archive', backups.sort()[0]!), 'utf8'), original);
  assert.ok(before - previous <= 100, 'ten cycles, at most ten entries each');
  // Every archived block is byte for byte a piece of the original file, not re-rendered.
  for (const b of archivedBlocks(tp, 'reviewer')) {
    assert.ok(original.includes(b.text), `archived block re-written: ${b.text.slice(0, 120)}`);
    assert.match(b.header, /^## Archived \d{4}-\d{2}-\d{2} from MEMORY\.md by automatic pruning between sessions — /);
  }
  assert.doesNotMatch(tp.read('.claude/echoes/reviewer/archive/pruned.md') ?? '', /\*\*confidence\*\*: 0\.3\n/, 'LOW stays LOW');
  // What is left plus what was archived is the whole original, nothing else lost.
  assert.equal(tp.read('.claude/echoes/reviewer/knowledge.md'), null, 'stale entries go to the archive, not knowledge.md');
  const left = tp.read('.claude/echoes/reviewer/MEMORY.md')!;
  assert.equal(countLines(left) + archivedBlocks(tp, 'reviewer').reduce((s, b) => s + countLines(b.text), 0), countLines(original));

  const status = await runCli(tp, ['status']);
  assert.equal(status.code, 0, status.stderr);
  const line = status.stdout.split('\n').find((l) => l.startsWith('over the limit: reviewer'));
  assert.ok(line, status.stdout);
  assert.match(line, /sessions move at most 10 at a time; `rune-echoes prune` moves \d+ now/);
  assert.doesNotMatch(status.stdout, /prunes at next session start/);
  assert.equal(tp.read('.claude/echoes/.log'), null, 'no hook logged an error');
});

test('prune run by the user on the real planner file stops at the limit and leaves no stray separator', (t) => {
  if (!existsSync(PLANNER)) return t.skip('realdata not present');
  const tp = makeTempProject(t);
  const original = readFileSync(PLANNER, 'utf8');
  tp.write('.claude/echoes/planner/MEMORY.md', original);
  const report = pruneRole(tp.paths, tp.config, 'planner', { now: new Date('2026-06-15T00:00:00Z'), events: [], dryRun: false });
  const after = tp.read('.claude/echoes/planner/MEMORY.md')!;
  assert.ok(countLines(after) <= 150, `${countLines(after)} lines`);
  assert.ok(entryCount(tp, 'planner') > 0, 'lessons are left');
  assert.equal(report.plan.deferred, 0, 'the user-run prune is not capped');
  // No two separators in a row, none at the end of the file.
  assert.doesNotMatch(after, /^---\s*\n(\s*\n)*---\s*$/m);
  assert.doesNotMatch(after, /---\s*$/);
  for (const b of archivedBlocks(tp, 'planner')) {
    assert.ok(original.includes(b.text), 'byte for byte');
    assert.match(b.header, /by rune-echoes prune — /);
  }
  assert.equal(archivedBlocks(tp, 'planner').length, report.plan.archive.length);
});

test('a hand-written MEMORY.md over its limit keeps a new lesson through session starts', async (t) => {
  const tp = makeTempProject(t);
  const notes = Array.from({ length: 170 }, (_, i) => `- note ${i}: written by hand, not an entry`).join('\n');
  tp.write('.claude/echoes/team/MEMORY.md', `# Team notes\n\n${notes}\n`);
  const rec = await runCli(
    tp,
    ['remember', '--role', 'team', '--pattern', 'Run the linter before pushing', 'Run the linter before pushing.'],
    {
      now: new Date(),
    },
  );
  assert.equal(rec.code, 0, rec.stderr);
  for (const session of ['a', 'b', 'c']) {
    await hook(tp, 'session-start', sessionStart, {
      session_id: session,
      transcript_path: join(tp.dir, 'none.jsonl'),
      cwd: tp.dir,
      source: 'startup',
    });
  }
  assert.match(tp.read('.claude/echoes/team/MEMORY.md')!, /Run the linter before pushing/);
  assert.equal(tp.read('.claude/echoes/team/archive/pruned.md'), null);
  const status = await runCli(tp, ['status']);
  assert.match(
    status.stdout,
    /over the limit: team: \d+\/150 lines — 173 lines are hand-written text, not entries, so new lessons are kept/,
  );
});
