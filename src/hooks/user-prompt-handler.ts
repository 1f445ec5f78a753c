// UserPromptSubmit (every prompt). A `/rune:echoes …` prompt: keep its
// arguments for the command's CLI call (store/session/slash-args.ts), nothing
// else. Any other prompt: recall the few items of memory that clearly match it
// (store/recall/prompt-recall.ts) — and for most prompts, nothing, at the cost
// of reading a few small index files.
import { recallForPrompt } from '../store/recall/prompt-recall.ts';
import { slashCommandArgs, stashSlashArgs } from '../store/session/slash-args.ts';
import type { HookContext, HookResult } from './run-hook.ts';

export async function userPromptSubmit(ctx: HookContext): Promise<HookResult | undefined> {
  const prompt = ctx.input.prompt;
  if (prompt === undefined) return undefined;
  const args = slashCommandArgs(prompt);
  if (args !== null) {
    if (!ctx.input.session_id) {
      ctx.log('a /rune:echoes prompt came without a session_id; its arguments cannot reach the CLI');
      return undefined;
    }
    stashSlashArgs(ctx.paths, ctx.input.session_id, args, ctx.now);
    return undefined;
  }
  if (ctx.env.RUNE_ECHOES_DISABLE === '1' || !ctx.config.recall.onPrompt) return undefined;
  const recall = await recallForPrompt(ctx.paths, ctx.config, prompt, {
    id: ctx.input.session_id,
    now: ctx.now,
    deadline: ctx.deadline,
  });
  return recall ? { additionalContext: recall.text } : undefined;
}
