// argv → command. Returns an exit code; prints through the io it is given.
import { EchoesError } from '../core/errors.ts';
import { clip, editDistance, oneLine, quoteInput } from '../core/text.ts';
import { loadConfig } from '../store/config-file.ts';
import { echoPaths } from '../store/fs/echo-paths.ts';
import { fsErrorLine } from '../store/fs/fs-errors.ts';
import { setLockTaker } from '../store/fs/role-lock.ts';
import { awaitWorkers } from '../store/hook-workers.ts';
import { slashArgsWritable, takeSlashArgs } from '../store/session/slash-args.ts';
import { buildContext, type CliIO, type Command, findProject, parseCommandArgs } from './cli-context.ts';
import { consolidateCommand } from './commands/cmd-consolidate.ts';
import { evidenceCommand } from './commands/cmd-evidence.ts';
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
import { reportCommand } from './commands/cmd-report.ts';
import { resetCommand } from './commands/cmd-reset.ts';
import { searchCommand } from './commands/cmd-search.ts';
import { showCommand } from './commands/cmd-show.ts';
import { statusCommand } from './commands/cmd-status.ts';
import { teamCommand } from './commands/cmd-team.ts';
import { verifyCommand } from './commands/cmd-verify.ts';
import { splitTypedArgs } from './split-args.ts';

export const COMMANDS: Command[] = [
  recordCommand,
  showCommand,
  searchCommand,
  rememberCommand,
  forgetCommand,
  verifyCommand,
  consolidateCommand,
  pruneCommand,
  resetCommand,
  statusCommand,
  reportCommand,
  evidenceCommand,
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
  const dash = cmd.freeText
    ? '\nWords that look like options but are not this command’s (python3 -m pytest) are text; put -- before text to take all of it as text.\n'
    : '';
  return `${cmd.summary}\n\nUsage: ${cmd.usage}\n${dash}\nCommon options: --json (machine-readable output), --project DIR (default: nearest folder with .claude/ or .git)\n`;
}

/** Hooks that leave work to background workers. */
const BACKGROUND_HOOKS = ['stop', 'subagent-stop', 'session-end', 'pre-compact'] as const;

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
    if (!cmd) {
      const guess = COMMANDS.find((c) => editDistance(name, c.name) <= Math.min(2, Math.floor(c.name.length / 3)));
      const hint = guess ? `; did you mean ${guess.name}?` : '';
      throw new EchoesError(
        'bad-argument',
        `unknown command "${quoteInput(name)}"${hint} Commands: ${COMMANDS.map((c) => c.name).join(', ')}`,
      );
    }
    // Node turns bytes that are not UTF-8 into U+FFFD: stored, they would be a different text than typed.
    const garbled = rest.findIndex((a) => a.includes('\uFFFD'));
    if (garbled >= 0)
      throw new EchoesError(
        'bad-argument',
        `argument ${garbled + 1} is not valid UTF-8 text (another encoding, or stray bytes); nothing was changed`,
      );
    const { values, positionals, text } = parseCommandArgs(cmd, rest, io.typed);
    if (values.help) {
      io.stdout(renderCommandHelp(cmd));
      return 0;
    }
    const found = findProject(io, values.project as string | undefined);
    if (!found.found && (cmd.access ?? 'read') !== 'none') {
      const looked = `looked for .claude/ or .git from ${found.looked.from} up to ${found.looked.to}`;
      // Writing here would start a memory in whatever folder the shell happens to be in.
      if (cmd.access === 'write')
        throw new EchoesError('no-project', `no project here (${looked}); run it inside your project, or pass --project DIR`);
      if (values.json === true) io.stdout(`${JSON.stringify({ memory: false, project: null, looked: found.looked }, null, 2)}\n`);
      else io.stdout(`No Rune Echoes memory here: no project (${looked}).\n`);
      return 0;
    }
    const ctx = await buildContext(io, values, found);
    // Read your writes: findings a Stop or SubagentStop handed to a background worker a moment ago are merged
    // before a reading command looks (a parent searching right after its subagent finds the subagent's lessons).
    if ((cmd.access ?? 'read') === 'read') await awaitWorkers(ctx.paths, BACKGROUND_HOOKS, 5000);
    // A person waits for a lock a hook's worker holds (a long consolidation on a busy machine) longer than a hook
    // may, is told what it waits for, and, past the bound, what holds it.
    setLockTaker({
      holder: `the rune-echoes ${cmd.name} command`,
      waitMs: CLI_LOCK_WAIT_MS,
      onWait: (m) => io.stderr(`rune-echoes: ${m}\n`),
    });
    return await cmd.run(ctx, values, positionals, text);
  } catch (err) {
    // One line, and bounded: a message that quotes what it refuses never echoes a huge input back.
    if (err instanceof EchoesError) {
      io.stderr(`rune-echoes: ${clip(oneLine(err.message), MAX_ERROR)}\n`);
      return 1;
    }
    const plain = fsErrorLine(err);
    if (plain !== null) {
      io.stderr(`rune-echoes: ${clip(oneLine(plain), MAX_ERROR)}\n`);
      return 1;
    }
    const message = err instanceof Error ? err.message : String(err);
    io.stderr(`rune-echoes: unexpected error: ${clip(oneLine(message.split('\n')[0]!), MAX_ERROR)}\n`);
    return 2;
  } finally {
    setLockTaker(null);
  }
}

/** How long a command waits for a lock another process holds before it says what holds it. */
const CLI_LOCK_WAIT_MS = 60_000;

/**
 * `rune-echoes --slash-args <session>`: the CLI call of the /rune:echoes
 * command. The arguments are the text the UserPromptSubmit hook kept for the
 * session, exactly as typed; nothing of it ever passed through a shell. What
 * the model is to read goes to stdout, refusals included, and the exit code
 * is 0 so Claude Code shows the output instead of failing the command.
 */
export async function cliFromSlash(io: CliIO, sessionId: string): Promise<number> {
  let text: string | null = null;
  let writable = true;
  try {
    const found = findProject(io);
    const { config } = await loadConfig(found.dir);
    const paths = echoPaths(found.dir, config, io.env.HOME || undefined);
    text = takeSlashArgs(paths, sessionId);
    if (text === null) writable = slashArgsWritable(paths);
  } catch (err) {
    io.stdout(
      `rune-echoes: cannot read the arguments of /rune:echoes: ${clip(oneLine(err instanceof Error ? err.message : String(err)), MAX_ERROR)}\n`,
    );
    return 0;
  }
  if (text === null) {
    const why = writable
      ? "the plugin's UserPromptSubmit hook did not keep them: are hooks disabled?"
      : "this project's memory folder is not writable, so the hook could not keep them";
    io.stdout(
      `rune-echoes: the arguments of /rune:echoes did not reach the CLI (${why}). Run \`rune-echoes <subcommand> …\` with the Bash tool instead.\n`,
    );
    return 0;
  }
  const typed = splitTypedArgs(text);
  await cli({ ...io, argv: typed.map((a) => a.value), typed: { text, args: typed }, stderr: io.stdout, readStdin: () => '' });
  return 0;
}
