// Folds transcript lines into a small, bounded, extractive session summary
// (SPEC §8, §13). Feed lines one at a time; memory stays bounded whatever the
// transcript's length: every list is capped while it is built, not after.
// Deterministic: the same lines always give the same summary.

import { type UseWatch, usedEntries } from '../lifecycle/entry-use.ts';
import { clip, oneLine } from '../text.ts';
import { absolutePath, isAbsolutePath, isClaudeCodeFile, projectDir, projectPath } from '../transcript/path-spelling.ts';
import { shellEffects } from '../transcript/shell-effects.ts';
import { parseTranscriptLine, type ToolCall, type ToolResult, type TranscriptEvent } from '../transcript/transcript-events.ts';
import { type PrivateDepth, TranscriptGuard } from '../transcript/transcript-guard.ts';
import { ECHOES_PROMPT, isOtherWorkTool } from './session-work.ts';
import { ActivityTally } from './summary-activity.ts';
import { type CheckState, checkOf, emptyCheckState, isCheckOrRun, needsCheck, recordCheck } from './summary-checks.ts';
import {
  commandFamily,
  commandRowKey,
  displayCommand,
  grepMatchedNothing,
  isInspection,
  normalizeCommand,
  outputShowsFailure,
} from './summary-commands.ts';
import { commitLine, commitSubject, condenseConclusion, cueSentences, handedOnSteps, planHeadline } from './summary-decisions.ts';
import {
  type AwaitingCall,
  DRAFT_COMMANDS,
  type FailedWrite,
  type SessionSummary,
  SUMMARY_LIMITS,
  type SummaryCarry,
  type SummaryCommand,
} from './summary-model.ts';
import { type Candidate, CandidatePool, LAST_WORD, pickDiverse } from './summary-pool.ts';
import { isRecapText, readRecap } from './summary-recap.ts';
import { RequestLog } from './summary-requests.ts';
import { dedupeKey } from './summary-text.ts';
import { TodoState } from './summary-todos.ts';
import { writeFailure } from './summary-writes.ts';

// Working-set caps: a pathological transcript cannot grow memory past these.
const PENDING_CAP = 256;
// What a turn's last text is read for — its opening and list (the conclusion) and its last line (a question) —
// fits in this much; the rest is not kept, and not carried to the next read.
const TURN_HEAD = 4000;

function turnEssence(text: string): string {
  if (text.length <= TURN_HEAD) return text;
  const last = text.trimEnd().split('\n').pop() ?? '';
  return `${text.slice(0, TURN_HEAD)}\n${last.slice(-400)}`;
}

type PendingCall = AwaitingCall;

export interface SummaryBuilder {
  addLine(line: string): void;
  /** Adds already-parsed events (for callers that parse once and fan out). */
  addEvents(events: TranscriptEvent[]): void;
  finish(): SessionSummary;
}

export interface SummaryBuilderOptions {
  watchTerms?: string[];
  privateDepth?: PrivateDepth;
  /** The project folder paths are shown relative to: an earlier part's, so every part spells a file the same way. */
  projectDir?: string | null;
  /** Where the previous read of this transcript stopped (its summary's `carry`). */
  carry?: SummaryCarry;
  /** Entries to tell use of (SPEC §8): the summary's `used` lists those this part used. */
  use?: UseWatch;
  /** Also given each line's events (private text already gone), for readers that gather more than the summary (capture). */
  onEvents?: (events: TranscriptEvent[]) => void;
}

// What a part touched, for telling use: the summary's lists are capped for reading, but an entry
// whose file fell outside them was still used. Bounded all the same, and kept only while watching.
const USE_CAPS = { files: 4000, commands: 2000, searches: 1000 } as const;

function addBounded(set: Set<string>, value: string, cap: number): void {
  if (set.size < cap || set.has(value)) set.add(value);
}

/** Moves `value` to the end of `set` (the latest), dropping the oldest beyond `cap`. */
function keepLatest(set: Set<string>, value: string, cap: number): void {
  set.delete(value);
  set.add(value);
  if (set.size > cap) set.delete(set.values().next().value!);
}

