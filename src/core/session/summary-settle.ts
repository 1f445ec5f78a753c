// What a hand-off says at the end, when the assistant's words and the tool
// results disagree: the results win. A statement in "Done" that claims a file
// was written when its write was refused, or that tests pass when the last run
// failed, leaves Done; "Open" then says what failed and what was claimed. A
// todo marked completed while its check still fails, or while its file was
// never written, is reported the same way. Pure: it reads a (merged) summary,
// so parts read by successive hooks settle exactly as the whole would.

import { clip, oneLine } from '../text.ts';
import type { CheckKind, CheckRun } from './summary-checks.ts';
import { commandFamily } from './summary-commands.ts';
import { COMMIT_LINE } from './summary-decisions.ts';
import type { FailedWrite, SessionSummary } from './summary-model.ts';

export interface SettledSummary {
  /** The user's requests; when the transcript holds none, those a compaction summary recalls. */
  requests: string[];
  /** Done and decided, without the claims the results contradict. */
  decisions: string[];
  /** Still open at the end, one line each. */
  open: string[];
  /** Files edited (with edits whose result never arrived: the transcript ends mid-call, they still happened), and files only read. */
  filesEdited: string[];
  filesRead: string[];
}

const CLAIM_VERB =
  /\b(?:re)?(?:creat|wr[io]te|written|add|updat|modif|edit|sav|generat|fix|chang|made|set up|implement|document|renam|replac|refactor|finish|complet|built)\w*|\b(?:is|are) (?:now )?in\b|\bdone\b|\bin place\b/i;

// Claims that a kind of check passes (`tests pass`, `build succeeds`, `compiles cleanly`, `credo clean`).
const PASS_CLAIMS: Partial<Record<CheckKind, RegExp[]>> = {
  test: [/\btests?\b[^.;]*\b(?:pass(?:es|ed|ing)?|green|succeed\w*)\b/i, /\b(?:verified|confirmed)\b[^.;]*\btests?\b/i],
  build: [
    /\bbuild\w*\b[^.;]*\b(?:pass\w*|succeed\w*|success\w*|works?|clean\w*|green)\b/i,
    /\bcompil\w*\b[^.;]*\b(?:clean\w*|success\w*|fine)\b/i,
  ],
  lint: [/\b(?:lint\w*|credo|dialyzer|clippy|eslint|ruff|format\w*)\b[^.;]*\b(?:clean|pass\w*|no (?:issues|errors|warnings))\b/i],
  commit: [/\bcommitted\b/i],
  push: [/\bpushed\b/i],
};

// Todos whose completion rests on a kind of check passing. "Build the components" is work, not a
// check: a todo counts when it says it tests, verifies, compiles or runs the build.
const TESTS = /\b(?:tests?|testing|specs?|verify|verification|coverage)\b/i;
const BUILDS =
  /\b(?:compiles?|compilation|typecheck|type-check)\b|\b(?:run|check|fix|verify)\w* (?:the )?build\b|\bbuild (?:passes|succeeds|works)\b/i;
const LINTS = /\b(?:lint|linter|linting|format|formatting|credo|dialyzer|clippy|eslint|static analysis|quality checks?)\b/i;
const TODO_CHECK: Partial<Record<CheckKind, (todo: string) => boolean>> = {
  test: (t) => TESTS.test(t),
  // Testing what was built includes building it.
  build: (t) => BUILDS.test(t) || TESTS.test(t),
  lint: (t) => LINTS.test(t) || /\b(?:verify|verification)\b/i.test(t),
  commit: (t) => /\bcommit\b/i.test(t),
  push: (t) => /\bpush\b/i.test(t),
};

