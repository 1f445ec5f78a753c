// Session summaries are built incrementally: each hook reads only the part
// of the transcript that is new since the last one, summarises it, and
// merges it into the running draft kept in the session's state file.
import { emptyCheckState, mergeCheckStates } from './summary-checks.ts';
import { commandRowKey, keptCommands, runsFailed } from './summary-commands.ts';
import { COMMIT_LINE } from './summary-decisions.ts';
import { DRAFT_COMMANDS, type SessionSummary, SUMMARY_LIMITS, type SummaryCommand } from './summary-model.ts';
import { type Candidate, LAST_WORD, pickDiverse } from './summary-pool.ts';
import { RequestLog } from './summary-requests.ts';
import { dedupeKey } from './summary-text.ts';
import { mergeFileStates } from './summary-writes.ts';

const CAPS = { decisions: 10, files: 30, commands: DRAFT_COMMANDS, todos: 12, unresolved: 8, terms: 200, used: 5000 };

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

/**
 * The requests of two reads, as one read of both picks them: `a`'s, in the order its log keeps them, then
 * `b`'s, told to the same log (the first few keep their place; one said again moves to the latest).
 */
function mergeRequests(a: string[], b: string[]): string[] {
  const log = new RequestLog(SUMMARY_LIMITS.firstRequests, SUMMARY_LIMITS.requests, SUMMARY_LIMITS.requestChars);
  for (const r of [...a, ...b]) log.add(r);
  return log.list();
}

/**
 * Files in the order they were first touched, as one read of the whole lists
 * them; over the cap, the first few and the most recent ones stay.
 */
function mergeFiles(a: string[], b: string[], cap: number): string[] {
  const all = [...new Set([...a, ...b])];
  if (all.length <= cap) return all;
  const head = Math.floor(cap / 3);
  return [...all.slice(0, head), ...all.slice(-(cap - head))];
}

/**
 * Decisions of successive parts, picked as one read of the whole picks them (summary-pool.ts,
 * pickDiverse): by what each weighed, the whole session's last word weighing more, spread over kinds
 * of statement; listed in the order they were said. Drafts written before scores were kept merge as
 * before: the first few and the latest.
 */
function mergeDecisions(a: SessionSummary, b: SessionSummary): Pick<SessionSummary, 'decisions' | 'decisionWeights' | 'lastWord'> {
  // `b` went on with the turn that `a` ended in: its reading of that turn replaces `a`'s provisional one;
  // its commit line, counting on from `a`'s, replaces `a`'s.
  const replaced = (d: string) =>
    (b.carry !== undefined && d === a.provisional) || (COMMIT_LINE.test(d) && b.decisions.some((x) => COMMIT_LINE.test(x)));
  if (!a.decisionWeights && !b.decisionWeights)
    return {
      decisions: mergeList(
        a.decisions.filter((d) => !(b.carry && d === a.provisional)),
        b.decisions,
        CAPS.decisions,
      ),
    };
  const lastWord = b.lastWord ?? (a.lastWord && !replaced(a.lastWord) ? a.lastWord : undefined);
  const byKey = new Map<string, Candidate>();
  const offer = (text: string, weight: { score: number; cue?: string } | undefined) => {
    const key = dedupeKey(text);
    if (!key) return;
    // A state file is only ever written by these hooks; one torn or edited by hand weighs as an old draft.
    const score = typeof weight?.score === 'number' && Number.isFinite(weight.score) ? weight.score : DEFAULT_SCORE;
    const cue = typeof weight?.cue === 'string' ? weight.cue : '';
    const had = byKey.get(key);
    if (had) had.score = Math.max(had.score, score);
    else byKey.set(key, { text, key, score, seq: byKey.size, cue });
  };
  a.decisions.forEach((d, i) => {
    if (!replaced(d)) offer(d, a.decisionWeights?.[i]);
  });
  b.decisions.forEach((d, i) => {
    offer(d, b.decisionWeights?.[i]);
  });
  const candidates = [...byKey.values()].map((c) => (c.text === lastWord ? { ...c, score: c.score + LAST_WORD } : c));
  const picked = pickDiverse(candidates, CAPS.decisions);
  return {
    decisions: picked.map((c) => c.text),
    decisionWeights: picked.map((c) => ({ score: c.text === lastWord ? c.score - LAST_WORD : c.score, ...(c.cue ? { cue: c.cue } : {}) })),
    ...(lastWord && picked.some((c) => c.text === lastWord) ? { lastWord } : {}),
  };
}

/** What a decision of a draft that kept no scores weighs: a conclusion's. */
const DEFAULT_SCORE = 5;

