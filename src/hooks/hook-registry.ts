// The one list of the plugin's hooks. hooks/hooks.json is generated from it
// by the build, the build bundles one entry per row (src/hooks/entries/<name>.ts
// → dist/<name>.cjs), the runner takes its time budget and run-marker name
// from it, `status` lists its rows, and the tests check all of that.

import { NO_NODE_MESSAGE } from './node-required.ts';

export type HookEvent =
  | 'SessionStart'
  | 'UserPromptSubmit'
  | 'PostToolUseFailure'
  | 'PreCompact'
  | 'Stop'
  | 'SubagentStart'
  | 'SubagentStop'
  | 'SessionEnd';

/** Claude Code's shell tools: a failure of theirs is a command's error (PostToolUseFailure is matched to them). */
export const SHELL_TOOLS = ['Bash', 'PowerShell'] as const;

export interface HookSpec {
  /** Bundle, entry file and last-run marker name. */
  name: string;
  event: HookEvent;
  /** Claude Code's matcher (sources, triggers or tool names), or null for every occurrence. */
  matcher: string | null;
  /** The time limit hooks.json gives Claude Code, in seconds. */
  timeoutSec: number;
  /** How long the handler may take before the runner answers without it (ms), from the environment. */
  budgetMs: (env: NodeJS.ProcessEnv) => number;
}

// Claude Code gives SessionEnd hooks about 1.5 s in all, whatever hooks.json
// says, unless CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS raises it.
const sessionEndBudget = (env: NodeJS.ProcessEnv): number =>
  Math.max(500, (Number(env.CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS) || 1500) - 100);

export const HOOKS: readonly HookSpec[] = [
  {
    name: 'session-start',
    event: 'SessionStart',
    matcher: 'startup|resume|clear|compact',
    timeoutSec: 10,
    budgetMs: () => 8000,
  },
  {
    // Runs on every prompt: keeps `/rune:echoes …` arguments, and recalls memory only for a prompt it clearly matches.
    name: 'user-prompt-submit',
    event: 'UserPromptSubmit',
    matcher: null,
    timeoutSec: 10,
    budgetMs: () => 5000,
  },
  {
    // Only a shell command that failed starts it (no process per tool call): the lesson that knows its error.
    name: 'tool-failure',
    event: 'PostToolUseFailure',
    matcher: SHELL_TOOLS.join('|'),
    timeoutSec: 10,
    budgetMs: () => 5000,
  },
  {
    name: 'pre-compact',
    event: 'PreCompact',
    matcher: 'manual|auto',
    timeoutSec: 30,
    budgetMs: () => 25_000,
  },
  {
    name: 'stop',
    event: 'Stop',
    matcher: null,
    timeoutSec: 15,
    budgetMs: () => 12_000,
  },
  {
    // A subagent whose type maps to a role starts with that role's memory (hooks/subagent-start-handler.ts).
    name: 'subagent-start',
    event: 'SubagentStart',
    matcher: null,
    timeoutSec: 10,
    budgetMs: () => 5000,
  },
  {
    name: 'subagent-stop',
    event: 'SubagentStop',
    matcher: null,
    timeoutSec: 15,
    budgetMs: () => 12_000,
  },
  {
    name: 'session-end',
    event: 'SessionEnd',
    matcher: null,
    timeoutSec: 10,
    budgetMs: sessionEndBudget,
  },
];

export function hookSpec(name: string): HookSpec {
  const spec = HOOKS.find((h) => h.name === name);
  if (!spec) throw new Error(`no hook named ${name} in the registry`);
  return spec;
}

/**
 * How Claude Code starts a hook: `node` on its bundle, through the shell Claude Code picks (sh, bash or zsh;
 * PowerShell on Windows without Git Bash: pwsh 7, else the Windows PowerShell 5.1 every Windows has, with
 * `${CLAUDE_PLUGIN_ROOT}` written as `${env:CLAUDE_PLUGIN_ROOT}`). Every hook but the start runs
 * `node "…"; exit 0`, silent without node and read alike by all of them. The start runs
 * `node "…" --% ; if [ $? -ne 0 ]; then echo '{"systemMessage": …}'; fi`: in a POSIX shell `--%` is one more
 * argument the bundle ignores, and only a node that cannot start or run the bundle (none on PATH, or one too
 * old) fails, since the runner itself always exits 0; the user is then told, once, what is missing and how
 * to get it. In PowerShell `--%` stops parsing: the rest of the line, with no pipe in it, is handed to node
 * as its arguments, so nothing there is PowerShell syntax (5.1 cannot parse `||`), and a node that is not
 * there is reported by PowerShell itself. What Claude Code adds after a command for PowerShell (reading
 * `$?` and `$LASTEXITCODE`) starts on a line of its own, where `--%` no longer holds. The exec form
 * (`command` and `args`, no shell) was measured and left: without node every hook, not only the start,
 * would report a failure to the user.
 */
export function hookCommand(h: HookSpec): { type: 'command'; command: string; timeout: number } {
  const bundle = `\${CLAUDE_PLUGIN_ROOT}/dist/${h.name}.cjs`;
  const message = JSON.stringify({ systemMessage: NO_NODE_MESSAGE });
  return h.event === 'SessionStart'
    ? { type: 'command', command: `node "${bundle}" --% ; if [ $? -ne 0 ]; then echo '${message}'; fi`, timeout: h.timeoutSec }
    : { type: 'command', command: `node "${bundle}"; exit 0`, timeout: h.timeoutSec };
}

/** hooks/hooks.json as Claude Code reads it: `node` on the bundle, nothing else. */
export function renderHooksJson(): string {
  const hooks: Record<string, unknown[]> = {};
  for (const h of HOOKS) {
    const command = hookCommand(h);
    const group = h.matcher === null ? { hooks: [command] } : { matcher: h.matcher, hooks: [command] };
    const groups = hooks[h.event] ?? [];
    groups.push(group);
    hooks[h.event] = groups;
  }
  const doc = {
    description:
      "Rune Echoes: hand the last session to the next, recall memory that matches a prompt or a subagent's role, checkpoint before compaction, consolidate findings (generated from src/hooks/hook-registry.ts by npm run build)",
    hooks,
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}
