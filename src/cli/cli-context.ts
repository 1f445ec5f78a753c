// What every subcommand gets: parsed options, the project's store, and the
// output functions. Only main.ts builds it from `process`.
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import type { EchoesConfig } from '../core/config/config-defaults.ts';
import { EchoesError } from '../core/errors.ts';
import { editDistance, quoteInput } from '../core/text.ts';
import { loadConfig } from '../store/config-file.ts';
import { assertSafeName, type EchoPaths, echoPaths } from '../store/fs/echo-paths.ts';
import { listRoles } from '../store/memory/role-listing.ts';
import type { CliSelf } from '../store/team/team-setup.ts';
import type { TypedArg } from './split-args.ts';

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
  /** When argv came from text typed after `/rune:echoes`: that text, and where each argument stood in it. */
  typed?: { text: string; args: TypedArg[] };
}

export interface CommandContext {
  io: CliIO;
  project: string;
  /** False when no project was found (no --project, $CLAUDE_PROJECT_DIR, .claude/ or .git up the tree): `project` is then the working folder. */
  projectFound: boolean;
  config: EchoesConfig;
  /** What was wrong in the config file (already printed to stderr). */
  configWarnings: string[];
  paths: EchoPaths;
  json: boolean;
}

export interface Command {
  name: string;
  summary: string;
  usage: string;
  options: NonNullable<ParseArgsConfig['options']>;
  /**
   * Takes free text (a lesson, a query): a word that looks like an option but
   * is not one of the command's (`python3 -m pytest`) is text, and `text` is
   * what the user typed, quotes and line breaks included.
   */
  freeText?: boolean;
  /** 'write': refuses to run outside a project; 'none': needs no project (git's merge driver). Default 'read'. */
  access?: 'read' | 'write' | 'none';
  /** Returns the exit code. Throws EchoesError for refused input. */
  run: (
    ctx: CommandContext,
    values: Record<string, string | boolean | string[] | undefined>,
    positionals: string[],
    text: string,
  ) => Promise<number> | number;
}

export const COMMON_OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  project: { type: 'string' },
} as const;

export interface FoundProject {
  dir: string;
  /** False when nothing marked a project and `dir` is just the working folder. */
  found: boolean;
  /** The folders looked in, for a message when nothing was found. */
  looked: { from: string; to: string };
}

/** The project root: --project, $CLAUDE_PROJECT_DIR, the nearest folder up with .claude/ or .git, else the working folder (not found). */
export function findProject(io: CliIO, explicit?: string): FoundProject {
  const cwd = resolve(io.cwd);
  if (explicit) {
    const dir = resolve(io.cwd, explicit);
    if (!isFolder(dir)) throw new EchoesError('bad-argument', `--project ${quoteInput(explicit)}: no such folder`);
    return { dir, found: true, looked: { from: dir, to: dir } };
  }
  if (io.env.CLAUDE_PROJECT_DIR) {
    const dir = resolve(io.env.CLAUDE_PROJECT_DIR);
    return { dir, found: true, looked: { from: dir, to: dir } };
  }
  let dir = cwd;
  for (;;) {
    if (existsSync(join(dir, '.claude')) || existsSync(join(dir, '.git'))) return { dir, found: true, looked: { from: cwd, to: dir } };
    const up = dirname(dir);
    if (up === dir) return { dir: cwd, found: false, looked: { from: cwd, to: dir } };
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

export interface ParsedArgs {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
  /** The positionals as one text: as typed when they came from `/rune:echoes`, else joined by spaces. */
  text: string;
}

type OptionSpec = NonNullable<ParseArgsConfig['options']>[string];

/**
 * Options, positionals and free text. `--` ends the options. For a free-text
 * command, a word that looks like an option but is none of its options is
 * text (`python3 -m pytest`), unless it is a near miss of one (`--lyer`),
 * which is refused with the option it probably meant.
 */
export function parseCommandArgs(cmd: Command, args: string[], typed?: { text: string; args: TypedArg[] }): ParsedArgs {
  const options: Record<string, OptionSpec> = { ...COMMON_OPTIONS, ...cmd.options };
  const byShort = new Map(Object.entries(options).flatMap(([name, o]) => (o.short ? [[o.short, name] as const] : [])));
  const optionArgs: string[] = [];
  const textAt: number[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      for (let k = i + 1; k < args.length; k++) textAt.push(k);
      break;
    }
    const long = /^--([^=]+)(=?)/.exec(a);
    const short = long ? null : /^-([A-Za-z])$/.exec(a);
    const name = long ? long[1]! : short ? byShort.get(short[1]!) : undefined;
    const spec = name === undefined ? undefined : options[name];
    if (spec) {
      if (spec.type === 'string' && !long?.[2] && i + 1 >= args.length)
        throw new EchoesError('bad-argument', `${cmd.name}: ${a} needs a value (see rune-echoes ${cmd.name} --help)`);
      // A known option is never a value: `--pattern --project DIR` lost its value, it did not mean the title "--project".
      const next = spec.type === 'string' && !long?.[2] ? knownOption(args[i + 1]!, options, byShort) : undefined;
      if (next !== undefined)
        throw new EchoesError(
          'bad-argument',
          `${cmd.name}: ${a} needs a value, but the next argument is the option ${next}${long ? ` (a value that starts with "-" is written ${a}=VALUE)` : ''}`,
        );
      // Any other value is the next argument whatever it looks like (`--evidence -x`): joined with `=` so parseArgs takes it as one.
      if (spec.type === 'string' && !long?.[2]) optionArgs.push(long ? `${a}=${args[++i]}` : a, ...(long ? [] : [args[++i]!]));
      else optionArgs.push(a);
      continue;
    }
    const dashed = a.length > 1 && a.startsWith('-') && !/^-\d/.test(a);
    if (dashed && !(cmd.freeText && !nearMiss(long?.[1], Object.keys(options)))) {
      optionArgs.push(a); // refused below, by parseArgs, with the usual message
      continue;
    }
    textAt.push(i);
  }
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({ args: [...optionArgs, '--', ...textAt.map((i) => args[i]!)], options, allowPositionals: true, strict: true });
  } catch (err) {
    // Node quotes the refused option whole: a 1 MB argument must not come back whole.
    const msg = (err instanceof Error ? err.message.split('\n')[0]! : String(err)).replace(/'([^']{40})[^']*'/g, "'$1…'");
    const guess = unknownOptionGuess(msg, Object.keys(options));
    throw new EchoesError(
      'bad-argument',
      `${cmd.name}: ${msg.replace(/\. To specify a positional.*$/, '')}${guess} (see rune-echoes ${cmd.name} --help)`,
    );
  }
  return {
    values: parsed.values as ParsedArgs['values'],
    positionals: parsed.positionals,
    text: typedText(args, textAt, typed) ?? parsed.positionals.join(' '),
  };
}

