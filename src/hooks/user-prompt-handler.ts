// UserPromptSubmit: keeps the arguments of a `/rune:echoes …` prompt for the
// command's CLI call (see store/session/slash-args.ts). Any other prompt
// costs nothing past reading stdin.
import { slashCommandArgs, stashSlashArgs } from '../store/session/slash-args.ts';
import type { HookContext } from './run-hook.ts';

export function userPromptSubmit(ctx: HookContext): void {
  const args = ctx.input.prompt === undefined ? null : slashCommandArgs(ctx.input.prompt);
  if (args === null) return;
  if (!ctx.input.session_id) {
    ctx.log('a /rune:echoes prompt came without a session_id; its arguments cannot reach the CLI');
    return;
  }
  stashSlashArgs(ctx.paths, ctx.input.session_id, args, ctx.now);
}
