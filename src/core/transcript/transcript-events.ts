// One line of a Claude Code JSONL transcript → zero or more typed events.
//
// The format is undocumented and has drifted across versions (1.0.x → 2.1.x):
// assistant messages split one content block per line, old `summary` lines,
// `progress`/`queue-operation`/`file-history-snapshot` bookkeeping, inline
// and separate-file subagent turns. This module knows those shapes so the
// summary builder only sees meaning. It never throws: a line it cannot read
// becomes a `garbage` event. Private text is stripped here, before anything
// downstream can see it.

import { FAILURE_HEAD, RESULT_HEAD, RESULT_TAIL } from './result-window.ts';
import { MAX_TEXT, RECAP_TEXT, TranscriptGuard } from './transcript-guard.ts';
import { PLAN_HEAD, readTodos, readToolCall, type TodoItem, type ToolCall } from './transcript-tools.ts';

export type { TodoItem, ToolCall } from './transcript-tools.ts';

/** Why a user-role line is not one of the user's requests. */
export type AsideKind =
  | 'meta' // isMeta: skill bodies, caveats, hook feedback injected as a user turn
  | 'plumbing' // local command stdout/stderr, caveats, `!` bash mode
  | 'notification' // background task notifications
  | 'hook' // hook feedback text
  | 'compact-prompt' // the summarizer's task in a compaction agent's transcript
  | 'compact-command' // /compact and its instructions: they steer the summary, they ask for no work
  | 'builtin-command' // /clear, /model sonnet, /mcp …: settings and UI, not work
  | 'warmup' // the message a subagent is started with before its work
  | 'empty';

export type TranscriptEvent =
  | { kind: 'context'; sessionId: string | null; cwd: string | null; branch: string | null; ts: string | null }
  | { kind: 'prompt'; text: string; slash: boolean; sidechain: boolean }
  | { kind: 'aside'; aside: AsideKind; sidechain: boolean }
  /** A compaction summary: a source of what was asked and left open, never a request itself. */
  | { kind: 'recap'; text: string; sidechain: boolean }
  | { kind: 'interrupt'; sidechain: boolean }
  | { kind: 'assistant-text'; messageId: string; text: string; sidechain: boolean }
  | { kind: 'tool-use'; messageId: string; call: ToolCall; cwd: string | null; sidechain: boolean; hidden?: boolean }
  | { kind: 'tool-result'; result: ToolResult; sidechain: boolean }
  | { kind: 'compact'; trigger: string | null }
  | { kind: 'turn-end' }
  | { kind: 'ignored'; lineType: string }
  | { kind: 'garbage'; reason: 'not-json' | 'not-object' | 'no-type' | 'bad-message' };

export interface ToolResult {
  toolUseId: string;
  isError: boolean;
  /** The head of the result text (long outputs are cut: only the start matters here). */
  text: string;
  /** The end of the result text, where test runners print their totals (looked at, never kept). */
  tail: string;
  /** A failure's text after its head, up to FAILURE_HEAD (result-window.ts): what a line that only says it failed was about. */
  further?: string;
  /** From `Exit code N` in the text or `exitCode` in the structured result. */
  exitCode: number | null;
  /** AskUserQuestion: the user's choices. */
  answers: Array<{ question: string; answer: string }>;
  /** ExitPlanMode: the plan text when the structured result carries it. */
  plan: string | null;
  /** TaskCreate: the id Claude Code gave the new task. */
  taskId: string | null;
  /** TaskList: the whole list, a snapshot that replaces what was known. */
  tasks: Array<TodoItem & { id: string }> | null;
  /** A refused tool call's note from the user ("…the user said: use lru_cache instead"): what they asked for next. */
  userSaid?: string;
}

// How Claude Code words a refusal the user explained.
const USER_SAID = /\bthe user said:\s*\n([\s\S]+)$/;

// Built-in commands that change settings or drive the UI: with or without arguments (`/model sonnet`,
// `/add-dir ../api`, `/resume 1234`) they ask nothing of the agent and say nothing about the work.
// Work commands (`/init`, `/review`, a plugin's or the user's own) are requests.
const BUILTIN_COMMANDS = new Set([
  'add-dir',
  'agents',
  'allowed-tools',
  'bashes',
  'btw',
  'bug',
  'clear',
  'color',
  'compact',
  'config',
  'context',
  'copy',
  'cost',
  'doctor',
  'effort',
  'exit',
  'export',
  'fast',
  'feedback',
  'help',
  'hooks',
  'ide',
  'keybindings',
  'login',
  'logout',
  'mcp',
  'memory',
  'model',
  'new',
  'output-style',
  'permissions',
  'plugin',
  'plugins',
  'privacy-settings',
  'quit',
  'release-notes',
  'rename',
  'reset',
  'resume',
  'rewind',
  'sandbox',
  'settings',
  'status',
  'statusline',
  'stickers',
  'tasks',
  'terminal-setup',
  'theme',
  'todos',
  'upgrade',
  'usage',
  'vim',
]);

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

