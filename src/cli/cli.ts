// argv → command. Returns an exit code; prints through the io it is given.
import { EchoesError } from '../core/errors.ts';
import { clip, oneLine, quoteInput } from '../core/text.ts';
import { buildContext, type CliIO, type Command, parseCommandArgs } from './cli-context.ts';
import { consolidateCommand } from './commands/cmd-consolidate.ts';
import { exportCommand } from './commands/cmd-export.ts';
import { forgetCommand } from './commands/cmd-forget.ts';
import { importCommand } from './commands/cmd-import.ts';
import { mergeFileCommand } from './commands/cmd-merge-file.ts';
import { migrateCommand } from './commands/cmd-migrate.ts';
import { promoteCommand } from './commands/cmd-promote.ts';
import { pruneCommand } from './commands/cmd-prune.ts';
import { recordCommand } from './commands/cmd-record.ts';
import { rememberCommand } from './commands/cmd-remember.ts';
import { remembranceCommand } from './commands/cmd-remembrance.ts';
import { resetCommand } from './commands/cmd-reset.ts';
import { searchCommand } from './commands/cmd-search.ts';
import { showCommand } from './commands/cmd-show.ts';
import { statusCommand } from './commands/cmd-status.ts';
import { teamCommand } from './commands/cmd-team.ts';

export const COMMANDS: Command[] = [
  recordCommand,
  showCommand,
  searchCommand,
  rememberCommand,
  forgetCommand,
  consolidateCommand,
  pruneCommand,
  resetCommand,
  statusCommand,
  remembranceCommand,
  promoteCommand,
  importCommand,
  migrateCommand,
  exportCommand,
  // Team memory through git (SPEC §3).
  teamCommand,
  mergeFileCommand,
];

export function renderHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'rune-echoes — project memory for Claude Code agents (Rune Echoes)',
    '',
    'Usage: rune-echoes <command> [options]      (every command takes --json, --help, --project DIR)',
    '',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Memory lives in .claude/echoes/ of the project; settings in .claude/rune-config.yml.',
    '',
  ].join('\n');
}

export function renderCommandHelp(cmd: Command): string {
  return `${cmd.summary}\n\nUsage: ${cmd.usage}\n\nCommon options: --json (machine-readable output), --project DIR (default: nearest folder with .claude/ or .git)\n`;
}

/** The longest error line the CLI prints. */
const MAX_ERROR = 400;

export async function cli(io: CliIO): Promise<number> {
  const [name, ...rest] = io.argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(renderHelp());
    return 0;
  }
  if (name === '--version') {
    io.stdout('0.1.0\n');
    return 0;
  }
  const cmd = COMMANDS.find((c) => c.name === name);
  try {
    if (!cmd)
      throw new EchoesError('bad-argument', `unknown command "${quoteInput(name)}"; commands: ${COMMANDS.map((c) => c.name).join(', ')}`);
    const { values, positionals } = parseCommandArgs(cmd, rest);
    if (values.help) {
      io.stdout(renderCommandHelp(cmd));
      return 0;
    }
    const ctx = await buildContext(io, values);
    return await cmd.run(ctx, values as Record<string, string | boolean | string[] | undefined>, positionals);
  } catch (err) {
    // One line, and bounded: a message that quotes what it refuses never echoes a huge input back.
    if (err instanceof EchoesError) {
      io.stderr(`rune-echoes: ${clip(oneLine(err.message), MAX_ERROR)}\n`);
      return 1;
    }
    const message = err instanceof Error ? err.message : String(err);
    io.stderr(`rune-echoes: unexpected error: ${clip(oneLine(message.split('\n')[0]!), MAX_ERROR)}\n`);
    return 2;
  }
}
