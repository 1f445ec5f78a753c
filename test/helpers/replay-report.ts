// What `npm run bench:replay` reports for one replayed history, and pooled over
// several: entries captured per working session by kind, their precision
// against the history's labels, need coverage, injection use, tokens injected,
// and whether every hook answered in protocol. The integration test asserts on
// the same values.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hasSecret } from '../../src/core/security/secret-filter.ts';
import type { CapturedEntry, HistoryResult, HookRun } from './history-replay.ts';
import {
  type CaptureLabels,
  type CoverageSummary,
  capturePrecision,
  coverageSummary,
  judgeEntry,
  lessonsFound,
  type NeedItem,
  needItems,
  type Share,
  type UseItem,
  useItems,
  useSummary,
  type Verdict,
} from './replay-metrics.ts';
import { REPO } from './run-bundle.ts';

export const LABELS_DIR = join(REPO, 'test', 'fixtures', 'capture-labels');
export const CAPTURE_KINDS = ['commands', 'fix', 'correction', 'obstacle'] as const;

/** The labels written for a history folder, or null when it has none. */
export function loadLabels(history: string): CaptureLabels | null {
  const file = join(LABELS_DIR, `${history}.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as CaptureLabels) : null;
}

export interface JudgedEntry {
  entry: CapturedEntry;
  verdict: Verdict | null;
  secret: boolean;
  private: boolean;
}

export interface HistoryReport {
  name: string;
  sessions: number;
  working: number;
  resumed: number;
  prompts: number;
  compactions: number;
  skipped: HistoryResult['history']['skipped'];
  hooks: number;
  /** Hook runs that did not exit 0 with one JSON object on stdout. */
  badHooks: HookRun[];
  captured: number;
  byKind: Record<string, number>;
  /** Captured entries per working session. */
  perWorking: number | null;
  labelled: boolean;
  precision: Share;
  /** Labelled lessons some captured entry matched, of all labelled lessons. */
  found: Share;
  judged: JudgedEntry[];
  need: NeedItem[];
  coverage: CoverageSummary;
  use: UseItem[];
  lessonsUsed: Share;
  handOffUsed: Share;
  /** Files a prompt named by their paths that the session then used. */
  filesUsed: Share;
  /** Each session in the order replayed: what it was, and the tokens injected into it. */
  perSession: Array<{
    history: string;
    id: string;
    start: string;
    worked: boolean;
    resumed: boolean;
    prompts: number;
    tokens: number;
    injections: number;
  }>;
  /** Tokens injected: per session in all, SessionStart texts, prompt recall texts (only those that gave anything). */
  tokens: { perSession: number[]; start: number[]; prompts: number[]; failures: number[] };
  ms: number;
}

const ratio = (a: number, b: number): number | null => (b === 0 ? null : a / b);

export function historyReport(r: HistoryResult, labels: CaptureLabels | null): HistoryReport {
  const traces = r.sessions.map((s) => s.trace);
  const need = needItems(traces);
  const use = useItems(traces);
  const uses = useSummary(use);
  const working = traces.filter((t) => t.worked).length;
  const byKind: Record<string, number> = Object.fromEntries(CAPTURE_KINDS.map((k) => [k, 0]));
  for (const c of r.captured) byKind[c.kind] = (byKind[c.kind] ?? 0) + 1;
  const privateTexts = r.privateTexts.filter((t) => t.length >= 8);
  const judged = r.captured.map((entry) => ({
    entry,
    verdict: labels ? judgeEntry(entry.lesson, labels) : null,
    secret: hasSecret(entry.text),
    private: privateTexts.some((t) => entry.text.includes(t)),
  }));
  return {
    name: r.history.name,
    sessions: r.sessions.length,
    working,
    resumed: r.sessions.filter((s) => s.resumed).length,
    prompts: r.sessions.reduce((n, s) => n + s.prompts, 0),
    compactions: r.sessions.reduce((n, s) => n + s.compactions, 0),
    skipped: r.history.skipped,
    hooks: r.hooks.length,
    badHooks: r.hooks.filter((h) => !h.protocolOk),
    captured: r.captured.length,
    byKind,
    perWorking: ratio(r.captured.length, working),
    labelled: labels !== null,
    precision: capturePrecision(judged.flatMap((j) => (j.verdict ? [j.verdict] : []))),
    found: { hit: lessonsFound(judged.flatMap((j) => (j.verdict ? [j.verdict] : []))).length, of: labels?.expected.length ?? 0 },
    judged,
    need,
    coverage: coverageSummary(need),
    use,
    lessonsUsed: uses.lessons,
    handOffUsed: uses.handOff,
    filesUsed: uses.files,
    perSession: r.sessions.map((s) => ({
      history: r.history.name,
      id: s.id,
      start: s.start,
      worked: s.trace.worked,
      resumed: s.resumed,
      prompts: s.prompts,
      tokens: [...s.tokens.start, ...s.tokens.prompts, ...s.tokens.failures].reduce((a, b) => a + b, 0),
      injections: s.trace.injections.length,
    })),
    tokens: {
      perSession: r.sessions.map((s) => [...s.tokens.start, ...s.tokens.prompts, ...s.tokens.failures].reduce((a, b) => a + b, 0)),
      start: r.sessions.flatMap((s) => s.tokens.start),
      prompts: r.sessions.flatMap((s) => s.tokens.prompts),
      failures: r.sessions.flatMap((s) => s.tokens.failures),
    },
    ms: r.ms,
  };
}

/** The histories' reports as one (sessions, items and entries pooled; each history's own sessions compared only among themselves). */
export function pooledReport(reports: readonly HistoryReport[]): HistoryReport {
  const need = reports.flatMap((r) => r.need);
  const use = reports.flatMap((r) => r.use);
  const uses = useSummary(use);
  const judged = reports.flatMap((r) => r.judged);
  const labelledJudged = judged.filter((j) => j.verdict !== null);
  const byKind: Record<string, number> = {};
  for (const r of reports) for (const [k, n] of Object.entries(r.byKind)) byKind[k] = (byKind[k] ?? 0) + n;
  const sum = (f: (r: HistoryReport) => number) => reports.reduce((n, r) => n + f(r), 0);
  const working = sum((r) => r.working);
  const captured = sum((r) => r.captured);
  return {
    name: 'pooled',
    sessions: sum((r) => r.sessions),
    working,
    resumed: sum((r) => r.resumed),
    prompts: sum((r) => r.prompts),
    compactions: sum((r) => r.compactions),
    skipped: reports.flatMap((r) => r.skipped),
    hooks: sum((r) => r.hooks),
    badHooks: reports.flatMap((r) => r.badHooks),
    captured,
    byKind,
    perWorking: ratio(captured, working),
    labelled: reports.some((r) => r.labelled),
    precision: capturePrecision(labelledJudged.map((j) => j.verdict!)),
    found: { hit: sum((r) => r.found.hit), of: sum((r) => r.found.of) },
    judged,
    need,
    coverage: coverageSummary(need),
    use,
    lessonsUsed: uses.lessons,
    handOffUsed: uses.handOff,
    filesUsed: uses.files,
    perSession: reports.flatMap((r) => r.perSession),
    tokens: {
      perSession: reports.flatMap((r) => r.tokens.perSession),
      start: reports.flatMap((r) => r.tokens.start),
      prompts: reports.flatMap((r) => r.tokens.prompts),
      failures: reports.flatMap((r) => r.tokens.failures),
    },
    ms: sum((r) => r.ms),
  };
}

/** The targets (issue 17, Must show), as the benchmark and the integration test check them. */
export const TARGETS = {
  capturedPerWorking: 0.5,
  precision: 0.8,
  coverage: 0.5,
  commandCoverage: 0.5,
  errorCoverage: 0.3,
  injectedUse: 0.4,
  digestTokens: 1500,
  recallTokens: 300,
} as const;