// Where Claude Code keeps a background command's output (`/tmp/claude-501/<project>/<session>/tasks/x.output`):
// reading it is looking at that command, not at a file the next session will need.
const TASK_OUTPUT = /(?:^|\/)claude-\d+\/[^/]+\/[^/]+\/tasks\/[^/]+\.output$/;

export function createSummaryBuilder(opts: SummaryBuilderOptions = {}): SummaryBuilder {
  // One guard for the whole read: a private span opened in one message hides the next ones.
  const guard = new TranscriptGuard(opts.privateDepth);
  const watch = [...new Set([...(opts.watchTerms ?? []), ...(opts.use?.terms ?? [])])].filter((t) => t.trim().length > 0);
  const watchLower = watch.map((t) => t.toLowerCase());
  const named = new Set<number>();

  let lines = 0;
  let skipped = 0;
  let seq = 0;
  let sessionId: string | null = null;
  // The project root: the first folder the session ran in (later lines carry the shell's folder after a `cd`).
  let cwd: string | null = opts.projectDir ?? null;
  let branch: string | null = null;
  let firstTs: string | null = null;
  let lastTs: string | null = null;
  let firstMs = Infinity;
  let lastMs = -Infinity;

  const requests = new RequestLog(
    SUMMARY_LIMITS.firstRequests,
    SUMMARY_LIMITS.requests,
    SUMMARY_LIMITS.requestChars,
    opts.carry?.askedHead ?? [],
  );

  const pool = new CandidatePool();
  const sidePool = new CandidatePool();
  // The text that ends the turn so far; a part may stop mid-turn, and the next part goes on with it.
  let turnText: string | null = opts.carry?.turnText ?? null;
  // The sentences of a turn the previous read stopped in were weighed there; a read of the whole weighs them
  // once, with the cue that made each a candidate: weighed here too, the turn's conclusion keeps its cue.
  if (typeof turnText === 'string') for (const c of cueSentences(turnText)) pool.add(c.text, c.score, ++seq, c.cue);
  let lastConclusion: Candidate | null = null;
  let pendingQuestion: string | null = opts.carry?.question ?? null;
  let pendingSteps: string[] = opts.carry?.steps ?? [];
  // Code files edited since the last build, test or run: nothing the next session can know checked them.
  const unchecked = new Set<string>();
  let ranCheck = false;
  let interruptedRequest: string | null = opts.carry?.interrupted ?? null;
  let lastPlanFile: string | null = opts.carry?.lastPlan ?? null;
  const carriedRequest = opts.carry?.lastRequest ?? null;
  // A turn that answers a background-task notification rarely decides anything.
  let turnFromNotification = opts.carry?.fromNotification ?? false;
  const carriedCommits = opts.carry?.commits;
  const commits = {
    main: { count: typeof carriedCommits === 'number' && carriedCommits > 0 ? carriedCommits : 0, cand: null as Candidate | null },
    side: { count: 0, cand: null as Candidate | null },
  };

  let currentMessage = '';
  let currentBlocks = new Set<string>();

  const pending = new Map<string, PendingCall>((opts.carry?.awaiting ?? []).map((a) => [a.call.id, a]));
  // Commands started in the background, by the id Claude Code gave them: their outcome comes with a later BashOutput.
  const background = new Map<string, PendingCall>();
  const activity = new ActivityTally();
  const touched = opts.use ? { files: new Set<string>(), commands: new Set<string>(), searches: new Set<string>() } : null;
  const touchFile = (path: string, how: 'read' | 'edit') => {
    activity.touchFile(path, how);
    if (how === 'edit' && needsCheck(path)) keepLatest(unchecked, path, SUMMARY_LIMITS.files);
    if (touched) addBounded(touched.files, path, USE_CAPS.files);
  };
  const searches: string[] = [];
  const todos = new TodoState();
  let checks: CheckState = emptyCheckState();
  const failedWrites = new Map<string, FailedWrite>();
  const written = new Set<string>();
  const deleted = new Set<string>();
  const reverted = new Set<string>();
  // Edited since the last commit that went through (carried from the read before).
  const carried = opts.carry?.uncommitted;
  const uncommitted = new Set<string>(Array.isArray(carried) ? carried.filter((f) => typeof f === 'string') : []);
  const recapRequests = new RequestLog(SUMMARY_LIMITS.firstRequests, SUMMARY_LIMITS.requests, SUMMARY_LIMITS.requestChars);
  let recalledOpen: string[] | null = null;
  let privateWork = 0;

  let mainSeen = opts.carry?.mainSeen ?? false;
  let otherTools = 0;
  let sideFirstPrompt: string | null = null;
  let sideLastText: string | null = null;

  // Terms by their first word: a text is looked at for the terms whose first word it holds, not for
  // every term (a long session's text times a store's ids and titles is too much to search one by one).
  const byFirstWord = new Map<string, number[]>();
  const wordless: number[] = [];
  watchLower.forEach((t, i) => {
    const first = /^[\p{L}\p{N}_]+/u.exec(t)?.[0];
    if (!first) wordless.push(i);
    // Pushed, never copied: a store's ids and titles often share a first word (`entry-1`, `entry-2` …).
    else if (byFirstWord.has(first)) byFirstWord.get(first)!.push(i);
    else byFirstWord.set(first, [i]);
  });

  function noteTerms(text: string): void {
    if (watch.length === 0 || named.size === watch.length) return;
    const lower = text.toLowerCase();
    const check = (i: number) => {
      if (!named.has(i) && namesTerm(lower, watchLower[i]!)) named.add(i);
    };
    for (const i of wordless) check(i);
    const seen = new Set<string>();
    for (const m of lower.matchAll(WORD_RUN)) {
      const w = m[0];
      if (seen.has(w)) continue;
      seen.add(w);
      const terms = byFirstWord.get(w);
      if (terms) for (const i of terms) check(i);
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

  /** What a turn's last text says: a conclusion (unless the turn answered a notification), and a question left to the user. */
  function turnOutcome(text: string): { conclusion: string | null; question: string | null; steps: string[] } {
    const tail =
      text
        .trim()
        .split('\n')
        .filter((l) => l.trim())
        .pop() ?? '';
    return {
      conclusion: turnFromNotification ? null : condenseConclusion(text),
      question: /\?\s*\**\s*$/.test(tail) ? clip(oneLine(tail.replace(/\*\*/g, '')), 160) : null,
      steps: handedOnSteps(text),
    };
  }

  function flushTurn(): void {
    if (turnText === null) return;
    const outcome = turnOutcome(turnText);
    turnText = null;
    if (outcome.conclusion) lastConclusion = addCandidate(pool, outcome.conclusion, 5);
    pendingQuestion = outcome.question;
    pendingSteps = outcome.steps;
  }

  function showPath(path: string, lineCwd: string | null): string {
    return projectPath(path, lineCwd, cwd ?? lineCwd);
  }

  /** A project file's one spelling, or null for Claude Code's own files. */
  function filePath(path: string, dir: string | null): string | null {
    const abs = absolutePath(path, dir);
    return isClaudeCodeFile(abs) ? null : showPath(abs, dir);
  }

  /** A file a shell command wrote or deleted, when it lies in the project (a log in /tmp is not the session's work). */
  function projectFile(path: string, dir: string | null): string | null {
    const p = filePath(path, dir);
    return p && !isAbsolutePath(p) && p !== '.' && !p.startsWith('../') ? p : null;
  }

  function noteWritten(path: string): void {
    keepLatest(uncommitted, path, SUMMARY_LIMITS.written);
    keepLatest(written, path, SUMMARY_LIMITS.written);
    deleted.delete(path);
    reverted.delete(path);
    failedWrites.delete(path);
  }

  /** A file put back as committed: whatever the session changed in it is undone. */
  function noteReverted(path: string): void {
    keepLatest(reverted, path, SUMMARY_LIMITS.deleted);
  }

  function noteDeleted(path: string): void {
    keepLatest(deleted, path, SUMMARY_LIMITS.deleted);
    failedWrites.delete(path);
  }

  function noteRecap(text: string): void {
    const recap = readRecap(text);
    if (!recap) return;
    if (recapRequests.list().length === 0) for (const r of recap.requests) recapRequests.add(r);
    recalledOpen = recap.pending;
  }

  function onToolUse(call: ToolCall, lineCwd: string | null, sidechain: boolean): void {
    if (isOtherWorkTool(call.name)) otherTools++;
    const path = call.file ? filePath(call.file.path, lineCwd) : null;
    if (path && call.file?.access === 'read' && !TASK_OUTPUT.test(path)) touchFile(path, 'read');
    if (call.search && (touched || searches.length < SUMMARY_LIMITS.searches)) {
      const where = call.search.path ? ` in ${showPath(call.search.path, lineCwd)}` : '';
      const full = oneLine(`${call.search.pattern}${where}`);
      const text = clip(full, 80);
      if (searches.length < SUMMARY_LIMITS.searches && !searches.includes(text)) searches.push(text);
      if (touched) addBounded(touched.searches, full.slice(-400), USE_CAPS.searches);
    }
    if (call.todos) {
      todos.write(call.todos, sidechain);
      // A todo list written after a compaction is the state of the work: it replaces the summary's pending tasks.
      if (!sidechain) recalledOpen = [];
    }
    if (call.planFile && call.plan) lastPlanFile = call.plan;
    if (!call.id) return;
    if (pending.size >= PENDING_CAP) pending.delete(pending.keys().next().value!);
    const cd = call.command !== null ? shellEffects(call.command).cd : null;
    pending.set(call.id, { call, path, sidechain, dir: cd ? absolutePath(cd, lineCwd) : lineCwd });
  }

  // Commits collapse into one line that moves to the latest: git log has the rest.
  function noteCommit(subject: string, sidechain: boolean): void {
    const target = sidechain ? sidePool : pool;
    const state = sidechain ? commits.side : commits.main;
    state.count++;
    target.remove(state.cand);
    const text = commitLine(state.count, subject);
    state.cand = addCandidate(target, text, 4);
  }

  function planDecision(plan: string | null): void {
    const headline = plan ? planHeadline(plan) : null;
    if (headline) addCandidate(pool, headline, 7);
  }

  /** A shell command's run: its row, the check it is, and the files it wrote or deleted when it succeeded. */
  function onCommand(call: ToolCall & { command: string }, dir: string | null, r: ToolResult, sidechain: boolean): void {
    // "nothing to commit" exits 1 but leaves nothing undone.
    const benign = /\bnothing to commit\b/.test(r.text);
    const root = cwd ?? dir;
    const normalized = normalizeCommand(call.command, dir, root);
    const where = projectDir(dir, root);
    // A command that ran in a subfolder is shown with it: after `cd assets`, `node build.js` is assets/build.js.
    // Shown as typed (pipes and redirections kept); judged without them.
    const typed = normalizeCommand(call.command, dir, root, { asTyped: true });
    const shown = displayCommand(where ? `cd ${where} && ${typed}` : typed);
    const check = normalized ? checkOf(normalized, where ?? dir ?? '', shown) : null;
    // A grep at the end of a pipe that matched nothing exits 1 for itself, not for what it filtered.
    const unfound = grepMatchedNothing(call.command, r);
    let failed = (r.isError || (r.exitCode !== null && r.exitCode !== 0)) && !benign && !unfound;
    // A pipe hides the exit status of a test run (`mix test | tail`); its printed totals do not.
    if (
      !failed &&
      check &&
      (check.kind === 'test' || check.kind === 'build' || check.kind === 'lint') &&
      (r.exitCode === null || unfound) &&
      // A pipe, `|| true` or a step after it (`; echo done`) hides the exit status: the printed totals decide.
      /\||;\s*\S/.test(call.command)
    )
      failed = outputShowsFailure(r.tail, check.kind);
    const effects = shellEffects(call.command, r.text);
    // A subagent's looking around (`ls`, `git log`, a `find` that failed) is its own business; what it checked or changed is the session's.
    const counts = !sidechain || check !== null || !isInspection(normalized) || effects.writes.length > 0 || effects.deletes.length > 0;
    if (normalized && counts) activity.recordCommand(shown, commandFamily(normalized), failed, check !== null, commandRowKey(shown));
    if (normalized && touched) addBounded(touched.commands, shown, USE_CAPS.commands);
    if (check) checks = recordCheck(checks, check, failed);
    // A build, test or run (passing or not: a failure is reported as such) looked at the edits before it.
    if (normalized && isCheckOrRun(normalized, check)) {
      unchecked.clear();
      ranCheck = true;
    }
    const subject = failed || benign ? null : commitSubject(call.command);
    if (subject) noteCommit(subject, sidechain);
    if (failed) return;
    // A commit that went through keeps what was edited before it: a later `git reset --hard` puts back only what came after.
    if (effects.commits) uncommitted.clear();
    for (const w of effects.writes) {
      const p = projectFile(w, dir);
      if (p) {
        touchFile(p, 'edit');
        noteWritten(p);
      }
    }
    for (const d of effects.deletes) {
      const p = projectFile(d, dir);
      if (p) noteDeleted(p);
    }
    for (const r of effects.reverts) {
      const p = projectFile(r, dir);
      if (p) noteReverted(p);
    }
    if (effects.revertsAll) {
      for (const f of uncommitted) if (!deleted.has(f)) noteReverted(f);
      uncommitted.clear();
    }
  }

  function onToolResult(r: ToolResult): void {
    const p = pending.get(r.toolUseId);
    if (!p) return;
    pending.delete(r.toolUseId);
    const { call, path, sidechain } = p;
    // Refusing a tool call with a note is how a user changes course mid-turn: the note is what they ask now.
    if (r.userSaid && !sidechain) requests.add(r.userSaid);
    if (path && call.file?.access === 'edit') {
      // A refused or failed write is not done, whatever the prose says next; a later write of the file makes it good.
      if (r.isError) {
        failedWrites.delete(path);
        failedWrites.set(path, { path, why: writeFailure(r.text) });
        if (failedWrites.size > SUMMARY_LIMITS.failedWrites) failedWrites.delete(failedWrites.keys().next().value!);
      } else {
        touchFile(path, 'edit');
        noteWritten(path);
      }
    }
    if (call.command !== null && call.background) {
      // "Command running in background with ID: x": not an outcome. It is judged when its output is read as ended.
      const id = /\bID:\s*([A-Za-z0-9_-]+)/.exec(r.text)?.[1];
      if (id && !r.isError) {
        if (background.size >= PENDING_CAP) background.delete(background.keys().next().value!);
        background.set(id, p);
      } else onCommand({ ...call, command: call.command }, p.dir, r, sidechain);
    } else if (call.command !== null) onCommand({ ...call, command: call.command }, p.dir, r, sidechain);
    if (call.outputOf) {
      const started = background.get(call.outputOf);
      const status = /<status>(\w+)<\/status>/.exec(r.text)?.[1];
      if (started?.call.command && (status === 'completed' || status === 'failed' || status === 'killed')) {
        background.delete(call.outputOf);
        const code = /<exit_code>(-?\d+)<\/exit_code>/.exec(`${r.text}\n${r.tail}`)?.[1];
        const exitCode = code !== undefined ? Number(code) : status === 'completed' ? 0 : null;
        const failed = status !== 'completed' || (exitCode !== null && exitCode !== 0);
        onCommand({ ...started.call, command: started.call.command }, started.dir, { ...r, isError: failed, exitCode }, started.sidechain);
      }
    }
    if (!r.isError) todos.onTaskResult(call, r);
    if (sidechain) return;
    for (const { question, answer } of r.answers) {
      // An answer left empty (or private) decides nothing.
      if (oneLine(answer) === '' || oneLine(question) === '') continue;
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
        // Naming an entry in a `/rune:echoes` command (recording, showing, forgetting it) is managing memory, not using it.
        if (!ECHOES_PROMPT.test(e.text.trim())) noteTerms(e.text);
        if (e.sidechain) {
          sideFirstPrompt ??= e.text;
          return;
        }
        mainSeen = true;
        flushTurn();
        turnFromNotification = false;
        pendingQuestion = null;
        pendingSteps = [];
        interruptedRequest = null;
        requests.add(e.text);
        // The user moved on: a compaction summary's pending tasks are no longer the session's open ends.
        recalledOpen = [];
        return;
      case 'aside':
        if (e.sidechain) return;
        flushTurn();
        if (e.aside === 'notification') turnFromNotification = true;
        return;
      case 'recap':
        noteRecap(e.text);
        if (!e.sidechain) flushTurn();
        return;
      case 'interrupt':
        if (e.sidechain) return;
        flushTurn();
        interruptedRequest = requests.latest() ?? carriedRequest;
        return;
      case 'assistant-text': {
        if (e.messageId !== currentMessage) {
          currentMessage = e.messageId;
          currentBlocks = new Set();
        }
        if (currentBlocks.has(`t:${e.text}`)) return;
        currentBlocks.add(`t:${e.text}`);
        noteTerms(e.text);
        // A compaction agent's answer is the summary itself: read as a recap, not mined as prose.
        if (isRecapText(e.text)) {
          noteRecap(e.text);
          return;
        }
        if (e.sidechain) {
          sideLastText = e.text;
          if (!mainSeen) for (const c of cueSentences(e.text)) addCandidate(sidePool, c.text, c.score, c.cue);
          return;
        }
        mainSeen = true;
        turnText = turnEssence(e.text);
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
        if (e.hidden) {
          // Inside a `<private>` span: that work was done is kept, and nothing of what it was.
          if (!e.sidechain) privateWork++;
          return;
        }
        if (!e.sidechain) {
          mainSeen = true;
          turnText = null; // text before a tool call is a step, not the turn's conclusion
          // Work after a compaction summary (an edit, a command that is more than looking) takes up its
          // pending tasks; reading alone does not.
          if (e.call.file?.access === 'edit' || (e.call.command !== null && !isInspection(e.call.command.trim()))) recalledOpen = [];
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
      const events = parseTranscriptLine(line, guard);
      for (const e of events) onEvent(e);
      opts.onEvents?.(events);
    },
    addEvents(events: TranscriptEvent[]): void {
      for (const e of events) onEvent(e);
    },
    finish(): SessionSummary {
      return buildSummary();
    },
  };

  // Non-destructive: finish() may be called again after more lines (a running draft), and a turn that
  // has not ended is read as if it had, provisionally: the next part decides what its text was.
  function buildSummary(): SessionSummary {
    const unresolved: string[] = [];
    const open = turnText !== null ? turnOutcome(turnText) : null;
    const question = open ? open.question : pendingQuestion;
    // Edits whose result has not arrived are in `carry`: the next read settles them, or the hand-off counts them as made.
    for (const { call } of pending.values()) {
      if (call.name === 'ExitPlanMode') {
        const h = planHeadline(call.plan ?? lastPlanFile ?? '');
        unresolved.push(h ? `Awaiting approval: ${h}` : 'A plan is awaiting approval');
      }
    }

    // A separate subagent transcript has no main-chain turns: then its own prose is the story.
    const useSide = !mainSeen;
    const candidates = (useSide ? sidePool : pool).items.map((c) => ({ ...c }));
    let last = lastConclusion ? candidates.find((c) => c.key === lastConclusion!.key) : undefined;
    const provisional = !useSide && open?.conclusion ? open.conclusion : null;
    if (provisional) {
      last = candidates.find((c) => c.key === dedupeKey(provisional));
      if (!last) {
        last = { text: provisional, key: dedupeKey(provisional), score: 5, seq: seq + 1, cue: '' };
        candidates.push(last);
      }
    }
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
    if (last) last.score += LAST_WORD; // the session's last word matters most
    const picked = pickDiverse(candidates, SUMMARY_LIMITS.decisions);
    const decisions = picked.map((c) => c.text);

    const asked = requests.list();
    if (useSide && asked.length === 0 && sideFirstPrompt) {
      asked.push(clip(`(subagent) ${oneLine(sideFirstPrompt)}`, SUMMARY_LIMITS.requestChars));
    }

    const openTodos = todos.open(useSide, SUMMARY_LIMITS.openTodos, SUMMARY_LIMITS.todoChars);

    if (question) unresolved.push(`Claude asked: ${question}`);
    const steps = open ? open.steps : pendingSteps;
    if (steps.length > 0) unresolved.push(clip(`Left to the user: ${steps.join('; ')}`, 300));
    if (interruptedRequest) unresolved.push(`Interrupted: ${clip(interruptedRequest, 160)}`);

    // A file deleted (or one in a deleted folder) is no longer an edited file of the session.
    const gone = (f: string) => [...deleted, ...reverted].some((d) => f === d || f.startsWith(`${d}/`));
    const recalled = recapRequests.list();
    const namedTerms = watch.filter((_, i) => named.has(i));

    return {
      sessionId,
      cwd,
      branch,
      firstTs,
      lastTs,
      requests: asked,
      decisions,
      // Kept so that parts merge as one read of the whole picks (summary-merge.ts).
      ...(picked.length > 0
        ? { decisionWeights: picked.map((c) => ({ score: c === last ? c.score - LAST_WORD : c.score, ...(c.cue ? { cue: c.cue } : {}) })) }
        : {}),
      ...(last && picked.includes(last) ? { lastWord: last.text } : {}),
      filesEdited: activity
        .rankedFiles('edited', SUMMARY_LIMITS.files + deleted.size + reverted.size)
        .filter((f) => !gone(f))
        .slice(0, SUMMARY_LIMITS.files),
      filesRead: activity.rankedFiles('read', SUMMARY_LIMITS.files),
      commands: activity.commandRows(DRAFT_COMMANDS).map(
        (r): SummaryCommand => ({
          command: r.command,
          failed: r.failed,
          count: r.count,
          failures: r.failures,
          ...(r.check ? { check: true } : {}),
          last: r.last,
        }),
      ),
      openTodos,
      unresolved: unresolved.slice(0, SUMMARY_LIMITS.unresolved),
      lines,
      skippedLines: skipped,
      namedTerms,
      ...(opts.use && touched
        ? {
            used: usedEntries(opts.use, {
              files: [...touched.files],
              searches: [...touched.searches],
              commands: [...touched.commands],
              named: namedTerms,
            }),
          }
        : {}),
      searches: [...searches],
      todosSeen: todos.seen(useSide),
      ...(otherTools > 0 ? { otherTools } : {}),
      ...(privateWork > 0 ? { privateWork } : {}),
      ...(guard.depth.main || guard.depth.side ? { privateDepth: guard.depth } : {}),
      checks: { failing: [...checks.failing], passed: [...checks.passed] },
      failedWrites: [...failedWrites.values()],
      written: [...written],
      filesDeleted: [...deleted],
      ...(reverted.size ? { filesReverted: [...reverted] } : {}),
      doneTodos: todos.done(SUMMARY_LIMITS.doneTodos, SUMMARY_LIMITS.todoChars),
      ...(recalled.length > 0 ? { recalledRequests: recalled } : {}),
      // [] once work followed (or none was recalled): a later part's work clears an earlier part's recap.
      ...(recalledOpen ? { recalledOpen: [...recalledOpen] } : {}),
      ...(provisional && decisions.includes(provisional) ? { provisional } : {}),
      ...(unchecked.size > 0 ? { unchecked: [...unchecked] } : {}),
      ...(ranCheck ? { ranCheck } : {}),
      carry: {
        awaiting: [...pending.values()].slice(-SUMMARY_LIMITS.awaiting),
        question: pendingQuestion,
        ...(pendingSteps.length > 0 ? { steps: pendingSteps } : {}),
        turnText,
        mainSeen,
        fromNotification: turnFromNotification,
        interrupted: interruptedRequest,
        lastRequest: requests.latest() ?? carriedRequest,
        lastPlan: lastPlanFile,
        ...(uncommitted.size > 0 ? { uncommitted: [...uncommitted] } : {}),
        ...(commits.main.count > 0 ? { commits: commits.main.count } : {}),
        ...(requests.head().length > 0 ? { askedHead: requests.head() } : {}),
      },
    };
  }
}

/** A run of letters, digits and `_`: the words a text is looked up by. */
const WORD_RUN = /[\p{L}\p{N}_]+/gu;

/** A letter, digit, `-` or `_`: what an id or a title's word runs on with. */
const WORDISH = /[\p{L}\p{N}_-]/u;

/** True when `term` stands in `text` as itself, not inside a longer word or id ("migrations" is not in "db-migrations-v2"). */
function namesTerm(text: string, term: string): boolean {
  for (let at = text.indexOf(term); at >= 0; at = text.indexOf(term, at + 1)) {
    const before = at > 0 ? text[at - 1]! : '';
    const after = text[at + term.length] ?? '';
    if (!WORDISH.test(before) && !WORDISH.test(after)) return true;
  }
  return false;
}