/**
 * The events of one line. `guard` carries `<private>` spans from one line to
 * the next: pass the same guard for every line of a transcript, in order.
 */
export function parseTranscriptLine(line: string, guard: TranscriptGuard = new TranscriptGuard()): TranscriptEvent[] {
  // A byte-order mark can open a file written by other tools.
  const trimmed = (line.charCodeAt(0) === 0xfeff ? line.slice(1) : line).trim();
  if (!trimmed) return [];
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return [{ kind: 'garbage', reason: 'not-json' }];
  }
  if (!isObject(value)) return [{ kind: 'garbage', reason: 'not-object' }];
  const type = str(value.type);
  if (!type) return [{ kind: 'garbage', reason: 'no-type' }];

  const events: TranscriptEvent[] = [];
  const ctx = contextOf(value);
  if (ctx) events.push(ctx);
  const sidechain = value.isSidechain === true;
  const cwd = str(value.cwd);

  switch (type) {
    case 'user':
      return userLine(value, events, sidechain, guard);
    case 'assistant':
      return assistantLine(value, events, sidechain, cwd, guard);
    case 'system':
      return systemLine(value, events, sidechain, guard);
    case 'progress': {
      // Claude Code 2.1 writes what a subagent does into the main transcript as progress lines, each
      // carrying one of the subagent's messages: read like the inline sidechain lines of older versions.
      const data = isObject(value.data) ? value.data : null;
      const inner = data && data.type === 'agent_progress' && isObject(data.message) ? data.message : null;
      if (inner && (inner.type === 'user' || inner.type === 'assistant')) {
        return inner.type === 'user' ? userLine(inner, events, true, guard) : assistantLine(inner, events, true, cwd, guard);
      }
      events.push({ kind: 'ignored', lineType: type });
      return events;
    }
    default:
      events.push({ kind: 'ignored', lineType: type });
      return events;
  }
}

function contextOf(v: Json): TranscriptEvent | null {
  // Only conversation entries (they carry a uuid) name the session: a
  // queue-operation line may belong to the process that spawned this one.
  const entry = typeof v.uuid === 'string';
  const ts = str(v.timestamp);
  const sessionId = entry ? str(v.sessionId) : null;
  const cwd = entry ? str(v.cwd) : null;
  const branch = entry ? str(v.gitBranch) : null;
  if (!ts && !sessionId && !cwd && !branch) return null;
  return { kind: 'context', sessionId, cwd, branch: branch || null, ts };
}

function userLine(v: Json, events: TranscriptEvent[], sidechain: boolean, guard: TranscriptGuard): TranscriptEvent[] {
  const message = v.message;
  if (!isObject(message)) return [...events, { kind: 'garbage', reason: 'bad-message' }];
  const content = message.content;
  if (v.isCompactSummary === true) {
    const text = typeof content === 'string' ? content : Array.isArray(content) ? blockTexts(content) : '';
    events.push({ kind: 'recap', text: guard.text(stripInjected(text), sidechain, RECAP_TEXT), sidechain });
    return events;
  }
  const texts: string[] = [];
  let usable = false;
  if (typeof content === 'string') {
    texts.push(content);
    usable = true;
  } else if (Array.isArray(content)) {
    for (const block of content) {
      if (!isObject(block)) continue;
      if (block.type === 'text' && typeof block.text === 'string') {
        texts.push(block.text);
        usable = true;
      } else if (block.type === 'tool_result') {
        events.push({ kind: 'tool-result', result: toolResult(block, v.toolUseResult, sidechain, guard), sidechain });
        usable = true;
      } else if (block.type === 'image' || block.type === 'document') {
        usable = true;
      }
    }
  }
  if (!usable) return [...events, { kind: 'garbage', reason: 'bad-message' }];
  if (texts.length > 0) events.push(classifyUserText(texts.join('\n'), v.isMeta === true, sidechain, guard));
  return events;
}

/** Drops blocks Claude Code injects into user turns; they are not the user's words. */
export function stripInjected(text: string): string {
  if (!text.includes('<')) return text;
  return (
    text
      .replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, ' ')
      .replace(/<user-prompt-submit-hook>[\s\S]*?<\/user-prompt-submit-hook>/g, ' ')
      // An IDE's notices (`<ide_opened_file>`, `<ide_selection>` …): what the user looked at, not what they asked.
      .replace(/<(ide_[a-z_]+)>[\s\S]*?<\/\1>/g, ' ')
  );
}

