// What a failed command is known by: its error's signature as capture keeps
// it (the project's folder spelled relative to it), and for Claude Code's time
// limit the command that met it. Capture merges fixes and obstacles by this key;
// recall at a failure (store/recall/failure-recall.ts) looks lessons up by it,
// so both read a failure the same way. Small on purpose: the PostToolUseFailure
// hook loads it for every failed command. Pure.

import { commandSteps, programBase, withoutRedirections } from '../session/summary-commands.ts';
import { relativeInCommand } from '../transcript/path-spelling.ts';
import { type ErrorSignature, errorSignature, keyOutlivesLine, signatureKey, TIMED_OUT_KEY } from './error-signature.ts';
import { commandTarget, workKind } from './work-commands.ts';

/** Text as kept: capture filters secrets out of it; a reader that only looks up keys need not. */
export type Clean = (line: string) => string;

const asIs: Clean = (line) => line;

/** A timed-out failure's key: this, then the command that ran too long. */
const TIMED_OUT_PREFIX = `${TIMED_OUT_KEY}: `;

/** An error as kept: its line cleaned and the project's own folder spelled relative to it (`src/a.ts:3`). */
export function keptError(error: ErrorSignature, root: string | null, clean: Clean = asIs): ErrorSignature {
  const cleaned = clean(error.line);
  const line = root ? relativeInCommand(cleaned, root, root) : cleaned;
  if (line === error.line) return error;
  return { line, key: keyOutlivesLine(error.key) ? error.key : signatureKey(line) };
}

/**
 * The signature of a failed command's output, as kept. Claude Code's time limit is met by a command, not by
 * a message: each command (its family, or the file an interpreter runs; sudo aside) that runs too long is its own trouble.
 */
export function failureSignature(
  output: string,
  normalized: string,
  root: string | null,
  clean: Clean = asIs,
  further = '',
  raw?: string,
): ErrorSignature | null {
  const error = errorSignature(output, false, further) ?? silentExit(output, normalized, raw);
  if (!error) return null;
  const seen = keptError(error, root, clean);
  return seen.key === TIMED_OUT_KEY ? { ...seen, key: `${TIMED_OUT_PREFIX}${commandTarget(normalized)}` } : seen;
}

// All a failed command printed was its status: Claude Code's `Exit code 49`, or an editor's `Exited with code 49.`.
const STATUS_LINE = /^(?:Error: )?Exit(?:ed with)? code (-?\d+)\.?(?:\s*Signal `[^`]*`\.?)?(?:\s*Final output:)?/gm;

const SILENT_CHECKS = new Set(['test', 'build', 'typecheck', 'lint', 'format']);
// Settings given to the one command (`NODE_PATH=… node x.js`).
const ENV_PREFIX = /^(?:[A-Za-z_]\w*=(?:"[^"]*"|'[^']*'|\S*)\s+)+/;
// A program that runs another one (`sudo`, `timeout 5`, `env`, `xargs`, a shell given a line, a container, a host):
// its status is the other one's, which its name would not tell.
const RUNS_ANOTHER =
  /^(?:sudo|doas|env|nohup|nice|time|timeout|xargs|exec|command|watch|npx|pnpm|yarn|bunx|uvx|sh|bash|zsh|dash|fish|cmd(?:\.exe)?|powershell(?:\.exe)?|pwsh|ssh|docker|podman|kubectl|wsl|&|\.)$/i;

/** The program a step starts, the settings given to it aside (`NODE_PATH=… node x.js` is `node`). */
export const stepProgram = (step: string): string => programBase(/^"[^"]*"|^'[^']*'|^\S+/.exec(step.replace(ENV_PREFIX, ''))?.[0] ?? '');

/** The line of a failure known only by its program's name and status (see silentExit). */
export const isSilentExit = (line: string): boolean => / exited with code -?\d+ and printed nothing$/.test(line);

/**
 * A program that failed and printed nothing at all (a stub standing in for a missing interpreter, a client
 * that could not connect with `-s`) is known by its name and status: met again, it is the same trouble. Not
 * for status 1, which many programs give for "no" (grep, test, diff), nor from 126 up to a signal's (a program
 * not runnable or not found says so; one killed was stopped, it did not fail).
 */
function silentExit(output: string, normalized: string, raw?: string): ErrorSignature | null {
  // The output read may hold its head and its end: the same status line twice.
  const status = [...output.matchAll(STATUS_LINE)][0];
  if (!status || output.replace(STATUS_LINE, '').trim() !== '') return null;
  const code = Number(status[1]);
  // 124: `timeout` stopped it; from 126 up: not runnable, not found (said so), or killed by a signal.
  if (code === 0 || code === 1 || code === 124 || (code >= 126 && code <= 165)) return null;
  // A check that failed silently is the state of the work, like any check that failed.
  if (SILENT_CHECKS.has(workKind(normalized) ?? '')) return null;
  // One program run alone: in `a && b` or a pipe, which step failed is not known.
  const steps = commandSteps(normalized, { pipes: true }).filter((step) => !/^cd\s/.test(step));
  if (steps.length !== 1) return null;
  // Its output sent elsewhere (`2>/dev/null`, `> build.log 2>&1`), it printed nothing because it was told to;
  // `2>&1` alone sends nothing away.
  // What it reads (`< in.json`, a heredoc `<< 'PY'`) sends nothing away. The shown command ends at a heredoc's
  // marker: what follows it on the line as typed (`<<'PY' 2>/dev/null`) is read there.
  const plumbing = (line: string) =>
    line
      .replace(/\s*\d*>&\d+/g, '')
      .replace(/\s*\d*<<?-?\s*[^\s>]+/g, '')
      .trim();
  const joined = plumbing(steps[0]!);
  if (withoutRedirections(joined) !== joined) return null;
  const typed = plumbing(raw?.split('\n')[0] ?? '');
  if (withoutRedirections(typed) !== typed) return null;
  // The program itself, not what it was asked to run (`python3 -m playwright …` is python3 failing).
  const program = stepProgram(steps[0]!);
  if (!program || RUNS_ANOTHER.test(program)) return null;
  const line = `${program} exited with code ${code} and printed nothing`;
  return { line, key: line.toLowerCase() };
}

/** The command a failure's key says ran past Claude Code's time limit (`bash scripts/e2e.sh`), or null for any other failure. */
export const timedOutCommand = (key: string): string | null =>
  key.startsWith(TIMED_OUT_PREFIX) ? key.slice(TIMED_OUT_PREFIX.length) : null;
