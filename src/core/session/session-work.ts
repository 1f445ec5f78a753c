// Whether a session "did work" (SPEC §8): only such a session replaces the
// hand-off in EPHEMERAL.md, writes archive logs, or is handed on after a
// crash. A session that only ran `/rune:echoes` commands, or used no tool and
// wrote little, leaves the last working session's hand-off as it is — so the
// next session that works is told what the last one that worked did.

import { commandSteps } from './summary-commands.ts';
import type { SessionSummary } from './summary-model.ts';

/** Requests (other than `/rune:echoes`) adding up to this many characters are work even without a tool. */
export const TALK_CHARS = 200;

/** The plugin's own slash command (`/rune:echoes …`, `/echoes …`). */
export const ECHOES_PROMPT = /^\/(?:rune:)?echoes(?:\s|$)/;
/**
 * The plugin's CLI when it only reads (what `/rune:echoes` and its follow-ups run); `record`,
 * `remember`, `forget` and the other writing subcommands are work.
 */
const ECHOES_READ =
  /^(?:rune-echoes|node\s+(?:"[^"\n]*dist\/cli\.mjs"|'[^'\n]*dist\/cli\.mjs'|[^\s"']*dist\/cli\.mjs))(?:\s+(?:--slash-args\b|show\b|search\b|status\b|remembrance\b|help\b|--help\b|-h\b|--version\b)(?:"[^"\n`$]*"|'[^'\n]*'|[^;&|<>`$()\n"'])*|\s*)$/;

/** What may sit beside a memory read in one command line: moving, printing, filtering what it printed. */
const BESIDE_READ =
  /^(?:cd(?:\s+\S+)?|true|:|echo(?:\s[^<>`$()]*)?|printf(?:\s[^<>`$()]*)?|(?:head|tail|grep|wc|sort|uniq|less|more|jq)(?:\s[^<>`$()]*)?)$/;

/**
 * True when a command line only reads memory through the plugin's CLI, however its steps are chained
 * (`rune-echoes show && rune-echoes search alpha`, `rune-echoes status 2>&1 | head`).
 */
export function readsMemoryOnly(command: string): boolean {
  const steps = commandSteps(command.replace(/\s+\d?>&\d\b|\s+\d?>\s*\/dev\/null\b/g, ''), { pipes: true, lines: true });
  return steps.some((s) => ECHOES_READ.test(s)) && steps.every((s) => ECHOES_READ.test(s) || BESIDE_READ.test(s));
}

/** The memory folders: reading or searching them is what `/rune:echoes` does, not work on the project. */
const MEMORY_PATH = /(?:^|[\s\\/])\.claude[\\/]echoes(?:[\\/]|$)/;

/**
 * Tools the summary's other fields do not count, and that are not bookkeeping:
 * handing a task to a subagent, the web, notebooks, MCP servers.
 */
const COUNTED_OR_BOOKKEEPING = new Set([
  'Read',
  'Write',
  'Edit',
  'MultiEdit',
  'Grep',
  'Glob',
  'Bash',
  'PowerShell',
  'BashOutput',
  'KillShell',
  'KillBash',
  'TodoWrite',
  'AskUserQuestion',
  'ExitPlanMode',
  'EnterPlanMode',
  'Skill',
  'SlashCommand',
  'ToolSearch',
  'ListMcpResourcesTool',
  'ReadMcpResourceTool',
]);

export const isOtherWorkTool = (name: string): boolean => name !== '' && !COUNTED_OR_BOOKKEEPING.has(name);

/**
 * True when the session touched a file, searched, ran a command (other than
 * the plugin's CLI reading memory), kept a todo list, or asked for something in
 * at least TALK_CHARS characters of its own words (`/rune:echoes` prompts do
 * not count).
 */
export function didWork(s: SessionSummary): boolean {
  if (s.filesEdited.length > 0) return true;
  if (s.filesRead.some((f) => !MEMORY_PATH.test(f)) || (s.searches ?? []).some((q) => !MEMORY_PATH.test(q))) return true;
  if ((s.otherTools ?? 0) > 0 || (s.privateWork ?? 0) > 0) return true;
  if (s.openTodos.length > 0 || s.todosSeen === true) return true;
  if (s.commands.some((c) => !readsMemoryOnly(c.command))) return true;
  const asked = s.requests.filter((r) => !ECHOES_PROMPT.test(r.trim()));
  return asked.reduce((n, r) => n + r.trim().length, 0) >= TALK_CHARS;
}