export function mergeSummaries(a: SessionSummary, b: SessionSummary): SessionSummary {
  // Each row once, where it was first run, as one read of the whole lists them; its runs, failures and
  // latest state merged. When it last ran: the later part's runs come after all of the earlier part's.
  const offset = a.commands.reduce((m, c, i) => Math.max(m, c.last ?? i), -1) + 1;
  const rows = new Map<string, SummaryCommand>();
  for (const [part, list] of [
    [0, a.commands],
    [offset, b.commands],
  ] as const) {
    list.forEach((c, i) => {
      // Runs that differ only in a pipe or redirection share a row, shown as the latest was typed.
      const key = commandRowKey(c.command);
      const prev = rows.get(key);
      // A row of a draft that does not number its runs, merged with nothing before it, stays as it was.
      const last = c.last === undefined && part === 0 ? {} : { last: part + (c.last ?? i) };
      if (!prev) {
        rows.set(key, { ...c, ...last });
        return;
      }
      // `failed` is the state of the latest run, so the later part decides it.
      const failures = runsFailed(prev) + runsFailed(c);
      const check = c.check || prev.check;
      rows.set(key, {
        command: c.command,
        failed: c.failed,
        count: prev.count + c.count,
        ...(failures ? { failures } : {}),
        ...(check ? { check } : {}),
        ...last,
      });
    });
  }
  const files = mergeFileStates(a, b);
  const filesEdited = mergeFiles(
    a.filesEdited.filter((f) => !files.goneFromA(f)),
    b.filesEdited,
    CAPS.files,
  );
  const hasFileState = a.written || b.written || a.failedWrites || b.failedWrites || a.filesDeleted || b.filesDeleted;
  const todosFromB = b.todosSeen ?? b.openTodos.length > 0;
  const doneTodos = todosFromB ? b.doneTodos : a.doneTodos;
  const recalledOpen = b.recalledOpen ?? a.recalledOpen;
  const recalledRequests = a.recalledRequests?.length ? a.recalledRequests : b.recalledRequests;
  return {
    sessionId: b.sessionId ?? a.sessionId,
    // The project root is where the session began: every later part spells paths against it.
    cwd: a.cwd ?? b.cwd,
    branch: b.branch ?? a.branch,
    firstTs: a.firstTs ?? b.firstTs,
    lastTs: b.lastTs ?? a.lastTs,
    requests: mergeRequests(a.requests, b.requests),
    ...mergeDecisions(a, b),
    filesEdited,
    filesRead: mergeFiles(a.filesRead, b.filesRead, CAPS.files).filter((f) => !filesEdited.includes(f)),
    commands: keptCommands([...rows.values()], CAPS.commands),
    // The todo list is a state, not a log: the latest TodoWrite replaces it.
    openTodos: todosFromB ? b.openTodos : a.openTodos,
    todosSeen: Boolean(a.todosSeen || b.todosSeen),
    ...((a.otherTools ?? 0) + (b.otherTools ?? 0) > 0 ? { otherTools: (a.otherTools ?? 0) + (b.otherTools ?? 0) } : {}),
    ...((a.privateWork ?? 0) + (b.privateWork ?? 0) > 0 ? { privateWork: (a.privateWork ?? 0) + (b.privateWork ?? 0) } : {}),
    // A part read on from the previous one's carry knows what is still unresolved; older drafts' lists are merged.
    unresolved: b.carry ? b.unresolved : mergeList(a.unresolved, b.unresolved, CAPS.unresolved).slice(-CAPS.unresolved),
    lines: a.lines + b.lines,
    skippedLines: a.skippedLines + b.skippedLines,
    namedTerms: mergeList(a.namedTerms, b.namedTerms, CAPS.terms),
    ...(a.used || b.used ? { used: [...new Set([...(a.used ?? []), ...(b.used ?? [])])].slice(0, CAPS.used) } : {}),
    // The first searches, as one read of the whole keeps them.
    searches: [...new Set([...(a.searches ?? []), ...(b.searches ?? [])])].slice(0, 6),
    // Where private spans stand is a state at the end of the later part (none: all closed).
    ...(b.privateDepth ? { privateDepth: b.privateDepth } : {}),
    ...(a.checks || b.checks ? { checks: mergeCheckStates(a.checks ?? emptyCheckState(), b.checks ?? emptyCheckState()) } : {}),
    ...(hasFileState ? { failedWrites: files.failedWrites, written: files.written, filesDeleted: files.filesDeleted } : {}),
    ...(files.filesReverted ? { filesReverted: files.filesReverted } : {}),
    ...(doneTodos ? { doneTodos } : {}),
    ...(recalledRequests ? { recalledRequests } : {}),
    ...(recalledOpen ? { recalledOpen } : {}),
    ...(b.carry || a.carry ? { carry: b.carry ?? a.carry } : {}),
    // A build, test or run in `b` looked at `a`'s edits; `b`'s own since its last one are still unchecked.
    ...uncheckedOf(a, b),
    ...(b.provisional ? { provisional: b.provisional } : {}),
  };
}

function uncheckedOf(a: SessionSummary, b: SessionSummary): Pick<SessionSummary, 'unchecked' | 'ranCheck'> {
  // A file edited again in `b` moves to the end, as a whole read keeps the latest last.
  const again = new Set(b.unchecked ?? []);
  const unchecked = b.ranCheck
    ? (b.unchecked ?? [])
    : [...(a.unchecked ?? []).filter((f) => !again.has(f)), ...(b.unchecked ?? [])].slice(-CAPS.files);
  return {
    ...(unchecked.length > 0 ? { unchecked } : {}),
    ...(a.ranCheck || b.ranCheck ? { ranCheck: true } : {}),
  };
}
