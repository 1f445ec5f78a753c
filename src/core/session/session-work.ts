// Whether a session "did work" (SPEC §8): only such a session replaces the
// hand-off in EPHEMERAL.md, writes archive logs, or is handed on after a
// crash. A session that only ran `/rune:echoes` commands, or used no tool and
// wrote little, leaves the last working session's hand-off as it is — so the
// next session that works is told what the last one that worked did.

import type { SessionSummary } from './summary-model.ts';

/** Requests (other than `/rune:echoes`) adding up to this many characters are work even without a tool. */
export const TALK_CHARS = 200;

/** The plugin's own slash command (`/rune:echoes …`, `/echoes …`). */
const ECHOES_PROMPT = /^\/(?:rune:)?echoes(?:\s|$)/;
/**
 * The plugin's CLI when it only reads (what `/rune:echoes` and its follow-ups run); `record`,
 * `remember`, `forget` and the other writing subcommands are work.
 */
const ECHOES_READ =
  /^(?:rune-echoes|node\s+"?[^\s"]*dist\/cli\.mjs"?)(?:\s+(?:--slash-args\b.*|(?:show|search|status|remembrance|help)\b.*|--help|-h|--version)|\s*)$/;

/**
 * True when the session touched a file, searched, ran a command (other than
 * the plugin's CLI reading memory), kept a todo list, or asked for something in
 * at least TALK_CHARS characters of its own words (`/rune:echoes` prompts do
 * not count).
 */
export function didWork(s: SessionSummary): boolean {
  if (s.filesEdited.length > 0 || s.filesRead.length > 0 || (s.searches?.length ?? 0) > 0) return true;
  if (s.openTodos.length > 0 || s.todosSeen === true) return true;
  if (s.commands.some((c) => !ECHOES_READ.test(c.command.trim()))) return true;
  const asked = s.requests.filter((r) => !ECHOES_PROMPT.test(r.trim()));
  return asked.reduce((n, r) => n + r.trim().length, 0) >= TALK_CHARS;
}
