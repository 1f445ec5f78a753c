// Folds transcript lines into a small, bounded, extractive session summary
// (SPEC §8, §13). Feed lines one at a time; memory stays bounded whatever the
// transcript's length: every list is capped while it is built, not after.
// Deterministic: the same lines always give the same summary.

import { clip, oneLine } from '../text.ts';
import { parseTranscriptLine, type ToolCall, type ToolResult, type TranscriptEvent } from '../transcript/transcript-events.ts';
import { type PrivateDepth, TranscriptGuard } from '../transcript/transcript-guard.ts';
import { absolutePath, relativePath } from '../transcript/transcript-tools.ts';
import { ActivityTally } from './summary-activity.ts';
import { commitSubject, condenseConclusion, cueSentences, planHeadline } from './summary-decisions.ts';
import { type SessionSummary, SUMMARY_LIMITS, type SummaryCommand } from './summary-model.ts';
import { type Candidate, CandidatePool, pickDiverse } from './summary-pool.ts';
import { RequestLog } from './summary-requests.ts';
import { dedupeKey } from './summary-text.ts';
import { TodoState } from './summary-todos.ts';

// Working-set caps: a pathological transcript cannot grow memory past these.
const PENDING_CAP = 256;

interface PendingCall {
  call: ToolCall;
  /** The file path as shown in the summary (relative to the session cwd when under it). */
  path: string | null;
  sidechain: boolean;
}

// Claude Code's own files (plans, tool-result spills, background task output) are not the project's.
const INTERNAL_PATH = /(?:^|\/)\.claude\/(?:plans|projects|todos|shell-snapshots)\/|^\/tmp\/claude-[^/]*\//;

export interface SummaryBuilder {
  addLine(line: string): void;
  /** Adds already-parsed events (for callers that parse once and fan out). */
  addEvents(events: TranscriptEvent[]): void;
  finish(): SessionSummary;
}

