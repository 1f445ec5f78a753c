// The value a session summary is (SPEC §13): what was asked, done, touched,
// run and left open, each list bounded. The builder (session-summary.ts), the
// renderers, merging and the stored records all work on this shape.

import type { PrivateDepth } from '../transcript/transcript-guard.ts';

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
  /** `<private>` spans still open where this part of the transcript ends: the next read starts hidden. */
  privateDepth?: PrivateDepth;
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
