// What the user typed after `/rune:echoes`, carried byte for byte from the
// UserPromptSubmit hook to the command's CLI call. Claude Code pastes
// $ARGUMENTS into a command's shell line unescaped, where a backtick ends the
// line and `$(…)` runs; so the command's shell line names no argument at all:
// the hook, which gets the prompt as JSON, keeps the text for the session, and
// `rune-echoes --slash-args <session>` takes it (once) and runs it.
import { accessSync, constants, lstatSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readTextOrNull, removeFile, writeFileAtomic } from '../fs/atomic-file.ts';
import type { EchoPaths } from '../fs/echo-paths.ts';
import { safeSessionKey } from './session-state.ts';

/** `/rune:echoes …` and its short form `/echoes …`, as Claude Code's prompt field holds them. */
const SLASH_COMMAND = /^\/(?:rune:)?echoes(?=\s|$)/;

/** The arguments of a `/rune:echoes` prompt, exactly as typed (after one separating space), or null for any other prompt. */
export function slashCommandArgs(prompt: string): string | null {
  const m = SLASH_COMMAND.exec(prompt);
  if (!m) return null;
  const rest = prompt.slice(m[0].length);
  return rest.replace(/^[ \t]/, '');
}

const slashDir = (paths: EchoPaths) => join(paths.stateDir, 'slash');
const slashFile = (paths: EchoPaths, sessionId: string) => join(slashDir(paths), `${safeSessionKey(sessionId)}.txt`);

/** Text left by a command whose shell line never ran (a refused permission) is not kept longer than this. */
const STALE_MS = 10 * 60 * 1000;

/** Keeps the arguments for the session's command; drops other sessions' leftovers. */
export function stashSlashArgs(paths: EchoPaths, sessionId: string, args: string, now: Date): void {
  writeFileAtomic(paths, slashFile(paths, sessionId), args, { durable: false, mode: 0o600 });
  let names: string[] = [];
  try {
    names = readdirSync(slashDir(paths));
  } catch {
    return;
  }
  for (const name of names) {
    const file = join(slashDir(paths), name);
    try {
      if (now.getTime() - statSync(file).mtimeMs > STALE_MS) removeFile(paths, file);
    } catch {
      /* raced away */
    }
  }
}

/**
 * At the end of the session's turn the command has run, or never will (its
 * shell line was refused): what the user typed is not kept past it, since it
 * is stored as typed, before any filter.
 */
export function dropSlashArgs(paths: EchoPaths, sessionId: string): void {
  // Every turn's end asks; only one after a `/rune:echoes` prompt finds a file: one stat, not removeFile's checks.
  const file = slashFile(paths, sessionId);
  try {
    if (lstatSync(file, { throwIfNoEntry: false })) removeFile(paths, file);
  } catch {
    /* raced away, or no folder for it */
  }
}

/** Whether the hook could have kept the arguments: the nearest existing folder on their way is writable. */
export function slashArgsWritable(paths: EchoPaths): boolean {
  for (let dir = slashDir(paths); ; dir = dirname(dir)) {
    try {
      accessSync(dir, constants.W_OK);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return false;
    }
    if (dirname(dir) === dir) return false;
  }
}

/** The arguments kept for the session, removed as they are taken; null when none were kept. */
export function takeSlashArgs(paths: EchoPaths, sessionId: string): string | null {
  const file = slashFile(paths, sessionId);
  const text = readTextOrNull(paths, file);
  if (text !== null) removeFile(paths, file);
  return text;
}
