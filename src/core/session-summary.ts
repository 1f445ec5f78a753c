// Folds transcript lines into a small, bounded, extractive session summary
// (SPEC §8, §13). Feed lines one at a time; memory stays bounded whatever the
// transcript's length: every list is capped while it is built, not after.
// Deterministic: the same lines always give the same summary.

import { commitSubject, condenseConclusion, cueSentences, dedupeKey, planHeadline } from './summary-decisions.ts';
import { commandFamily, commandWeight, displayCommand, isVerification, normalizeCommand } from './summary-commands.ts';
import { oneLine, truncate } from './summary-text.ts';
import { parseTranscriptLine, type TodoItem, type ToolCall, type TranscriptEvent } from './transcript-events.ts';
import { absolutePath, relativePath } from './transcript-tools.ts';

export { renderSummaryLine, renderSummaryMarkdown, summaryTopics } from './session-summary-render.ts';

export interface SummaryCommand {
  command: string;
  /** True when the last run of this command failed (error result or exit code ≠ 0). */
  failed: boolean;
  count: number;
  /** How many runs failed; with `failed: false` that reads "failed N×, then passed". */
  failures?: number;
}

export interface SessionSummary {
  sessionId: string | null;
  cwd: string | null;
  branch: string | null;
  firstTs: string | null;
  lastTs: string | null;
  requests: string[];
  decisions: string[];
  filesEdited: string[];
  filesRead: string[];
  commands: SummaryCommand[];
  openTodos: string[];
  unresolved: string[];
  /** Non-blank lines seen. */
  lines: number;
  /** Lines that could not be read (not JSON, no type, malformed message). */
  skippedLines: number;
  /** The watch terms the user's or assistant's text named, in the order given. */
  namedTerms: string[];
  /** Grep/Glob patterns, first few. */
  searches?: string[];
  /** True when this span wrote a todo list: then `openTodos` is the current state even when empty. */
  todosSeen?: boolean;
}

export const SUMMARY_LIMITS = {
  requests: 8,
  firstRequests: 3,
  decisions: 10,
  files: 30,
  commands: 12,
  openTodos: 10,
  unresolved: 6,
  searches: 6,
  requestChars: 200,
  todoChars: 140,
} as const;

// Working-set caps: bigger than the output caps so ranking has room, small
// enough that a pathological transcript cannot grow memory.
const POOL_CAP = 60;
const FILE_CAP = 400;
const COMMAND_CAP = 200;
const PENDING_CAP = 256;
const TASK_CAP = 100;

type ToolResultData = Extract<TranscriptEvent, { kind: 'tool-result' }>['result'];

const TRIVIAL_PROMPT = /^(?:continue|go on|go ahead|proceed|yes|y|no|n|ok|okay|sure|thanks|thank you|lgtm|do it|keep going|please continue|continue please)[.!]*$/i;

interface Candidate {
  text: string;
  key: string;
  score: number;
  seq: number;
  /** The cue phrase that made a sentence a candidate: repeats of one cue are spread out. */
  cue: string;
}

interface PendingCall {
  call: ToolCall;
  /** The file path as shown in the summary (relative to the session cwd when under it). */
  path: string | null;
  sidechain: boolean;
}

// Claude Code's own files (plans, tool-result spills, background task output) are not the project's.
const INTERNAL_PATH = /(?:^|\/)\.claude\/(?:plans|projects|todos|shell-snapshots)\/|^\/tmp\/claude-[^/]*\//;

interface FileRow {
  edits: number;
  reads: number;
  seq: number;
}

interface CommandRow {
  command: string;
  family: string;
  count: number;
  failures: number;
  failed: boolean;
  seq: number;
}

/**
 * Best-scored first, but each pick costs the others that open with the same
 * words a point: five "The issue is that …" guesses from one debugging loop
 * should not crowd out everything else. Ties go to the later candidate.
 */
function pickDiverse(candidates: Candidate[], max: number): Candidate[] {
  const opener = (c: Candidate): string => c.key.split(' ').slice(0, 3).join(' ');
  const groups = (c: Candidate): string[] => (c.cue ? [opener(c), `cue:${c.cue}`] : [opener(c)]);
  const penalty = (c: Candidate): number => groups(c).reduce((sum, g) => sum + (used.get(g) ?? 0), 0);
  const left = [...candidates];
  const used = new Map<string, number>();
  const out: Candidate[] = [];
  while (out.length < max && left.length > 0) {
    let best = 0;
    let bestScore = -Infinity;
    for (let i = 0; i < left.length; i++) {
      const c = left[i]!;
      const eff = c.score - penalty(c);
      if (eff > bestScore || (eff === bestScore && c.seq > left[best]!.seq)) {
        best = i;
        bestScore = eff;
      }
    }
    const [pick] = left.splice(best, 1);
    // A cue sentence that the turn's wrap-up repeats word for word adds nothing.
    const flat = (c: Candidate): string => c.text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
    if (out.some((o) => flat(o).includes(flat(pick!)) || flat(pick!).includes(flat(o)))) continue;
    out.push(pick!);
    for (const g of groups(pick!)) used.set(g, (used.get(g) ?? 0) + 1);
  }
  return out;
}

