// Ready-made rules for the fake model. The scenario is written in the prompt
// itself, one step per line, so a test reads like what it does:
//
//   RUN: rune-echoes show          → Bash tool_use {command}
//   WRITE: /abs/path :: content    → Write tool_use {file_path, content}
//   EDIT: /abs/path :: old => new  → Edit tool_use {file_path, old_string, new_string}
//   TASK: prompt for a subagent    → Agent tool_use (foreground, general-purpose)
//   TOOL: Name {"json":"input"}    → any tool_use
//
// The rules are stateless: step i is issued when the conversation holds i tool
// uses since the human turn, and once every step is done the model answers
// with a text that quotes the last tool result, so tests can see it.

import type { Reply, ScriptRule } from './fake-anthropic-server.ts';
import type { MessagesCall } from './messages-call.ts';

export interface ToolStep {
  name: string;
  input: Record<string, unknown>;
}

/** Parses the step lines of a prompt (see the file comment). Other lines are ignored. */
export function parseSteps(prompt: string, toolNames: string[]): ToolStep[] {
  const steps: ToolStep[] = [];
  for (const rawLine of prompt.split('\n')) {
    const line = rawLine.trim();
    const match = /^(RUN|WRITE|EDIT|TASK|TOOL):\s?(.*)$/.exec(line);
    if (!match) continue;
    const [, kind, arg = ''] = match;
    if (kind === 'RUN') steps.push({ name: 'Bash', input: { command: arg, description: 'Run scripted command' } });
    if (kind === 'WRITE') {
      const [path = '', content = ''] = splitOnce(arg, ' :: ');
      steps.push({ name: 'Write', input: { file_path: path, content: unescapeNewlines(content) } });
    }
    if (kind === 'EDIT') {
      const [path = '', change = ''] = splitOnce(arg, ' :: ');
      const [oldString = '', newString = ''] = splitOnce(change, ' => ');
      steps.push({ name: 'Edit', input: { file_path: path, old_string: oldString, new_string: newString } });
    }
    if (kind === 'TASK') {
      // Older CLIs call the subagent tool Task, newer ones Agent.
      const name = toolNames.includes('Agent') ? 'Agent' : 'Task';
      steps.push({
        name,
        input: { description: 'Scripted subagent task', prompt: arg, subagent_type: 'general-purpose', run_in_background: false },
      });
    }
    if (kind === 'TOOL') {
      const [name = '', json = '{}'] = splitOnce(arg, ' ');
      steps.push({ name, input: JSON.parse(json) as Record<string, unknown> });
    }
  }
  return steps;
}

/** Plays the step lines of the current prompt, then summarises. */
export const scriptedSteps: ScriptRule = (call) => {
  const steps = parseSteps(call.promptText, call.toolNames);
  if (steps.length === 0) return undefined;
  const done = call.toolUsesThisTurn.length;
  const next = steps[done];
  if (next) return { content: [{ type: 'tool_use', name: next.name, input: next.input }] };
  const results = call.toolResults;
  const last = results.at(-1);
  return `Done with ${steps.length} step(s). Last tool result${last?.isError ? ' (error)' : ''}: ${last?.text ?? '(none)'}`;
};

/**
 * Claude Code's /compact (and auto-compact) sends the conversation with a
 * request to summarise it. Answer with a plausible summary in the shape the
 * prompt asks for (`<summary>` tags).
 */
export const compactionSummary: ScriptRule = (call) => {
  if (!isCompactionRequest(call)) return undefined;
  return [
    '<analysis>The user ran a short scripted session.</analysis>',
    '<summary>',
    '1. Primary Request and Intent: the user exercised the fake model in an end-to-end test.',
    '2. Key Technical Concepts: Claude Code hooks, compaction.',
    '3. Files and Code Sections: none.',
    '4. Errors and fixes: none.',
    '5. Problem Solving: none needed.',
    '6. All user messages: the test prompts.',
    '7. Pending Tasks: none.',
    '8. Current Work: compaction test.',
    '9. Optional Next Step: none.',
    '</summary>',
  ].join('\n');
};

export function isCompactionRequest(call: MessagesCall): boolean {
  // 2.1.330 sends the instructions as the last user message ("Please provide
  // your summary based on the conversation so far…", with a <summary> example).
  const text = call.lastUserText;
  return /provide your summary based on the conversation|Respond with TEXT ONLY/i.test(text);
}

/**
 * Side requests that want a short title or topic (JSON or plain). None were
 * seen from `claude -p` 2.1.330 with nonessential traffic off; this is a guard
 * so that, should one appear, it gets a short answer instead of a scripted step.
 */
export const sideRequests: ScriptRule = (call) => {
  const system = call.systemText;
  if (/\btitle\b/i.test(system) && call.toolNames.length === 0) {
    return /json/i.test(system) ? '{"title":"Fake session"}' : 'Fake session';
  }
  if (/isNewTopic/.test(system)) return '{"isNewTopic": false, "title": null}';
  return undefined;
};

/** The rules most scenarios want, in priority order. */
export function defaultRules(): ScriptRule[] {
  return [compactionSummary, sideRequests, scriptedSteps];
}

/** A rule that answers with a fixed reply when the prompt contains a marker. */
export function onPrompt(marker: string | RegExp, reply: Reply | string): ScriptRule {
  return (call) => (matches(call.promptText, marker) ? reply : undefined);
}

function matches(text: string, marker: string | RegExp): boolean {
  return typeof marker === 'string' ? text.includes(marker) : marker.test(text);
}

function splitOnce(text: string, separator: string): [string, string] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, ''] : [text.slice(0, at), text.slice(at + separator.length)];
}

function unescapeNewlines(text: string): string {
  return text.replace(/\\n/g, '\n');
}
