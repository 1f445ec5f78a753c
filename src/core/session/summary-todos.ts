// The session's todo state: TodoWrite lists (the last list written wins) and
// the 2.1.x task list (TaskCreate/TaskUpdate/TaskList, shared by the main
// agent and its subagents). Only what is still open is reported.

import { clip, oneLine } from '../text.ts';
import type { TodoItem, ToolCall, ToolResult } from '../transcript/transcript-events.ts';

const TODO_CAP = 50;
const TASK_CAP = 100;

export class TodoState {
  private mainTodos: TodoItem[] | null = null;
  private sideTodos: TodoItem[] | null = null;
  private readonly tasks = new Map<string, TodoItem>();
  private tasksSeen = false;

  /** A TodoWrite replaces the list of its own chain (a subagent keeps its own list). */
  write(todos: TodoItem[], sidechain: boolean): void {
    if (sidechain) this.sideTodos = todos.slice(0, TODO_CAP);
    else this.mainTodos = todos.slice(0, TODO_CAP);
  }

  /** Applies a successful TaskCreate/TaskUpdate/TaskList result. */
  onTaskResult(call: ToolCall, r: ToolResult): void {
    if (r.tasks) {
      // A TaskList result is the whole current list.
      this.tasksSeen = true;
      this.tasks.clear();
      for (const t of r.tasks.slice(0, TASK_CAP)) this.tasks.set(t.id, { content: t.content, status: t.status });
      return;
    }
    const op = call.task;
    if (!op) return;
    this.tasksSeen = true;
    if (op.op === 'create') {
      if (r.taskId && this.tasks.size < TASK_CAP) this.tasks.set(r.taskId, { content: op.subject, status: 'pending' });
      return;
    }
    if (op.status === 'deleted') {
      this.tasks.delete(op.id);
      return;
    }
    const known = this.tasks.get(op.id);
    if (known) this.tasks.set(op.id, { content: op.subject ?? known.content, status: op.status ?? known.status });
    else if (op.subject && this.tasks.size < TASK_CAP) this.tasks.set(op.id, { content: op.subject, status: op.status ?? 'pending' });
  }

  /** True when this span wrote a list: then an empty open list means "all done", not "unknown". */
  seen(useSide: boolean): boolean {
    return (useSide ? this.sideTodos : this.mainTodos) !== null || this.tasksSeen;
  }

  /** Completed items of the latest list of each chain and of the task list: claims to check against what failed. */
  done(max: number, maxChars: number): string[] {
    return [...(this.mainTodos ?? []), ...(this.sideTodos ?? []), ...this.tasks.values()]
      .filter((t) => t.status === 'completed')
      .slice(0, max)
      .map((t) => clip(oneLine(t.content), maxChars));
  }

  open(useSide: boolean, max: number, maxChars: number): string[] {
    return [...((useSide ? this.sideTodos : this.mainTodos) ?? []), ...this.tasks.values()]
      .filter((t) => t.status === 'pending' || t.status === 'in_progress')
      .slice(0, max)
      .map((t) => clip(oneLine(t.content), maxChars) + (t.status === 'in_progress' ? ' (in progress)' : ''));
  }
}