export interface SummaryBuilder {
  addLine(line: string): void;
  /** Adds already-parsed events (for callers that parse once and fan out). */
  addEvents(events: TranscriptEvent[]): void;
  finish(): SessionSummary;
}

export function createSummaryBuilder(opts: { watchTerms?: string[] } = {}): SummaryBuilder {
  const watch = (opts.watchTerms ?? []).filter((t) => t.trim().length > 0);
  const watchLower = watch.map((t) => t.toLowerCase());
  const named = new Set<number>();

  let lines = 0;
  let skipped = 0;
  let seq = 0;
  let sessionId: string | null = null;
  let cwd: string | null = null;
  let branch: string | null = null;
  let firstTs: string | null = null;
  let lastTs: string | null = null;
  let firstMs = Infinity;
  let lastMs = -Infinity;

  const firstRequests: string[] = [];
  const recentRequests: string[] = [];
  let lastRequestKey = '';

  const pool: Candidate[] = [];
  const sidePool: Candidate[] = [];
  let turnText: string | null = null;
  let lastConclusion: Candidate | null = null;
  let pendingQuestion: string | null = null;
  let interruptedRequest: string | null = null;
  let lastPlanFile: string | null = null;
  // A turn that answers a background-task notification rarely decides anything.
  let turnFromNotification = false;
  const commits = { main: { count: 0, cand: null as Candidate | null }, side: { count: 0, cand: null as Candidate | null } };

  let currentMessage = '';
  let currentBlocks = new Set<string>();

  const pending = new Map<string, PendingCall>();
  const files = new Map<string, FileRow>();
  const commands = new Map<string, CommandRow>();
  const familyFailed = new Map<string, boolean>();
  const familyLatest = new Map<string, string>();
  const searches: string[] = [];
  // The 2.1.x task list (TaskCreate/TaskUpdate/TaskList), shared by the main agent and its subagents.
  const tasks = new Map<string, TodoItem>();
  let tasksSeen = false;
  let mainTodos: TodoItem[] | null = null;
  let sideTodos: TodoItem[] | null = null;

  let mainSeen = false;
  let sideFirstPrompt: string | null = null;
  let sideLastText: string | null = null;

  function noteTerms(text: string): void {
    if (watch.length === 0 || named.size === watch.length) return;
    const lower = text.toLowerCase();
    for (let i = 0; i < watchLower.length; i++) {
      if (!named.has(i) && lower.includes(watchLower[i]!)) named.add(i);
    }
  }

  function noteTime(ts: string): void {
    const ms = Date.parse(ts);
    if (Number.isNaN(ms)) return;
    if (ms < firstMs) {
      firstMs = ms;
      firstTs = ts;
    }
    if (ms > lastMs) {
      lastMs = ms;
      lastTs = ts;
    }
  }

  function addCandidate(target: Candidate[], text: string, score: number, cue = ''): Candidate | null {
    const key = dedupeKey(text);
    if (!key) return null;
    seq++;
    const existing = target.find((c) => c.key === key);
    if (existing) {
      existing.score = Math.max(existing.score, score);
      return existing;
    }
    const cand: Candidate = { text, key, score, seq, cue };
    target.push(cand);
    if (target.length > POOL_CAP) {
      let worst = 0;
      for (let i = 1; i < target.length; i++) {
        const c = target[i]!;
        const w = target[worst]!;
        if (c.score < w.score || (c.score === w.score && c.seq < w.seq)) worst = i;
      }
      target.splice(worst, 1);
    }
    return cand;
  }

  function addRequest(text: string): void {
    const clean = truncate(oneLine(text), SUMMARY_LIMITS.requestChars);
    if (!clean || TRIVIAL_PROMPT.test(clean)) return;
    const key = dedupeKey(clean);
    if (key === lastRequestKey) return;
    lastRequestKey = key;
    if (firstRequests.length < SUMMARY_LIMITS.firstRequests) {
      firstRequests.push(clean);
      return;
    }
    recentRequests.push(clean);
    if (recentRequests.length > SUMMARY_LIMITS.requests - SUMMARY_LIMITS.firstRequests) recentRequests.shift();
  }

  function flushTurn(): void {
    if (turnText === null) return;
    const text = turnText;
    turnText = null;
    const conclusion = condenseConclusion(text);
    if (conclusion && !turnFromNotification) lastConclusion = addCandidate(pool, conclusion, 5);
    const tail = text.trim().split('\n').filter((l) => l.trim()).pop() ?? '';
    pendingQuestion = /\?\s*\**\s*$/.test(tail) ? truncate(oneLine(tail.replace(/\*\*/g, '')), 160) : null;
  }

  function touchFile(path: string, access: 'read' | 'edit'): void {
    let row = files.get(path);
    if (!row) {
      if (files.size >= FILE_CAP) evictFile();
      row = { edits: 0, reads: 0, seq: ++seq };
      files.set(path, row);
    }
    if (access === 'edit') row.edits++;
    else row.reads++;
  }

  function evictFile(): void {
    let worstKey: string | null = null;
    let worst: FileRow | null = null;
    for (const [k, r] of files) {
      const better = worst === null || r.edits * 100 + r.reads < worst.edits * 100 + worst.reads;
      if (better) {
        worst = r;
        worstKey = k;
      }
    }
    if (worstKey !== null) files.delete(worstKey);
  }

  function recordCommand(raw: string, failed: boolean): void {
    const full = normalizeCommand(raw, cwd);
    if (!full) return;
    const command = displayCommand(full);
    let row = commands.get(command);
    if (!row) {
      if (commands.size >= COMMAND_CAP) evictCommand();
      row = { command, family: commandFamily(full), count: 0, failures: 0, failed: false, seq: ++seq };
      commands.set(command, row);
    }
    row.count++;
    if (failed) row.failures++;
    row.failed = failed;
    familyFailed.delete(row.family); // re-insert keeps the map ordered by recency
    familyFailed.set(row.family, failed);
    familyLatest.set(row.family, command);
    if (familyLatest.size > COMMAND_CAP) familyLatest.delete(familyLatest.keys().next().value!);
    if (familyFailed.size > COMMAND_CAP) familyFailed.delete(familyFailed.keys().next().value!);
  }

  function evictCommand(): void {
    let worstKey: string | null = null;
    let worstW = Infinity;
    for (const [k, r] of commands) {
      const w = commandWeight(r);
      if (w < worstW) {
        worstW = w;
        worstKey = k;
      }
    }
    if (worstKey !== null) commands.delete(worstKey);
  }

  function showPath(path: string, lineCwd: string | null): string {
    return relativePath(absolutePath(path, lineCwd), cwd ?? lineCwd);
  }

  function onToolUse(call: ToolCall, lineCwd: string | null, sidechain: boolean): void {
    const abs = call.file ? absolutePath(call.file.path, lineCwd) : null;
    const path = abs && !INTERNAL_PATH.test(abs) ? showPath(abs, lineCwd) : null;
    if (path && call.file?.access === 'read') touchFile(path, 'read');
    if (call.search && searches.length < SUMMARY_LIMITS.searches) {
      const where = call.search.path ? ` in ${showPath(call.search.path, lineCwd)}` : '';
      const text = truncate(oneLine(`${call.search.pattern}${where}`), 80);
      if (!searches.includes(text)) searches.push(text);
    }
    if (call.todos) {
      if (sidechain) sideTodos = call.todos.slice(0, 50);
      else mainTodos = call.todos.slice(0, 50);
    }
    if (call.planFile && call.plan) lastPlanFile = call.plan;
    if (!call.id) return;
    if (pending.size >= PENDING_CAP) pending.delete(pending.keys().next().value!);
    pending.set(call.id, { call, path, sidechain });
  }

  function onTaskResult(call: ToolCall, r: ToolResultData): void {
    if (r.tasks) {
      tasksSeen = true;
      tasks.clear();
      for (const t of r.tasks.slice(0, TASK_CAP)) tasks.set(t.id, { content: t.content, status: t.status });
      return;
    }
    const op = call.task;
    if (!op) return;
    tasksSeen = true;
    if (op.op === 'create') {
      if (r.taskId && tasks.size < TASK_CAP) tasks.set(r.taskId, { content: op.subject, status: 'pending' });
      return;
    }
    if (op.status === 'deleted') {
      tasks.delete(op.id);
      return;
    }
    const known = tasks.get(op.id);
    if (known) tasks.set(op.id, { content: op.subject ?? known.content, status: op.status ?? known.status });
    else if (op.subject && tasks.size < TASK_CAP) tasks.set(op.id, { content: op.subject, status: op.status ?? 'pending' });
  }

  // Commits collapse into one line that moves to the latest: git log has the rest.
  function noteCommit(subject: string, sidechain: boolean): void {
    const target = sidechain ? sidePool : pool;
    const state = sidechain ? commits.side : commits.main;
    state.count++;
    if (state.cand) {
      const i = target.indexOf(state.cand);
      if (i >= 0) target.splice(i, 1);
    }
    const text = state.count === 1 ? `Committed: ${subject}` : `Committed ${state.count} times, last: ${subject}`;
    state.cand = addCandidate(target, text, 4);
  }

  function planDecision(plan: string | null): void {
    const headline = plan ? planHeadline(plan) : null;
    if (headline) addCandidate(pool, headline, 7);
  }

  function onToolResult(r: ToolResultData): void {
    const p = pending.get(r.toolUseId);
    if (!p) return;
    pending.delete(r.toolUseId);
    const { call, path, sidechain } = p;
    // "nothing to commit" exits 1 but leaves nothing undone.
    const benign = call.command !== null && /\bnothing to commit\b/.test(r.text);
    const failed = (r.isError || (r.exitCode !== null && r.exitCode !== 0)) && !benign;
    if (path && call.file?.access === 'edit' && !r.isError) touchFile(path, 'edit');
    if (call.command !== null) {
      recordCommand(call.command, failed);
      const subject = failed || benign ? null : commitSubject(call.command);
      if (subject) noteCommit(subject, sidechain);
    }
    if (!r.isError) onTaskResult(call, r);
    if (sidechain) return;
    for (const { question, answer } of r.answers) {
      addCandidate(pool, truncate(`${oneLine(question)} → ${oneLine(answer)}`, 220), 7);
    }
    if (call.name === 'ExitPlanMode' && !r.isError) planDecision(call.plan ?? r.plan ?? lastPlanFile);
  }

  function onEvent(e: TranscriptEvent): void {
    switch (e.kind) {
      case 'context':
        if (e.sessionId && !sessionId) sessionId = e.sessionId;
        if (e.cwd && !cwd) cwd = e.cwd;
        if (e.branch) branch = e.branch;
        if (e.ts) noteTime(e.ts);
        return;
      case 'garbage':
        skipped++;
        return;
      case 'prompt':
        noteTerms(e.text);
        if (e.sidechain) {
          sideFirstPrompt ??= e.text;
          return;
        }
        mainSeen = true;
        flushTurn();
        turnFromNotification = false;
        pendingQuestion = null;
        interruptedRequest = null;
        addRequest(e.text);
        return;
      case 'aside':
        if (e.sidechain) return;
        flushTurn();
        if (e.aside === 'notification') turnFromNotification = true;
        return;
      case 'interrupt':
        if (e.sidechain) return;
        flushTurn();
        interruptedRequest = recentRequests.at(-1) ?? firstRequests.at(-1) ?? null;
        return;
      case 'assistant-text': {
        if (e.messageId !== currentMessage) {
          currentMessage = e.messageId;
          currentBlocks = new Set();
        }
        if (currentBlocks.has(`t:${e.text}`)) return;
        currentBlocks.add(`t:${e.text}`);
        noteTerms(e.text);
        if (e.sidechain) {
          sideLastText = e.text;
          if (!mainSeen) for (const c of cueSentences(e.text)) addCandidate(sidePool, c.text, c.score, c.cue);
          return;
        }
        mainSeen = true;
        turnText = e.text;
        for (const c of cueSentences(e.text)) addCandidate(pool, c.text, c.score, c.cue);
        return;
      }
      case 'tool-use':
        if (e.messageId !== currentMessage) {
          currentMessage = e.messageId;
          currentBlocks = new Set();
        }
        if (currentBlocks.has(`u:${e.call.id}`)) return;
        currentBlocks.add(`u:${e.call.id}`);
        if (!e.sidechain) {
          mainSeen = true;
          turnText = null; // text before a tool call is a step, not the turn's conclusion
        }
        onToolUse(e.call, e.cwd, e.sidechain);
        return;
      case 'tool-result':
        onToolResult(e.result);
        return;
      case 'compact':
      case 'turn-end':
        flushTurn();
        return;
      case 'ignored':
        return;
    }
  }

  return {
    addLine(line: string): void {
      if (!line.trim()) return;
      lines++;
      for (const e of parseTranscriptLine(line)) onEvent(e);
    },
    addEvents(events: TranscriptEvent[]): void {
      for (const e of events) onEvent(e);
    },
    finish(): SessionSummary {
      flushTurn();
      return buildSummary();
    },
  };

  // Non-destructive: finish() may be called again after more lines (a running draft).
  function buildSummary(): SessionSummary {
    const fileView = new Map<string, FileRow>();
    for (const [k, r] of files) fileView.set(k, { ...r });
    const unresolved: string[] = [];
    for (const { call, path } of pending.values()) {
      // Edits whose result never arrived (the transcript ends mid-call) still happened.
      if (path && call.file?.access === 'edit') {
        const row = fileView.get(path) ?? { edits: 0, reads: 0, seq: Number.MAX_SAFE_INTEGER };
        fileView.set(path, { ...row, edits: row.edits + 1 });
      }
      if (call.name === 'ExitPlanMode') {
        const h = planHeadline(call.plan ?? lastPlanFile ?? '');
        unresolved.push(h ? `Awaiting approval: ${h}` : 'A plan is awaiting approval');
      }
    }

    const useSide = !mainSeen;
    const candidates = (useSide ? sidePool : pool).map((c) => ({ ...c }));
    let last = lastConclusion ? candidates.find((c) => c.key === lastConclusion!.key) : undefined;
    if (useSide && sideLastText) {
      const text = condenseConclusion(sideLastText);
      if (text) {
        last = candidates.find((c) => c.key === dedupeKey(text));
        if (!last) {
          last = { text, key: dedupeKey(text), score: 5, seq: seq + 1, cue: '' };
          candidates.push(last);
        }
      }
    }
    if (last) last.score += 2; // the session's last word matters most
    const decisions = pickDiverse(candidates, SUMMARY_LIMITS.decisions)
      .sort((a, b) => a.seq - b.seq)
      .map((c) => c.text);

    const requests = [...firstRequests, ...recentRequests];
    if (useSide && requests.length === 0 && sideFirstPrompt) {
      requests.push(truncate(`(subagent) ${oneLine(sideFirstPrompt)}`, SUMMARY_LIMITS.requestChars));
    }

    const todos = [...((useSide ? sideTodos : mainTodos) ?? []), ...tasks.values()];
    const openTodos = todos
      .filter((t) => t.status === 'pending' || t.status === 'in_progress')
      .slice(0, SUMMARY_LIMITS.openTodos)
      .map((t) => truncate(oneLine(t.content), SUMMARY_LIMITS.todoChars) + (t.status === 'in_progress' ? ' (in progress)' : ''));

    if (pendingQuestion) unresolved.push(`Claude asked: ${pendingQuestion}`);
    if (interruptedRequest) unresolved.push(`Interrupted: ${truncate(interruptedRequest, 160)}`);
    const stillFailing = [...commands.values()]
      .filter((r) => r.failed && familyFailed.get(r.family) === true && isVerification(r.command))
      .sort((a, b) => b.seq - a.seq)
      .slice(0, 3);
    for (const r of stillFailing) unresolved.push(`\`${r.command}\` failed on its last run`);

    const rankedFiles = (edited: boolean): string[] =>
      [...fileView.entries()]
        .filter(([, r]) => (edited ? r.edits > 0 : r.edits === 0 && r.reads > 0))
        .sort((a, b) => b[1].edits + b[1].reads - (a[1].edits + a[1].reads) || a[1].seq - b[1].seq)
        .slice(0, SUMMARY_LIMITS.files)
        .sort((a, b) => a[1].seq - b[1].seq)
        .map(([path]) => path);

    const hadFailure = new Set<string>();
    for (const r of commands.values()) if (r.failures > 0) hadFailure.add(r.family);
    const weight = (r: CommandRow): number =>
      commandWeight(r, {
        stillFailing: familyFailed.get(r.family) === true,
        latest: familyLatest.get(r.family) === r.command,
        hadFailure: hadFailure.has(r.family),
      });
    const commandRows = [...commands.values()]
      .sort((a, b) => weight(b) - weight(a) || a.seq - b.seq)
      .slice(0, SUMMARY_LIMITS.commands)
      .sort((a, b) => a.seq - b.seq)
      .map((r): SummaryCommand => ({ command: r.command, failed: r.failed, count: r.count, failures: r.failures }));

    return {
      sessionId,
      cwd,
      branch,
      firstTs,
      lastTs,
      requests,
      decisions,
      filesEdited: rankedFiles(true),
      filesRead: rankedFiles(false),
      commands: commandRows,
      openTodos,
      unresolved: unresolved.slice(0, SUMMARY_LIMITS.unresolved),
      lines,
      skippedLines: skipped,
      namedTerms: watch.filter((_, i) => named.has(i)),
      searches: [...searches],
      todosSeen: (useSide ? sideTodos : mainTodos) !== null || tasksSeen,
    };
  }
}