export function createSummaryBuilder(opts: { watchTerms?: string[]; privateDepth?: PrivateDepth } = {}): SummaryBuilder {
  // One guard for the whole read: a private span opened in one message hides the next ones.
  const guard = new TranscriptGuard(opts.privateDepth);
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

  const requests = new RequestLog(SUMMARY_LIMITS.firstRequests, SUMMARY_LIMITS.requests, SUMMARY_LIMITS.requestChars);

  const pool = new CandidatePool();
  const sidePool = new CandidatePool();
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
  const activity = new ActivityTally();
  const searches: string[] = [];
  const todos = new TodoState();

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

  function addCandidate(target: CandidatePool, text: string, score: number, cue = ''): Candidate | null {
    return target.add(text, score, ++seq, cue);
  }

  function flushTurn(): void {
    if (turnText === null) return;
    const text = turnText;
    turnText = null;
    const conclusion = condenseConclusion(text);
    if (conclusion && !turnFromNotification) lastConclusion = addCandidate(pool, conclusion, 5);
    const tail =
      text
        .trim()
        .split('\n')
        .filter((l) => l.trim())
        .pop() ?? '';
    pendingQuestion = /\?\s*\**\s*$/.test(tail) ? clip(oneLine(tail.replace(/\*\*/g, '')), 160) : null;
  }

  function showPath(path: string, lineCwd: string | null): string {
    return relativePath(absolutePath(path, lineCwd), cwd ?? lineCwd);
  }

  function onToolUse(call: ToolCall, lineCwd: string | null, sidechain: boolean): void {
    const abs = call.file ? absolutePath(call.file.path, lineCwd) : null;
    const path = abs && !INTERNAL_PATH.test(abs) ? showPath(abs, lineCwd) : null;
    if (path && call.file?.access === 'read') activity.touchFile(path, 'read');
    if (call.search && searches.length < SUMMARY_LIMITS.searches) {
      const where = call.search.path ? ` in ${showPath(call.search.path, lineCwd)}` : '';
      const text = clip(oneLine(`${call.search.pattern}${where}`), 80);
      if (!searches.includes(text)) searches.push(text);
    }
    if (call.todos) todos.write(call.todos, sidechain);
    if (call.planFile && call.plan) lastPlanFile = call.plan;
    if (!call.id) return;
    if (pending.size >= PENDING_CAP) pending.delete(pending.keys().next().value!);
    pending.set(call.id, { call, path, sidechain });
  }

  // Commits collapse into one line that moves to the latest: git log has the rest.
  function noteCommit(subject: string, sidechain: boolean): void {
    const target = sidechain ? sidePool : pool;
    const state = sidechain ? commits.side : commits.main;
    state.count++;
    target.remove(state.cand);
    const text = state.count === 1 ? `Committed: ${subject}` : `Committed ${state.count} times, last: ${subject}`;
    state.cand = addCandidate(target, text, 4);
  }

  function planDecision(plan: string | null): void {
    const headline = plan ? planHeadline(plan) : null;
    if (headline) addCandidate(pool, headline, 7);
  }

  function onToolResult(r: ToolResult): void {
    const p = pending.get(r.toolUseId);
    if (!p) return;
    pending.delete(r.toolUseId);
    const { call, path, sidechain } = p;
    // "nothing to commit" exits 1 but leaves nothing undone.
    const benign = call.command !== null && /\bnothing to commit\b/.test(r.text);
    const failed = (r.isError || (r.exitCode !== null && r.exitCode !== 0)) && !benign;
    if (path && call.file?.access === 'edit' && !r.isError) activity.touchFile(path, 'edit');
    if (call.command !== null) {
      activity.recordCommand(call.command, failed, cwd);
      const subject = failed || benign ? null : commitSubject(call.command);
      if (subject) noteCommit(subject, sidechain);
    }
    if (!r.isError) todos.onTaskResult(call, r);
    if (sidechain) return;
    for (const { question, answer } of r.answers) {
      addCandidate(pool, clip(`${oneLine(question)} → ${oneLine(answer)}`, 220), 7);
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
        requests.add(e.text);
        return;
      case 'aside':
        if (e.sidechain) return;
        flushTurn();
        if (e.aside === 'notification') turnFromNotification = true;
        return;
      case 'interrupt':
        if (e.sidechain) return;
        flushTurn();
        interruptedRequest = requests.latest();
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
      for (const e of parseTranscriptLine(line, guard)) onEvent(e);
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
    const unresolved: string[] = [];
    const awaitingEdits: string[] = [];
    for (const { call, path } of pending.values()) {
      // Edits whose result never arrived (the transcript ends mid-call) still happened.
      if (path && call.file?.access === 'edit') awaitingEdits.push(path);
      if (call.name === 'ExitPlanMode') {
        const h = planHeadline(call.plan ?? lastPlanFile ?? '');
        unresolved.push(h ? `Awaiting approval: ${h}` : 'A plan is awaiting approval');
      }
    }

    // A separate subagent transcript has no main-chain turns: then its own prose is the story.
    const useSide = !mainSeen;
    const candidates = (useSide ? sidePool : pool).items.map((c) => ({ ...c }));
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
    const decisions = pickDiverse(candidates, SUMMARY_LIMITS.decisions).map((c) => c.text);

    const asked = requests.list();
    if (useSide && asked.length === 0 && sideFirstPrompt) {
      asked.push(clip(`(subagent) ${oneLine(sideFirstPrompt)}`, SUMMARY_LIMITS.requestChars));
    }

    const openTodos = todos.open(useSide, SUMMARY_LIMITS.openTodos, SUMMARY_LIMITS.todoChars);

    if (pendingQuestion) unresolved.push(`Claude asked: ${pendingQuestion}`);
    if (interruptedRequest) unresolved.push(`Interrupted: ${clip(interruptedRequest, 160)}`);
    for (const r of activity.stillFailing(3)) unresolved.push(`\`${r.command}\` failed on its last run`);

    return {
      sessionId,
      cwd,
      branch,
      firstTs,
      lastTs,
      requests: asked,
      decisions,
      filesEdited: activity.rankedFiles('edited', SUMMARY_LIMITS.files, awaitingEdits),
      filesRead: activity.rankedFiles('read', SUMMARY_LIMITS.files, awaitingEdits),
      commands: activity
        .commandRows(SUMMARY_LIMITS.commands)
        .map((r): SummaryCommand => ({ command: r.command, failed: r.failed, count: r.count, failures: r.failures })),
      openTodos,
      unresolved: unresolved.slice(0, SUMMARY_LIMITS.unresolved),
      lines,
      skippedLines: skipped,
      namedTerms: watch.filter((_, i) => named.has(i)),
      searches: [...searches],
      todosSeen: todos.seen(useSide),
      ...(guard.depth.main || guard.depth.side ? { privateDepth: guard.depth } : {}),
    };
  }
}
