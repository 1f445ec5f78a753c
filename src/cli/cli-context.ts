// What every subcommand gets: parsed options, the project's store, and the
// output functions. Only main.ts builds it from `process`.
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import type { EchoesConfig } from '../core/config/config-defaults.ts';
import { EchoesError } from '../core/errors.ts';
import { quoteInput } from '../core/text.ts';
import { loadConfig } from '../store/config-file.ts';
import { assertSafeName, type EchoPaths, echoPaths } from '../store/fs/echo-paths.ts';
import { listRoles } from '../store/memory/role-listing.ts';
import type { CliSelf } from '../store/team/team-setup.ts';

export interface CliIO {
  argv: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  now: Date;
  readStdin: () => string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Where this CLI runs from (node and the bundle), for the merge driver `team init` installs. */
  self?: CliSelf;
}

export interface CommandContext {
  io: CliIO;
  project: string;
  config: EchoesConfig;
  paths: EchoPaths;
  json: boolean;
}

export interface Command {
  name: string;
  summary: string;
  usage: string;
  options: NonNullable<ParseArgsConfig['options']>;
  /** Returns the exit code. Throws EchoesError for refused input. */
  run: (
    ctx: CommandContext,
    values: Record<string, string | boolean | string[] | undefined>,
    positionals: string[],
  ) => Promise<number> | number;
}

export const COMMON_OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  project: { type: 'string' },
} as const;

/** The project root: --project, $CLAUDE_PROJECT_DIR, the nearest folder up with .claude/ or .git, else cwd. */
export function findProject(io: CliIO, explicit?: string): string {
  if (explicit) {
    const dir = resolve(io.cwd, explicit);
    if (!isFolder(dir)) throw new EchoesError('bad-argument', `--project ${quoteInput(explicit)}: no such folder`);
    return dir;
  }
  if (io.env.CLAUDE_PROJECT_DIR) return resolve(io.env.CLAUDE_PROJECT_DIR);
  let dir = resolve(io.cwd);
  for (;;) {
    if (existsSync(join(dir, '.claude')) || existsSync(join(dir, '.git'))) return dir;
    const up = dirname(dir);
    if (up === dir) return resolve(io.cwd);
    dir = up;
  }
}

const isFolder = (path: string): boolean => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

export function parseCommandArgs(cmd: Command, args: string[]) {
  try {
    return parseArgs({ args, options: { ...COMMON_OPTIONS, ...cmd.options }, allowPositionals: true, strict: true });
  } catch (err) {
    // Node quotes the refused option whole: a 1 MB argument must not come back whole.
    const msg = (err instanceof Error ? err.message.split('\n')[0]! : String(err)).replace(/'([^']{40})[^']*'/g, "'$1…'");
    throw new EchoesError(
      'bad-argument',
      `${cmd.name}: ${msg.replace(/\. To specify a positional.*$/, '')} (see rune-echoes ${cmd.name} --help)`,
    );
  }
}

export async function buildContext(io: CliIO, values: Record<string, unknown>): Promise<CommandContext> {
  const project = findProject(io, values.project as string | undefined);
  const { config, warnings } = await loadConfig(project);
  for (const w of warnings) io.stderr(`warning: ${w}\n`);
  return { io, project, config, paths: echoPaths(project, config, io.env.HOME || undefined), json: values.json === true };
}

export function stringOpt(values: Record<string, unknown>, key: string): string | undefined {
  const v = values[key];
  return typeof v === 'string' ? v : undefined;
}

export function printJson(ctx: CommandContext, value: unknown): void {
  ctx.io.stdout(`${JSON.stringify(value, null, 2)}\n`);
}

/** The roles a command works on: the one named (which must exist), else all of them. */
export function targetRoles(ctx: CommandContext, only: string | undefined): string[] {
  const roles = listRoles(ctx.paths);
  if (only === undefined) return roles;
  assertSafeName(only, 'role');
  if (!roles.includes(only)) throw new EchoesError('not-found', `no role "${quoteInput(only)}" yet (roles: ${roles.join(', ') || 'none'})`);
  return [only];
}