const LEGACY_FAILING = /` failed on its last run$/;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Whether a text names a file: by its path, or by its file name (with an
 * extension) alone; a name inside another path (`src/index.ts` for a failed
 * `types/index.ts`) is another file.
 */
function namesFile(text: string, path: string): boolean {
  const base = path.split('/').pop() ?? path;
  if (!/\.\w+$/.test(base) || base.length < 4) return new RegExp(`(?:^|[^\\w./-])${escapeRegExp(path)}(?![\\w/-]|\\.\\w)`, 'i').test(text);
  const mentions = text.matchAll(new RegExp(`(?:^|(?<=[^\\w.-]))([\\w./-]*?)${escapeRegExp(base)}(?![\\w/-]|\\.\\w)`, 'gi'));
  for (const m of mentions) {
    const written = `${m[1] ?? ''}${base}`.replace(/^\.\//, '');
    if (written === base || written.toLowerCase() === path.toLowerCase() || path.toLowerCase().endsWith(`/${written.toLowerCase()}`))
      return true;
  }
  return false;
}

const quote = (text: string) => `"${clip(oneLine(text), 90)}"`;

function fileClaims(decisions: string[], w: FailedWrite): string[] {
  return decisions.filter((d) => CLAIM_VERB.test(d) && namesFile(d, w.path));
}

function checkClaims(decisions: string[], c: CheckRun): string[] {
  const patterns = PASS_CLAIMS[c.kind] ?? [];
  // The summary's own commit lines (`Committed: subject`, `Committed 3 times, last: …`) report runs that passed.
  return decisions.filter((d) => patterns.some((p) => p.test(d)) && !COMMIT_LINE.test(d));
}

function yet(claims: string[], todos: string[]): string {
  const parts = [
    ...todos.map((t) => `the todo ${quote(t)} is marked completed`),
    ...claims.slice(-1).map((c) => `reported done: ${quote(c)}`),
  ];
  return parts.length > 0 ? ` — yet ${parts.join('; ')}` : '';
}

export function settleSummary(s: SessionSummary): SettledSummary {
  const failing = s.checks?.failing ?? [];
  const failedWrites = s.failedWrites ?? [];
  const doneTodos = s.doneTodos ?? [];
  const contradicted = new Set<string>();
  const open: string[] = s.openTodos.map((t) => `[ ] ${t}`);

  // What a kind's failures contradict is said once, on its latest; a later pass of another check of the
  // kind is said beside each (it may or may not settle it: the next session knows to run it again).
  const told = new Set<CheckKind>();
  for (const c of [...failing].reverse()) {
    const claims = checkClaims(s.decisions, c);
    const rule = TODO_CHECK[c.kind];
    const todos = rule ? doneTodos.filter(rule) : [];
    for (const d of claims) contradicted.add(d);
    const later = c.laterPass ? `; a later \`${c.laterPass}\` passed` : '';
    open.push(`\`${c.command}\` failed on its last run${later}${told.has(c.kind) ? '' : yet(claims, todos.slice(0, 1))}`);
    told.add(c.kind);
  }
  for (const w of failedWrites) {
    const claims = fileClaims(s.decisions, w);
    const todos = doneTodos.filter((t) => namesFile(t, w.path));
    for (const d of claims) contradicted.add(d);
    // Written before and failing since: the file exists, only its last change is missing.
    const what = s.written?.includes(w.path) ? `\`${w.path}\`: its last change was not made` : `\`${w.path}\` not written`;
    open.push(`${what} (${w.why})${yet(claims, todos.slice(0, 1))}`);
  }
  // Edits no build, test or run followed: nothing the next session can know checked them.
  const unchecked = (s.unchecked ?? []).filter((f) => s.filesEdited.includes(f) && !failedWrites.some((w) => w.path === f));
  if (unchecked.length > 0)
    open.push(`No build, test or run followed the edits of ${unchecked.slice(0, 6).join(', ')}${unchecked.length > 6 ? ' …' : ''}`);
  // Drafts of older versions kept failing commands as text; the check state says it better when present.
  open.push(...(s.checks ? s.unresolved.filter((u) => !LEGACY_FAILING.test(u)) : s.unresolved));
  for (const p of s.recalledOpen ?? []) open.push(`Pending when the conversation was compacted: ${p}`);

  const recalled = s.requests.length === 0 ? (s.recalledRequests ?? []).map((r) => `(from a compaction summary) ${r}`) : [];
  const awaiting = (s.carry?.awaiting ?? []).flatMap((a) => (a.path && a.call.file?.access === 'edit' ? [a.path] : []));
  const filesEdited = [...new Set([...s.filesEdited, ...awaiting])];
  return {
    requests: s.requests.length > 0 ? s.requests : recalled,
    decisions: s.decisions.filter((d) => !contradicted.has(d)),
    open,
    filesEdited,
    filesRead: s.filesRead.filter((f) => !filesEdited.includes(f)),
  };
}

/**
 * Whether a command row's failures were settled by a later run that covered it: no run of its check is
 * failing now (a later failing run of the same check, spelled otherwise, replaced it in the failing list)
 * and one passed.
 */
export function settledFailure(s: SessionSummary, command: string): boolean {
  if (s.checks === undefined) return false;
  const family = commandFamily(command);
  if (s.checks.failing.some((c) => c.command === command || c.family === family)) return false;
  return s.checks.passed.some((p) => p.family === family);
}
