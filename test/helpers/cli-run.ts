// Runs the CLI in-process through `cli()` with a fake io on a temp project.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli } from '../../src/cli/cli.ts';
import type { TempProject } from './temp-project.ts';

export const CLI_NOW = new Date('2026-05-01T10:00:00Z');

/** The built CLI: what a merge driver that `team init` installs from these tests runs. */
export const BUILT_CLI = fileURLToPath(new URL('../../dist/cli.mjs', import.meta.url));

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  stdin?: string;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  now?: Date;
}

export async function runCli(tp: TempProject, argv: string[], opts: RunOptions = {}): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await cli({
    argv,
    cwd: opts.cwd ?? tp.dir,
    env: opts.env ?? { CLAUDE_PROJECT_DIR: tp.dir, HOME: join(tp.dir, 'home') },
    now: opts.now ?? CLI_NOW,
    readStdin: () => {
      if (opts.stdin === undefined) throw new Error('this test gave no stdin');
      return opts.stdin;
    },
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    self: { node: process.execPath, cli: BUILT_CLI },
  });
  return { code, stdout, stderr };
}

/** Runs a command that must succeed and returns its stdout. */
export async function cliOk(tp: TempProject, argv: string[], opts: RunOptions = {}): Promise<string> {
  const r = await runCli(tp, argv, opts);
  assert.equal(r.code, 0, `${argv.join(' ')} failed: ${r.stderr}`);
  assert.equal(r.stderr, '', `${argv.join(' ')} wrote to stderr`);
  return r.stdout;
}

export async function cliJson(tp: TempProject, argv: string[], opts: RunOptions = {}): Promise<any> {
  return JSON.parse(await cliOk(tp, [...argv, '--json'], opts));
}
