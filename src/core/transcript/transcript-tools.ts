// What a summary needs from one tool_use block, by tool name. Inputs can be
// large (a Write carries the whole file), so only the few fields that matter
// are kept, cut to a bounded length, with private text removed.

import { stripPrivate } from '../security/private-spans.ts';

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
  /** Bash: the command text (head only). */
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
}

const COMMAND_HEAD = 2000;
const PLAN_HEAD = 2000;

const EDIT_TOOLS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);
const READ_TOOLS = new Set(['Read', 'NotebookRead']);

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown): string | null {
  return typeof v === 'string' && v.length > 0 ? v : null;
}

/** `cwd/a/b` → `a/b`; `cwd` itself → `.`; anything else unchanged. */
export function relativePath(path: string, cwd: string | null): string {
  if (!cwd) return path;
  const base = cwd.endsWith('/') ? cwd.slice(0, -1) : cwd;
  if (path === base) return '.';
  if (base && path.startsWith(`${base}/`)) return path.slice(base.length + 1);
  return path;
}

/** A relative tool path resolved against the cwd of the line that used it. */
export function absolutePath(path: string, lineCwd: string | null): string {
  if (path.startsWith('/') || path.startsWith('~') || /^[A-Za-z]:[\\/]/.test(path) || !lineCwd) return path;
  const base = lineCwd.endsWith('/') ? lineCwd.slice(0, -1) : lineCwd;
  const rel = path.replace(/^(?:\.\/)+/, '');
  return rel === '.' || rel === '' ? base : `${base}/${rel}`;
}

// Claude Code's plan mode keeps plans in ~/.claude/plans/; some skills write plan.md.
function isPlanFile(path: string): boolean {
  return /(^|\/)\.claude\/plans\/[^/]+\.md$/.test(path) || /(^|\/)plan[\w.-]*\.md$/i.test(path);
}

export function readTodos(value: unknown): TodoItem[] | null {
  if (!Array.isArray(value)) return null;
  const out: TodoItem[] = [];
  for (const item of value) {
    if (!isObject(item)) continue;
    const content = str(item.content) ?? str(item.subject);
    if (!content) continue;
    out.push({ content: stripPrivate(content).trim(), status: str(item.status) ?? 'pending' });
  }
  return out;
}

export function readToolCall(block: Json): ToolCall | null {
  const name = str(block.name);
  if (!name) return null;
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
  const filePath = str(input.file_path) ?? str(input.notebook_path) ?? str(input.path);
  if (EDIT_TOOLS.has(name) || READ_TOOLS.has(name)) {
    const clean = filePath ? stripPrivate(filePath).trim() : '';
    if (clean) call.file = { path: clean, access: EDIT_TOOLS.has(name) ? 'edit' : 'read' };
    if (name === 'Write' && clean && isPlanFile(clean)) {
      const content = str(input.content);
      if (content) {
        call.plan = stripPrivate(content.slice(0, PLAN_HEAD));
        call.planFile = true;
      }
    }
  } else if (name === 'Bash') {
    const command = str(input.command);
    if (command) call.command = stripPrivate(command.slice(0, COMMAND_HEAD));
  } else if (name === 'Grep' || name === 'Glob') {
    const pattern = str(input.pattern);
    if (pattern) {
      call.search = { pattern: stripPrivate(pattern), path: filePath ? stripPrivate(filePath) : null };
    }
  } else if (name === 'TodoWrite') {
    call.todos = readTodos(input.todos);
  } else if (name === 'TaskCreate') {
    const subject = str(input.subject);
    if (subject) call.task = { op: 'create', subject: stripPrivate(subject).trim() };
  } else if (name === 'TaskUpdate') {
    const id = str(input.taskId);
    const subject = str(input.subject);
    if (id) call.task = { op: 'update', id, status: str(input.status), subject: subject ? stripPrivate(subject).trim() : null };
  } else if (name === 'ExitPlanMode') {
    const plan = str(input.plan);
    if (plan) call.plan = stripPrivate(plan.slice(0, PLAN_HEAD));
  }
  return call;
}