/** Decides whether user-role text is a request, and renders slash commands as "/name args". */
export function classifyUserText(
  raw: string,
  isMeta: boolean,
  sidechain: boolean,
  guard: TranscriptGuard = new TranscriptGuard(),
): TranscriptEvent {
  const aside = (a: AsideKind): TranscriptEvent => ({ kind: 'aside', aside: a, sidechain });
  if (isMeta) return aside('meta');
  // Claude Code's injected blocks go first: they are not the user's words and must not open a private span.
  const text = guard.text(stripInjected(raw), sidechain, CONTINUED.test(raw) ? RECAP_TEXT : MAX_TEXT).trim();
  if (!text) return aside('empty');
  if (/^\[Request interrupted by user/.test(text)) return { kind: 'interrupt', sidechain };
  if (text.includes('<command-name>')) return slashCommand(text, sidechain);
  if (/^<(local-command-(stdout|stderr|caveat)|bash-(input|stdout|stderr))>/.test(text)) return aside('plumbing');
  if (text.startsWith('Caveat: The messages below were generated by the user while running local commands')) {
    return aside('plumbing');
  }
  if (text.startsWith('<task-notification>')) return aside('notification');
  if (
    /^(Stop|SubagentStop|PreToolUse|PostToolUse(?:Failure)?|UserPromptSubmit)(:\S+)? hook (feedback|additional context|blocking error)/.test(
      text,
    )
  ) {
    return aside('hook');
  }
  if (CONTINUED.test(text)) return { kind: 'recap', text, sidechain };
  if (COMPACT_PROMPT.test(text)) return aside('compact-prompt');
  // A settings command as typed (transcripts of some versions keep it so, without the command tags).
  const typed = /^\/([\w-]+)(?:\s|$)/.exec(text);
  if (typed && BUILTIN_COMMANDS.has(typed[1]!)) return aside(typed[1] === 'compact' ? 'compact-command' : 'builtin-command');
  // The message Claude Code starts each subagent with before any work, to warm its cache.
  if (sidechain && text === 'Warmup') return aside('warmup');
  return { kind: 'prompt', text, slash: false, sidechain };
}

function tagText(text: string, tag: string): string {
  const m = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(text);
  return m?.[1]?.trim() ?? '';
}

function slashCommand(text: string, sidechain: boolean): TranscriptEvent {
  const name = tagText(text, 'command-name').replace(/^\//, '');
  const args = tagText(text, 'command-args');
  if (!name) return { kind: 'aside', aside: 'plumbing', sidechain };
  if (name === 'compact') return { kind: 'aside', aside: 'compact-command', sidechain };
  if (BUILTIN_COMMANDS.has(name)) return { kind: 'aside', aside: 'builtin-command', sidechain };
  return { kind: 'prompt', text: args ? `/${name} ${args}` : `/${name}`, slash: true, sidechain };
}

// The summary that opens a conversation continued after compaction.
const CONTINUED = /^\s*This session is being continued from a previous conversation/;

// Claude Code's request to its compaction agent (the summarizer's side of a compaction).
const COMPACT_PROMPT = /^Your task is to create a detailed summary of the conversation so far\b/;

function blockTexts(content: unknown[]): string {
  return content
    .filter((b): b is Json => isObject(b) && b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string)
    .join('\n');
}

/** The last characters of a result's text. */
function resultTail(content: unknown): string {
  const text = typeof content === 'string' ? content : Array.isArray(content) ? blockTexts(content) : '';
  return text.length > RESULT_TAIL ? text.slice(-RESULT_TAIL) : text;
}

function resultText(content: unknown, head = RESULT_HEAD): string {
  if (typeof content === 'string') return content.slice(0, head);
  if (!Array.isArray(content)) return '';
  let out = '';
  for (const block of content) {
    if (isObject(block) && block.type === 'text' && typeof block.text === 'string') {
      out += (out ? '\n' : '') + block.text.slice(0, head);
      if (out.length >= head) break;
    }
  }
  return out.slice(0, head);
}

function toolResult(block: Json, structured: unknown, sidechain: boolean, guard: TranscriptGuard): ToolResult {
  // The head of a result is only looked at (exit codes), never kept: private spans go, no filtering needed.
  const text = guard.peek(resultText(block.content), sidechain);
  const tail = guard.peek(resultTail(block.content), sidechain);
  let exitCode: number | null = null;
  // Claude Code's Bash says `Exit code 1`; served by an editor over ACP it says `Exited with code 1.` and is no error.
  const m = /^(?:Error: )?Exit(?: code|ed with code) (-?\d+)/.exec(text);
  if (m) exitCode = Number(m[1]);
  const answers: ToolResult['answers'] = [];
  let plan: string | null = null;
  let taskId: string | null = null;
  let tasks: ToolResult['tasks'] = null;
  if (isObject(structured)) {
    if (typeof structured.exitCode === 'number') exitCode = structured.exitCode;
    if (isObject(structured.answers)) {
      for (const [question, answer] of Object.entries(structured.answers)) {
        if (typeof answer === 'string')
          answers.push({ question: guard.input(question, sidechain), answer: guard.input(answer, sidechain) });
      }
    }
    if (typeof structured.plan === 'string') plan = guard.input(structured.plan, sidechain, PLAN_HEAD) || null;
    if (isObject(structured.task) && typeof structured.task.id === 'string') taskId = structured.task.id;
    if (Array.isArray(structured.tasks)) {
      tasks = [];
      for (const raw of structured.tasks) {
        if (!isObject(raw) || typeof raw.id !== 'string') continue;
        const [item] = readTodos([raw], (s, keep) => guard.input(s, sidechain, keep)) ?? [];
        if (item) tasks.push({ ...item, id: raw.id });
      }
    }
  }
  const failed = block.is_error === true || (exitCode !== null && exitCode !== 0);
  const further = failed ? guard.peek(resultText(block.content, FAILURE_HEAD), sidechain).slice(RESULT_HEAD) : '';
  const said = block.is_error === true ? USER_SAID.exec(resultText(block.content, MAX_TEXT)) : null;
  const userSaid = said ? guard.text(said[1]!, sidechain, MAX_TEXT).trim() : '';
  return {
    toolUseId: str(block.tool_use_id) ?? '',
    isError: block.is_error === true,
    text,
    tail,
    ...(further ? { further } : {}),
    exitCode,
    answers,
    plan,
    taskId,
    tasks,
    ...(userSaid ? { userSaid } : {}),
  };
}

function assistantLine(
  v: Json,
  events: TranscriptEvent[],
  sidechain: boolean,
  cwd: string | null,
  guard: TranscriptGuard,
): TranscriptEvent[] {
  const message = v.message;
  if (!isObject(message)) return [...events, { kind: 'garbage', reason: 'bad-message' }];
  // API errors and "<synthetic>" placeholders are written as assistant turns but say nothing about the work.
  if (v.isApiErrorMessage === true || message.model === '<synthetic>') {
    events.push({ kind: 'ignored', lineType: 'assistant/synthetic' });
    return events;
  }
  // Lines of one API message share message.id; old hand-written files may lack it.
  const messageId = str(message.id) ?? str(v.uuid) ?? '';
  const content = message.content;
  if (typeof content === 'string') {
    const text = guard.text(content, sidechain).trim();
    if (text) events.push({ kind: 'assistant-text', messageId, text, sidechain });
    return events;
  }
  if (!Array.isArray(content)) return [...events, { kind: 'garbage', reason: 'bad-message' }];
  for (const block of content) {
    if (!isObject(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string') {
      // A compaction agent's answer (`<summary>…`) is read further, like the summary it becomes.
      const text = guard.text(block.text, sidechain, block.text.includes('<summary>') ? RECAP_TEXT : MAX_TEXT).trim();
      if (text) events.push({ kind: 'assistant-text', messageId, text, sidechain });
    } else if (block.type === 'tool_use') {
      const hidden = guard.isOpen(sidechain);
      const call = readToolCall(block, (s, keep) => guard.input(s, sidechain, keep));
      if (call) events.push({ kind: 'tool-use', messageId, call, cwd, sidechain, ...(hidden ? { hidden } : {}) });
    }
  }
  return events;
}

function systemLine(v: Json, events: TranscriptEvent[], sidechain: boolean, guard: TranscriptGuard): TranscriptEvent[] {
  const subtype = str(v.subtype);
  if (subtype === 'compact_boundary') {
    const meta = isObject(v.compactMetadata) ? v.compactMetadata : {};
    events.push({ kind: 'compact', trigger: str(meta.trigger) });
  } else if (subtype === 'stop_hook_summary' || subtype === 'turn_duration') {
    events.push({ kind: 'turn-end' });
  } else if (subtype === 'local_command' && typeof v.content === 'string' && v.content.includes('<command-name>')) {
    events.push(classifyUserText(v.content, false, sidechain, guard));
  } else {
    events.push({ kind: 'ignored', lineType: `system/${subtype ?? ''}` });
  }
  return events;
}
