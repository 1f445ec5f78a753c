// The repository is a valid plugin and marketplace for the real Claude Code
// CLI: `claude plugin validate .` passes with no errors and no warnings.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO } from '../helpers/run-bundle.ts';

test('claude plugin validate passes with no errors and no warnings', (t) => {
  const home = mkdtempSync(join(tmpdir(), 'rune-validate-'));
  t.after(() => rmSync(home, { recursive: true, force: true }));
  const claude = join(REPO, 'node_modules', '.bin', 'claude');
  const env = { PATH: process.env.PATH, HOME: home, DISABLE_AUTOUPDATER: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' };
  const json = spawnSync(claude, ['plugin', 'validate', '--strict', '--json', REPO], { env, encoding: 'utf8', timeout: 60_000 });
  assert.equal(json.status, 0, json.stderr + json.stdout);
  const report = JSON.parse(json.stdout) as {
    success: boolean;
    manifest: { errors: unknown[]; warnings: unknown[] };
    provides: { hooks: Array<{ event: string }>; commands: string[]; agents: string[]; skills: string[]; bin?: string[] };
  };
  assert.equal(report.success, true);
  assert.deepEqual(report.manifest.errors, []);
  assert.deepEqual(report.manifest.warnings, []);
  assert.deepEqual(report.provides.hooks.map((h) => h.event).sort(), [
    'PreCompact',
    'PreToolUse',
    'SessionEnd',
    'SessionStart',
    'Stop',
    'SubagentStop',
  ]);
  assert.deepEqual(report.provides.commands, ['rune:echoes']);
  assert.deepEqual([...report.provides.agents].sort(), ['rune:echo-reader', 'rune:memory-auditor', 'rune:signal-discoverer']);

  const text = spawnSync(claude, ['plugin', 'validate', REPO], { env, encoding: 'utf8', timeout: 60_000 });
  assert.equal(text.status, 0);
  assert.match(text.stdout, /Validation passed/);
  assert.doesNotMatch(text.stdout + text.stderr, /⚠|warning/i, 'no warnings of any kind');
});
