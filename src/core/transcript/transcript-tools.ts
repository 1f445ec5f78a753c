// What a summary needs from one tool_use block, by tool name. Inputs can be
// large (a Write carries the whole file), so only the few fields that matter
// are kept, cut to a bounded length, with private text removed.

export interface TodoItem {
  content: string;
  /** pending | in_progress | completed (other values are kept as written). */
  status: string;
}

export interface ToolCall {
  id: string;
  name: string;
  /** File tools: the path as the tool was given it (absolute, or relative to the line's cwd). */
  file: { path: string; access: 'read' | 'edit' } | null;
  /** Bash or PowerShell: the command text (head only). */
  command: string | null;
  /** Grep/Glob: the pattern, and the folder or file searched when given. */
  search: { pattern: string; path: string | null } | null;
  /** TodoWrite: the whole new list (the last one written wins). */
  todos: TodoItem[] | null;
  /** ExitPlanMode: the plan; a Write of a plan file: the head of that file. */
  plan: string | null;
  /** True when `plan` came from writing a plan file rather than ExitPlanMode. */
  planFile: boolean;
  /** TaskCreate / TaskUpdate (the task list that replaced TodoWrite in 2.1.x). */
  task: { op: 'create'; subject: string } | { op: 'update'; id: string; status: string | null; subject: string | null } | null;
  /** Bash with `run_in_background`: its result only says it started. */
  background?: boolean;
  /** BashOutput / TaskOutput: the background command whose output (and, once it ended, outcome) this reads. */
  outputOf?: string;
  /** Edit of a few lines: the lines it changed, before and after (what a fix of a setting changed). */
  change?: EditChange;
}

/** The lines an edit changed, the lines around them left out; '' when it only added or only removed. */
export interface EditChange {
  before: string;
  after: string;
}

/** Longest old or new text an edit may have to be described line by line. */
const EDIT_TEXT_MAX = 600;
/** Longest changed line kept, and most changed lines on either side. */
const CHANGE_LINE_MAX = 100;
const CHANGE_LINES = 2;

/**
 * What an edit changed: its old and new text less the lines they share at the start and the end, or null
 * when that is more than a couple of short lines (a rewrite, not a setting changed).
 */
export function editChange(before: string, after: string): EditChange | null {
  if (before.length > EDIT_TEXT_MAX || after.length > EDIT_TEXT_MAX || before === after) return null;
  const a = before.split(/\r?\n/).map((l) => l.trim());
  const b = after.split(/\r?\n/).map((l) => l.trim());
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const was = a.slice(head, a.length - tail).filter(Boolean);
  const now = b.slice(head, b.length - tail).filter(Boolean);
  if (was.length + now.length === 0 || was.length > CHANGE_LINES || now.length > CHANGE_LINES) return null;
  if ([...was, ...now].some((l) => l.length > CHANGE_LINE_MAX)) return null;
  return { before: was.join(' ⏎ '), after: now.join(' ⏎ ') };
}

/** How much of a command and of a plan a summary may keep (after filtering the whole, see TranscriptGuard). */
export const COMMAND_HEAD = 2000;
export const PLAN_HEAD = 2000;

/** Private spans removed and secrets redacted before anything is kept, cut to at most `keep` characters. */
export type TextCleaner = (raw: string, keep?: number) => string;

const EDIT_TOOLS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);
const READ_TOOLS = new Set(['Read', 'NotebookRead']);
// Claude Code's shells: Bash, and PowerShell where it runs on Windows (the same input and result).
const SHELL_TOOLS = new Set(['Bash', 'PowerShell']);
// Claude Code run by an editor over the Agent Client Protocol (Zed's adapter) has the editor serve its own
// Read, Edit, Write and Bash as MCP tools: the same input under another name.
const EDITOR_SERVED = /^mcp__acp__(Read|Write|Edit|MultiEdit|Bash|BashOutput|KillShell)$/;

/** The built-in tool a call is, whichever client served it (`mcp__acp__Edit` is Edit). */
export const builtinToolName = (name: string): string => EDITOR_SERVED.exec(name)?.[1] ?? name;

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown): string | null {
  return typeof v === 'string' && v.length > 0 ? v : null;
}

// Claude Code's plan mode keeps plans in ~/.claude/plans/; some skills write plan.md.
function isPlanFile(path: string): boolean {
  return /(^|\/)\.claude\/plans\/[^/]+\.md$/.test(path) || /(^|\/)plan[\w.-]*\.md$/i.test(path);
}

export function readTodos(value: unknown, clean: TextCleaner): TodoItem[] | null {
  if (!Array.isArray(value)) return null;
  const out: TodoItem[] = [];
  for (const item of value) {
    if (!isObject(item)) continue;
    const content = str(item.content) ?? str(item.subject);
    const text = content ? clean(content).trim() : '';
    if (!text) continue;
    out.push({ content: text, status: str(item.status) ?? 'pending' });
  }
  return out;
}

/** What a summary needs from one tool_use block; every text passes `clean` before it is cut or kept. */
export function readToolCall(block: Json, clean: TextCleaner): ToolCall | null {
  const served = str(block.name);
  if (!served) return null;
  const name = builtinToolName(served);
  const input = isObject(block.input) ? block.input : {};
  const call: ToolCall = {
    id: str(block.id) ?? '',
    name,
    file: null,
    command: null,
    search: null,
    todos: null,
    plan: null,
    planFile: false,
    task: null,
  };
  const text = (v: unknown, keep?: number): string | null => {
    const s = str(v);
    const c = s ? clean(s, keep).trim() : '';
    return c === '' ? null : c;
  };
  const filePath = text(input.file_path) ?? text(input.notebook_path) ?? text(input.path);
  if (EDIT_TOOLS.has(name) || READ_TOOLS.has(name)) {
    if (filePath) call.file = { path: filePath, access: EDIT_TOOLS.has(name) ? 'edit' : 'read' };
    const { old_string: was, new_string: now } = input;
    if (name === 'Edit' && typeof was === 'string' && typeof now === 'string' && was.length + now.length <= 2 * EDIT_TEXT_MAX) {
      // Cleaned as every kept text is (private spans, secrets), then reduced to the lines it changed.
      const change = editChange(clean(was), clean(now));
      if (change) call.change = change;
    }
    if (name === 'Write' && filePath && isPlanFile(filePath)) {
      const plan = text(input.content, PLAN_HEAD);
      if (plan) {
        call.plan = plan;
        call.planFile = true;
      }
    }
  } else if (SHELL_TOOLS.has(name)) {
    call.command = text(input.command, COMMAND_HEAD);
    if (input.run_in_background === true) call.background = true;
  } else if (name === 'BashOutput' || name === 'TaskOutput') {
    const id = str(input.bash_id) ?? str(input.task_id) ?? str(input.shell_id);
    if (id) call.outputOf = id;
  } else if (name === 'Grep' || name === 'Glob') {
    const pattern = text(input.pattern);
    if (pattern) call.search = { pattern, path: filePath };
  } else if (name === 'TodoWrite') {
    call.todos = readTodos(input.todos, clean);
  } else if (name === 'TaskCreate') {
    const subject = text(input.subject);
    if (subject) call.task = { op: 'create', subject };
  } else if (name === 'TaskUpdate') {
    const id = str(input.taskId);
    if (id) call.task = { op: 'update', id, status: str(input.status), subject: text(input.subject) };
  } else if (name === 'ExitPlanMode') {
    call.plan = text(input.plan, PLAN_HEAD);
  }
  return call;
}
