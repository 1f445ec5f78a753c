// SubagentStart: a subagent whose type maps to a role (echoes.agents, the
// `role:` of its definition, or a type that is a role name) starts with that
// role's etched entries and best lessons, within its own budget (SPEC §8).
// Its findings flow back through `record` and SubagentStop: the loop closes.
import { roleForAgent } from '../core/recall/agent-roles.ts';
import { roleSummaries } from '../store/memory/entry-cache.ts';
import { listRoles } from '../store/memory/role-listing.ts';
import { readStaleEntries } from '../store/memory/stale-entries.ts';
import { declaredRole } from '../store/recall/agent-definitions.ts';
import { appendUsage, readUsage } from '../store/usage/usage-log.ts';
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
  const summaries = await roleSummaries(paths);
  if (!summaries.some((r) => r.role === mapped.role && r.entries.length > 0)) return undefined;
  const { role } = mapped;
  // The digest code (and its secret filter) loads only for a subagent that has a role: most have none.
  const { buildRoleDigest, digestCandidates } = await import('../core/recall/digest.ts');
  const items = summaries.flatMap((r) => r.entries.map((entry) => ({ role: r.role, entry })));
  // Supersession looks across every role; scoring and staleness as for the digest.
  const { etched, lessons, traced } = digestCandidates(items, readUsage(paths), now, config.relevanceWindow, readStaleEntries(paths));
  const digest = buildRoleDigest({
    role,
    agentType,
    etched: etched.filter((d) => d.role === role),
    // The role's own lessons, traced ones too: the subagent's budget decides how many fit.
    lessons: [...lessons, ...traced].filter((d) => d.role === role),
    budgetTokens: config.recall.subagentTokens,
  });
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
        ),
      undefined,
    );
  }
  return { additionalContext: digest.text };
}
