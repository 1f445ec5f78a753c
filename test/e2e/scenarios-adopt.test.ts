// End-to-end (issue 12): the real Claude Code CLI, offline against the
// scripted Messages API server, with this repository as a plugin, on a
// project that already keeps memory — Claude Code auto memory in HOME, a
// CLAUDE.md with learnings, and a Rune role file in the old format.
// `/rune:echoes import --dry-run` and `/rune:echoes migrate --dry-run` expand
// with their real reports, and neither the sources nor the role file change.
//
// The hooks run from dist/: rebuild (npm run build) after changing src/.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { claudeProjectSlug } from '../../src/store/adopt/memory-sources.ts';
import { makeClaudeHome, removeDirs, writeTree } from './claude-harness.ts';
import { type FakeAnthropic, startFakeAnthropic } from './fake-anthropic-server.ts';
import {
  describeRun,
  ensureBundles,
  errorLogLines,
  makeScenarioProject,
  type RuneRun,
  runRune,
  type ScenarioProject,
} from './scenario-kit.ts';
import { defaultRules } from './script-rules.ts';

// A bound only a hang trips: a loaded machine is slow, not wrong.
const testTimeout = 900_000;

const OLD_ROLE_FILE = [
  '# Reviewer Echoes',
  '',
  '## Inscribed — Retry storms in the payment client (2026-03-04)',
  '',
  '**Source**: `rune:review PR-17`',
  '**Confidence**: HIGH (3 reviewers agreed)',
  '',
  '1. Retries must be jittered; lockstep retries took the provider down.',
  '',
  '## Observations — Task: scan the ledger module (2026-03-11)',
  '- **layer**: observations',
  '- **source**: `rune-audit-20260311/forge-warden`',
  '- **Confidence**: LOW',
  '- Ledger writes bypass the queue in two places.',
  '',
].join('\n');

const AUTO_MEMORY =
  '# Memory\n\n## Conventions\n- Times are stored in UTC.\n- [Deploy days](project_deploys.md) — deploys go out on Tuesdays\n';
const CLAUDE_MD = '# Project\n\nUse pnpm.\n\n## Lessons learned\n\n- The staging database resets every night at 02:00 UTC.\n';

let server: FakeAnthropic;
let home: string;
let project: ScenarioProject;
let importRun: RuneRun;
let migrateRun: RuneRun;
const autoMemory = () => join(home, '.claude', 'projects', claudeProjectSlug(project.dir), 'memory', 'MEMORY.md');

before(async () => {
  ensureBundles();
  server = await startFakeAnthropic({ rules: defaultRules() });
  home = await makeClaudeHome();
  project = await makeScenarioProject('adopt');
  await project.write({ '.claude/echoes/reviewer/MEMORY.md': OLD_ROLE_FILE, 'CLAUDE.md': CLAUDE_MD });
  await writeTree(home, { [join('.claude', 'projects', claudeProjectSlug(project.dir), 'memory', 'MEMORY.md')]: AUTO_MEMORY });
  const rune = async (args: string[]): Promise<RuneRun> => {
    const run = await runRune({ project, home, server, args });
    assert.equal(run.timedOut, false, `claude timed out: ${describeRun(run)}`);
    assert.equal(run.code, 0, `claude ${args.join(' ')} failed: ${describeRun(run)}`);
    return run;
  };
  importRun = await rune(['-p', '/rune:echoes import --dry-run']);
  migrateRun = await rune(['-p', '/rune:echoes migrate --dry-run']);
});

after(async () => {
  await server.close();
  await removeDirs(home, project.dir);
});

describe('adopting the memory a project already has, through the real Claude Code CLI', () => {
  test('/rune:echoes import --dry-run expands with the import report', { timeout: testTimeout }, () => {
    const prompt = importRun.calls[0]!.promptText;
    assert.match(prompt, /<command-args>import --dry-run<\/command-args>/);
    assert.match(prompt, /Import \(dry run: nothing written\) — 2 sources found/);
    assert.match(prompt, /~\/\.claude\/projects\/[^\s]+\/memory\/MEMORY\.md +auto-memory +team +2 +2 /);
    assert.match(prompt, /CLAUDE\.md +claude-md +team +1 +1 /);
    assert.match(prompt, /would add up to 3 entries: team 3/);
    assert.match(prompt, /in this store, old format \(no ids, no v2 header\): reviewer/);
  });

  test('/rune:echoes migrate --dry-run expands with the migration report', { timeout: testTimeout }, () => {
    const prompt = migrateRun.calls[0]!.promptText;
    assert.match(prompt, /<command-args>migrate --dry-run<\/command-args>/);
    assert.match(prompt, /Migrate \(dry run: nothing written\) — schema v2, no renames/);
    assert.match(prompt, /reviewer\/MEMORY\.md: 3 changes \(would back up first\)/);
    assert.match(prompt, /line 3: wrote id "retry-storms-in-the-payment-client"/);
    assert.match(prompt, /line 1: added schema header <!-- echo-schema: v2 -->/);
  });

  test('the dry runs changed no source and no memory file', { timeout: testTimeout }, async () => {
    const { readFileSync } = await import('node:fs');
    assert.equal(project.read('.claude/echoes/reviewer/MEMORY.md'), OLD_ROLE_FILE);
    assert.equal(project.read('CLAUDE.md'), CLAUDE_MD);
    assert.equal(readFileSync(autoMemory(), 'utf8'), AUTO_MEMORY);
    assert.equal(project.read('.claude/echoes/team/MEMORY.md'), null, 'nothing was imported');
  });

  test('no hook logged an error', { timeout: testTimeout }, () => {
    assert.deepEqual(errorLogLines(project), []);
  });
});
