// What a failed command is known by: its error's signature as capture keeps
// it (the project's folder spelled relative to it), and for Claude Code's time
// limit the command that met it. Capture merges fixes and obstacles by this key;
// recall at a failure (store/recall/failure-recall.ts) looks lessons up by it,
// so both read a failure the same way. Small on purpose: the PostToolUseFailure
// hook loads it for every failed command. Pure.
import { relativeInCommand } from '../transcript/path-spelling.ts';

import { type ErrorSignature, errorSignature, signatureKey, TIMED_OUT_KEY } from './error-signature.ts';
import { commandTarget } from './work-commands.ts';

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
  return { line, key: error.key === TIMED_OUT_KEY ? error.key : signatureKey(line) };
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
): ErrorSignature | null {
  const error = errorSignature(output, false, further);
  if (!error) return null;
  const seen = keptError(error, root, clean);
  return seen.key === TIMED_OUT_KEY ? { ...seen, key: `${TIMED_OUT_PREFIX}${commandTarget(normalized)}` } : seen;
}

/** The command a failure's key says ran past Claude Code's time limit (`bash scripts/e2e.sh`), or null for any other failure. */
export const timedOutCommand = (key: string): string | null =>
  key.startsWith(TIMED_OUT_PREFIX) ? key.slice(TIMED_OUT_PREFIX.length) : null;
