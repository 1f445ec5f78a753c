// SubagentStart: a subagent whose type maps to a role (echoes.agents, the
// `role:` of its definition, or a type that is a role name) starts with that
// role's etched entries and best lessons, within its own budget (SPEC §8).
// Its findings flow back through `record` and SubagentStop: the loop closes.
import { roleForAgent } from '../core/recall/agent-roles.ts';
import { listRoles } from '../store/memory/role-listing.ts';
import { declaredRole } from '../store/recall/agent-definitions.ts';
import { noteOwnInjection, roleDigest } from '../store/recall/role-digest-cache.ts';
import { appendUsage } from '../store/usage/usage-log.ts';
import { guarded, type HookContext, type HookResult } from './run-hook.ts';

export async function subagentStart(ctx: HookContext): Promise<HookResult | undefined> {
  const { paths, config, env, input, now } = ctx;
  const agentType = input.agent_type;
  if (!agentType || env.RUNE_ECHOES_DISABLE === '1' || !config.recall.onSubagent) return undefined;
  // Which role, from folder names alone: most subagents (Explore, general-purpose) map to none, and cost no parse.
  const mapped = roleForAgent({
    agentType,
    agents: config.agents,
    declaredRole: declaredRole(agentType, {
      project: ctx.project,
      home: env.HOME || undefined,
      pluginRoot: env.CLAUDE_PLUGIN_ROOT || undefined,
    }),
    roles: listRoles(paths),
  });
  if (mapped === null) return undefined;
  const { role } = mapped;
  // Usually ready: computed by the last subagent of this type, or by the worker that last changed memory.
  const { digest, usage } = await roleDigest(paths, config, role, agentType, now);
  if (digest === null) return undefined;
  if (input.session_id) {
    const session = input.session_id;
    await guarded(
      ctx,
      'usage log',
      () =>
        appendUsage(
          paths,
          {
            ts: now.toISOString(),
            session,
            event: 'injected',
            via: 'subagent',
            agent: agentType,
            ids: digest.injectedKeys,
            tokens: digest.tokens,
          },
          ctx.deadline,
          // An injected line changes no score (only working sessions' use does): the next start need not read it.
          (before, after) => noteOwnInjection(paths, usage, before, after),
        ),
      undefined,
    );
  }
  return { additionalContext: digest.text };
}
