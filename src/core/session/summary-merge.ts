// Session summaries are built incrementally: each hook reads only the part
// of the transcript that is new since the last one, summarises it, and
// merges it into the running draft kept in the session's state file.
import type { SessionSummary, SummaryCommand } from './summary-model.ts';

const CAPS = { requests: 8, decisions: 10, files: 30, commands: 12, todos: 12, unresolved: 8, terms: 200 };

/** Keeps the first and the latest items: the opening ask and where the work ended both matter. */
function mergeList(a: string[], b: string[], cap: number): string[] {
  // Each item once, in the wording and place it first had, remembering when it was last said.
  const items = new Map<string, { text: string; last: number }>();
  [...a, ...b].forEach((x, i) => {
    const key = x.trim().toLowerCase();
    const seen = items.get(key);
    if (seen) seen.last = i;
    else items.set(key, { text: x, last: i });
  });
  const all = [...items.values()];
  if (all.length <= cap) return all.map((x) => x.text);
  const head = Math.ceil(cap / 3);
  // An early item said again at the end is among the latest, not lost with the middle.
  const latest = all
    .slice(head)
    .sort((x, y) => x.last - y.last)
    .slice(-(cap - head));
  return [...all.slice(0, head), ...latest].map((x) => x.text);
}

/** Later parts win for files (recent work first), capped. */
function mergeFiles(a: string[], b: string[], cap: number): string[] {
  const out = [...b];
  for (const f of a) if (!out.includes(f)) out.push(f);
  return out.slice(0, cap);
}

export function mergeSummaries(a: SessionSummary, b: SessionSummary): SessionSummary {
  const commands = new Map<string, SummaryCommand>();
  for (const c of [...a.commands, ...b.commands]) {
    const prev = commands.get(c.command);
    if (!prev) {
      commands.set(c.command, { ...c });
      continue;
    }
    // `failed` is the state of the latest run, so the later part decides it.
    const failures = (prev.failures ?? (prev.failed ? 1 : 0)) + (c.failures ?? (c.failed ? 1 : 0));
    commands.delete(c.command);
    commands.set(c.command, { command: c.command, failed: c.failed, count: prev.count + c.count, ...(failures ? { failures } : {}) });
  }
  const filesEdited = mergeFiles(a.filesEdited, b.filesEdited, CAPS.files);
  return {
    sessionId: b.sessionId ?? a.sessionId,
    cwd: b.cwd ?? a.cwd,
    branch: b.branch ?? a.branch,
    firstTs: a.firstTs ?? b.firstTs,
    lastTs: b.lastTs ?? a.lastTs,
    requests: mergeList(a.requests, b.requests, CAPS.requests),
    decisions: mergeList(a.decisions, b.decisions, CAPS.decisions),
    filesEdited,
    filesRead: mergeFiles(a.filesRead, b.filesRead, CAPS.files).filter((f) => !filesEdited.includes(f)),
    commands: [...commands.values()].slice(-CAPS.commands),
    // The todo list is a state, not a log: the latest TodoWrite replaces it.
    openTodos: (b.todosSeen ?? b.openTodos.length > 0) ? b.openTodos : a.openTodos,
    todosSeen: Boolean(a.todosSeen || b.todosSeen),
    unresolved: mergeList(a.unresolved, b.unresolved, CAPS.unresolved).slice(-CAPS.unresolved),
    lines: a.lines + b.lines,
    skippedLines: a.skippedLines + b.skippedLines,
    namedTerms: mergeList(a.namedTerms, b.namedTerms, CAPS.terms),
    searches: mergeList(a.searches ?? [], b.searches ?? [], 6),
    // Where private spans stand is a state at the end of the later part (none: all closed).
    ...(b.privateDepth ? { privateDepth: b.privateDepth } : {}),
  };
}
