// Recall at a failure (PostToolUseFailure of a shell command): when a command
// fails with an error a captured lesson knows — a fix found in an earlier
// session, an obstacle met before — that lesson is put beside the failed
// result, the moment it is needed, in the same inert wrapper as other recall.
// Matched by the error's signature as capture keeps it (core/capture/failure-key.ts),
// the key capture merged the lesson by: no words are guessed. This runs for
// every failed command, so the usual path — no lesson has that signature —
// reads the cached entries and nothing else; what gives a lesson
// (store/recall/failure-give.ts) loads only when one does.
import { failureSignature } from '../../core/capture/failure-key.ts';
import type { EchoesConfig } from '../../core/config/config-defaults.ts';
import { normalizeCommand } from '../../core/session/summary-commands.ts';
import { furtherWindow, outputWindow } from '../../core/transcript/result-window.ts';
import type { EchoPaths } from '../fs/echo-paths.ts';
import type { Deadline } from '../fs/role-lock.ts';
import { roleSummaries } from '../memory/entry-cache.ts';

export interface FailureRecall {
  text: string;
  /** Usage keys (`role#id`) of the lessons given. */
  keys: string[];
  tokens: number;
}

/**
 * The lessons that know the error a failed command printed, rendered, or null (most failures: an error met
 * for the first time, or one whose lesson this session was already given here). An error whose line held a
 * secret was kept by capture with the secret filtered out, so its key is not this one: it is not looked up.
 */
export async function recallForFailure(
  paths: EchoPaths,
  config: EchoesConfig,
  failed: { error: string; command: string; cwd: string },
  session: { id: string | undefined; now: Date; deadline?: Deadline },
): Promise<FailureRecall | null> {
  const normalized = normalizeCommand(failed.command, failed.cwd, paths.project);
  const sig = failureSignature(outputWindow(failed.error), normalized, paths.project, undefined, furtherWindow(failed.error));
  if (sig === null) return null;
  const signature = `error:${sig.key}`;
  const roles = await roleSummaries(paths);
  if (!roles.some((r) => r.entries.some((e) => e.signature === signature))) return null;
  const { giveForFailure } = await import('./failure-give.ts');
  return giveForFailure(paths, config, roles, signature, session);
}
