// The `role:` a subagent's own definition declares (SPEC §8 SubagentStart),
// found where Claude Code keeps agent files: the project's .claude/agents/,
// the user's ~/.claude/agents/, and this plugin's agents/ for `rune:` agents.
// Only the role's name is taken from the file (checked as a role name): no
// other text of it reaches the model. The first 8 KB of a file are enough for
// its frontmatter.
import { closeSync, openSync, readdirSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { agentFrontmatter, bareAgentName } from '../../core/recall/agent-roles.ts';

const HEAD_BYTES = 8192;
/** Folders with more agent files than this are not scanned for a `name:` that differs from the file name. */
const MAX_SCAN = 200;
const AGENT_NAME = /^[A-Za-z0-9][\w.-]{0,127}$/;

function head(path: string): string | null {
  let fd: number | null = null;
  try {
    fd = openSync(path, 'r');
    const buf = Buffer.alloc(HEAD_BYTES);
    const n = readSync(fd, buf, 0, HEAD_BYTES, 0);
    return buf.subarray(0, n).toString('utf8');
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

export interface AgentFolders {
  project: string;
  home: string | undefined;
  /** This plugin's root (CLAUDE_PLUGIN_ROOT), whose agents are named `rune:<name>`. */
  pluginRoot: string | undefined;
}

/** The folders an agent of this type may be defined in, most specific first. */
function foldersFor(agentType: string, where: AgentFolders): string[] {
  const namespace = agentType.includes(':') ? agentType.slice(0, agentType.lastIndexOf(':')) : '';
  if (namespace !== '') return namespace === 'rune' && where.pluginRoot ? [join(where.pluginRoot, 'agents')] : [];
  return [join(where.project, '.claude', 'agents'), ...(where.home ? [join(where.home, '.claude', 'agents')] : [])];
}

/** The role the agent's definition declares, or null (no definition found, or no `role:` in it). */
export function declaredRole(agentType: string, where: AgentFolders): string | null {
  const name = bareAgentName(agentType);
  if (!AGENT_NAME.test(name)) return null;
  for (const dir of foldersFor(agentType, where)) {
    const direct = head(join(dir, `${name}.md`));
    if (direct !== null) {
      const fm = agentFrontmatter(direct);
      if (fm.name === null || fm.name === name) return fm.role;
    }
    // A definition whose `name:` differs from its file name.
    let files: string[] = [];
    try {
      files = readdirSync(dir).filter((f) => f.endsWith('.md'));
    } catch {
      continue;
    }
    for (const f of files.slice(0, MAX_SCAN)) {
      const text = head(join(dir, f));
      if (text === null) continue;
      const fm = agentFrontmatter(text);
      if (fm.name === name) return fm.role;
    }
  }
  return null;
}
