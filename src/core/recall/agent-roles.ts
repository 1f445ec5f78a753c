// Which role's memory a subagent starts with (SPEC §8 SubagentStart): the
// user's mapping (`echoes.agents: {ward-sentinel: reviewer}`), else the `role:`
// the agent's own definition declares, else a subagent type that is itself a
// role name. Plugin agents arrive namespaced (`rune:ward-sentinel`): the part
// after the last colon is tried too. Pure: the store finds the definition's
// frontmatter and the roles that hold memory.

import { isSafeName } from '../text.ts';

/** The name of an agent without its plugin namespace (`rune:ward-sentinel` → `ward-sentinel`). */
export const bareAgentName = (agentType: string): string => agentType.slice(agentType.lastIndexOf(':') + 1);

export interface AgentRoleInput {
  agentType: string;
  /** echoes.agents from the config. */
  agents: Readonly<Record<string, string>>;
  /** The `role:` of the agent's definition, when one was found. */
  declaredRole: string | null;
  /** Roles that exist (hold memory). */
  roles: readonly string[];
}

/** The role, and which of the three rules gave it; null when the agent maps to no role with memory. */
export function roleForAgent(input: AgentRoleInput): { role: string; by: 'config' | 'frontmatter' | 'name' } | null {
  const known = new Set(input.roles);
  const bare = bareAgentName(input.agentType);
  const has = (role: string | undefined | null): role is string => typeof role === 'string' && isSafeName(role) && known.has(role);
  const configured = Object.hasOwn(input.agents, input.agentType)
    ? input.agents[input.agentType]
    : Object.hasOwn(input.agents, bare)
      ? input.agents[bare]
      : undefined;
  if (has(configured)) return { role: configured, by: 'config' };
  if (has(input.declaredRole)) return { role: input.declaredRole, by: 'frontmatter' };
  if (has(input.agentType)) return { role: input.agentType, by: 'name' };
  if (has(bare)) return { role: bare, by: 'name' };
  return null;
}

/** The `name:` and `role:` of an agent definition's YAML frontmatter (plain scalars only), without a YAML parser. */
export function agentFrontmatter(text: string): { name: string | null; role: string | null } {
  const m = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(text);
  if (!m) return { name: null, role: null };
  const get = (key: string) => {
    const v = new RegExp(`^${key}:[ \\t]*(.*?)[ \\t]*$`, 'm')
      .exec(m[1]!)?.[1]
      ?.replace(/^(["'])(.*)\1$/, '$2')
      .trim();
    return v ? v : null;
  };
  return { name: get('name'), role: get('role') };
}
