// The value a session summary is (SPEC §13): what was asked, done, touched,
// run and left open, each list bounded. The builder (session-summary.ts), the
// renderers, merging and the stored records all work on this shape.

import type { PrivateDepth } from '../transcript/transcript-guard.ts';
import type { ToolCall } from '../transcript/transcript-tools.ts';
import type { CheckState } from './summary-checks.ts';

export interface SummaryCommand {
  command: string;
  /** True when the last run of this command failed (error result or exit code ≠ 0). */
  failed: boolean;
  count: number;
  /** How many runs failed; with `failed: false` that reads "failed N×, then passed". */
  failures?: number;
  /** A check (test, build, commit …) whose state the summary tracks: a failure another run settled reads so. */
  check?: boolean;
  /** When it last ran, as an order within the session (later parts number after earlier ones). */
  last?: number;
}

/** A file write the tool results show did not happen (and no later write of the file did). */
export interface FailedWrite {
  path: string;
  /** Why, in a few words: "refused: permission not granted", "failed: file not read first" … */
  why: string;
}

/** A tool call whose result had not arrived where a read stopped. */
export interface AwaitingCall {
  call: ToolCall;
  /** The file path as the summary shows it (file tools). */
  path: string | null;
  sidechain: boolean;
  /** Bash: the folder the command ran in. */
  dir: string | null;
}

/**
 * Where a read stopped, for the next read of the same transcript to go on from
 * there: calls still awaiting their results, an unanswered question, an
 * interrupted request. The part's `unresolved` is then the whole session's.
 */
export interface SummaryCarry {
  awaiting: AwaitingCall[];
  /** The question that ended the last finished turn, while no prompt has answered it. */
  question: string | null;
  /** The steps the last finished turn handed to the user, while no prompt has come since. */
  steps?: string[];
  /** The text of a turn that had not ended where the read stopped. */
  turnText?: string | null;
  /** The transcript has main-chain turns (it is not a separate subagent's). */
  mainSeen?: boolean;
  /** The unfinished turn answers a background-task notification. */
  fromNotification?: boolean;
  interrupted: string | null;
  lastRequest: string | null;
  lastPlan: string | null;
  /** Files edited since the last commit that went through: what a `git reset --hard` in a later read puts back. */
  uncommitted?: string[];
  /** Commits of the main conversation so far: a later read goes on counting ("Committed 3 times, last: …"). */
  commits?: number;
  /** The keys of the session's first requests, which keep their place: a later read neither repeats them nor adds to them past the few. */
  askedHead?: string[];
}

export interface SessionSummary {
  sessionId: string | null;
  cwd: string | null;
  branch: string | null;
  firstTs: string | null;
  lastTs: string | null;
  requests: string[];
  decisions: string[];
  /**
   * What each decision weighed when it was chosen (without the bonus of the session's last word) and the
   * cue phrase that made it one, so that merging parts picks as a read of the whole does; absent in drafts
   * written before it was kept.
   */
  decisionWeights?: Array<{ score: number; cue?: string }>;
  /** The decision that was the last word of the part: it weighs more while nothing said after it. */
  lastWord?: string;
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
  /** Usage keys (`role#id`) of the watched entries this session used, when a read was told which to watch. */
  used?: string[];
  /** Grep/Glob patterns, first few. */
  searches?: string[];
  /** True when this span wrote a todo list: then `openTodos` is the current state even when empty. */
  todosSeen?: boolean;
  /** Tool calls made while a `<private>` span was open: work was done, and nothing of it is kept. */
  privateWork?: number;
  /** Calls of tools the other fields do not count (a subagent's Task, the web, notebooks, MCP servers). */
  otherTools?: number;
  /** `<private>` spans still open where this part of the transcript ends: the next read starts hidden. */
  privateDepth?: PrivateDepth;
  // The session's final state, kept so that parts read by successive hooks merge
  // into what reading the whole would give (absent in drafts of older versions).
  /** Checks still failing, and the passing runs that settle earlier parts' failures. */
  checks?: CheckState;
  /** Writes and edits refused or failed, not made good by a later write of the same file. */
  failedWrites?: FailedWrite[];
  /** Files written successfully (latest last, bounded): they settle earlier parts' failed writes and deletions. */
  written?: string[];
  /** Files and folders deleted (rm, git rm) and not written again. */
  filesDeleted?: string[];
  /** Files put back as committed (`git checkout -- f`, `git restore`, `git reset --hard`) and not written again. */
  filesReverted?: string[];
  /** Todos the latest lists mark completed: checked against what failed. */
  doneTodos?: string[];
  /** What the user asked, as a compaction summary in the transcript quotes it: used when no request is left. */
  recalledRequests?: string[];
  /** A compaction summary's pending tasks, while no work has followed it. */
  recalledOpen?: string[];
  /** What the next read of the transcript continues from. */
  carry?: SummaryCarry;
  /** Code files edited after the last build, test or run of this part (none ran after them). */
  unchecked?: string[];
  /** A build, test or run happened in this part: an earlier part's unchecked edits were checked. */
  ranCheck?: boolean;
  /** The decision read from a turn that had not ended: the next part, which goes on with that turn, decides it again. */
  provisional?: string;
}

/**
 * Command rows a draft keeps: more than a hand-off shows (SUMMARY_LIMITS.commands), so a session read in
 * parts still has the rows a read of the whole would choose from when the hand-off is rendered.
 */
export const DRAFT_COMMANDS = 40;

export const SUMMARY_LIMITS = {
  requests: 8,
  firstRequests: 3,
  decisions: 10,
  files: 30,
  commands: 12,
  openTodos: 10,
  unresolved: 6,
  searches: 6,
  deleted: 30,
  written: 100,
  failedWrites: 10,
  doneTodos: 20,
  awaiting: 32,
  requestChars: 200,
  todoChars: 140,
} as const;

export function emptySummary(): SessionSummary {
  return {
    sessionId: null,
    cwd: null,
    branch: null,
    firstTs: null,
    lastTs: null,
    requests: [],
    decisions: [],
    filesEdited: [],
    filesRead: [],
    commands: [],
    openTodos: [],
    unresolved: [],
    lines: 0,
    skippedLines: 0,
    namedTerms: [],
  };
}

export function isEmptySummary(s: SessionSummary): boolean {
  return s.requests.length + s.decisions.length + s.filesEdited.length + s.filesRead.length + s.commands.length + s.openTodos.length === 0;
}
