// PostToolUseFailure (a shell command that failed). When a captured lesson
// knows its error — the fix an earlier session found, an obstacle met before —
// that lesson goes beside the failed result (store/recall/failure-recall.ts);
// any other failure, most of them, costs reading the cached entries once.
import { recallForFailure } from '../store/recall/failure-recall.ts';
import { SHELL_TOOLS } from './hook-registry.ts';
import type { HookContext, HookResult } from './run-hook.ts';

export async function toolFailure(ctx: HookContext): Promise<HookResult | undefined> {
  const { error, tool_name: tool } = ctx.input;
  if (!error || !(SHELL_TOOLS as readonly string[]).includes(tool ?? '')) return undefined;
  if (ctx.env.RUNE_ECHOES_DISABLE === '1' || !ctx.config.recall.onFailure) return undefined;
  const recall = await recallForFailure(
    ctx.paths,
    ctx.config,
    { error, command: ctx.input.tool_command ?? '', cwd: ctx.input.cwd ?? ctx.project },
    {
      id: ctx.input.session_id,
      now: ctx.now,
      deadline: ctx.deadline,
    },
  );
  return recall ? { additionalContext: recall.text } : undefined;
}
