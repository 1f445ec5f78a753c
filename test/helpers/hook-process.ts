// A project for running the bundled hooks as processes, and checks on what a hook printed.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BundleResult } from './run-bundle.ts';

/** A project folder and a HOME beside it (never the real one), removed after the test. */
export function hookProject(t: { after: (fn: () => void) => void }): { dir: string; home: string; env: Record<string, string> } {
  const root = mkdtempSync(join(tmpdir(), 'rune-hooks-'));
  const dir = join(root, 'proj');
  const home = join(root, 'home');
  mkdirSync(dir);
  mkdirSync(home);
  t.after(() => rmSync(root, { recursive: true, force: true }));
  return { dir, home, env: { HOME: home } };
}

export const echoesPath = (dir: string, ...p: string[]) => join(dir, '.claude', 'echoes', ...p);

/** A hook's stdout must be one JSON object and nothing else; it must exit 0. */
export function protocol(r: BundleResult): Record<string, unknown> {
  assert.equal(r.code, 0, `exit code 0 (stderr: ${r.stderr.slice(0, 2000)})`);
  const lines = r.stdout.trim().split('\n');
  assert.equal(lines.length, 1, `one line of stdout, got ${JSON.stringify(r.stdout.slice(0, 500))}`);
  return JSON.parse(lines[0]!) as Record<string, unknown>;
}

/** The additionalContext a SessionStart hook returned. */
export function startContext(r: BundleResult): string {
  const out = protocol(r) as { hookSpecificOutput?: { hookEventName: string; additionalContext: string } };
  assert.equal(out.hookSpecificOutput?.hookEventName, 'SessionStart');
  return out.hookSpecificOutput!.additionalContext;
}