/** `--project`, `--project=DIR` or `-h` when `arg` is one of the command's options (as typed, up to any `=`); else undefined. */
function knownOption(arg: string, options: Record<string, OptionSpec>, byShort: Map<string, string>): string | undefined {
  const long = /^--([^=]+)/.exec(arg);
  if (long) return Object.hasOwn(options, long[1]!) ? `--${long[1]}` : undefined;
  const short = /^-([A-Za-z])$/.exec(arg);
  return short && byShort.has(short[1]!) ? arg : undefined;
}

/** The free text exactly as typed: from the first positional to the last, when nothing else stands between them. */
function typedText(args: string[], at: number[], typed?: { text: string; args: TypedArg[] }): string | null {
  if (!typed || at.length === 0 || typed.args.length !== args.length + 1) return null;
  for (let k = 1; k < at.length; k++) if (at[k] !== at[k - 1]! + 1) return null;
  // typed.args[0] is the subcommand itself.
  const first = typed.args[at[0]! + 1]!;
  const last = typed.args[at.at(-1)! + 1]!;
  // One argument in quotes is the quotes' content; anything longer keeps every character typed.
  if (at.length === 1) return first.value;
  return typed.text.slice(first.start, last.end);
}

/** `--lyer` for `--layer`: a long option one or two edits away from a real one. */
function nearMiss(name: string | undefined, known: string[]): string | undefined {
  if (name === undefined || name.length < 3) return undefined;
  return known.find((k) => k.length >= 3 && editDistance(name, k) <= (k.length > 5 ? 2 : 1));
}

function unknownOptionGuess(message: string, known: string[]): string {
  const m = /Unknown option '--([^'=]+)/.exec(message);
  const guess = nearMiss(m?.[1], known);
  return guess ? `; did you mean --${guess}?` : '';
}

export async function buildContext(io: CliIO, values: Record<string, unknown>, found?: FoundProject): Promise<CommandContext> {
  const where = found ?? findProject(io, values.project as string | undefined);
  const project = where.dir;
  const { config, warnings } = await loadConfig(project);
  for (const w of warnings) io.stderr(`warning: ${w}\n`);
  return {
    io,
    project,
    projectFound: where.found,
    config,
    configWarnings: warnings,
    paths: echoPaths(project, config, io.env.HOME || undefined),
    json: values.json === true,
  };
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
