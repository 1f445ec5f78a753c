// PreToolUse: a call made by one of the plugin's read-only review agents is
// refused when it would write (core/security/read-only-agents.ts); every other
// call, the main session's included, passes untouched.
import { isReadOnlyAgent, refuseWrite } from '../core/security/read-only-agents.ts';
import type { HookContext, HookResult } from './run-hook.ts';

export function agentGuard(ctx: HookContext): HookResult | undefined {
  const { input } = ctx;
  if (!isReadOnlyAgent(input.agent_type)) return undefined;
  const reason = refuseWrite(input.tool_name, input.tool_command);
  return reason === null ? undefined : { deny: `Rune Echoes: ${reason}.` };
}
