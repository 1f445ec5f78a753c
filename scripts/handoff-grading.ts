// Grades the session hand-off (EPHEMERAL.md) that the hooks write for real
// transcripts against hand-written expectations: what was asked, what was
// done, what is still open, which files changed, and statements that must not
// appear. Used by `npm run grade` (scripts/grade-handoffs.ts) and by a unit
// test; the transcripts are read where they lie, never copied.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderEphemeral } from '../src/core/session/session-records.ts';
import { foldTranscript } from '../src/store/session/session-lifecycle.ts';

export const REPO = fileURLToPath(new URL('..', import.meta.url));
export const DEFAULT_TRANSCRIPTS = join(REPO, '../shared/realdata/transcripts');
export const EXPECTATIONS = join(REPO, 'test/fixtures/handoff-expectations');
/** Sessions made with the real CLI (subagent transcripts in their `<session>/subagents/` folders). */
export const FIXTURE_TRANSCRIPTS = join(REPO, 'test/fixtures/handoff-transcripts');

/** One phrase, or alternatives of which one must appear (case-insensitive). */
type Phrase = string | string[];
type Section = 'Asked' | 'Done and decided' | 'Files' | 'Commands' | 'Open' | 'all';

export interface HandoffExpectation {
  /** What the session was, in our own words (for the reader of the fixture). */
  about: string;
  asked: Phrase[];
  done: Phrase[];
  open: Phrase[];
  /** True when nothing is left open at the end: the Open section must be absent. */
  openEmpty?: boolean;
  /** Project-relative paths that must be listed as edited, read or deleted. */
  edited?: string[];
  read?: string[];
  deleted?: string[];
  /** Paths that must not be listed as edited (a refused write, a file created and removed again). */
  notEdited?: string[];
  /** Statements that must not appear, anywhere or in one section. */
  mustNot?: Array<{ text: string; in?: Section }>;
}

export interface CheckResult {
  check: string;
  ok: boolean;
}

export interface GradeRow {
  transcript: string;
  checks: CheckResult[];
  passed: number;
  total: number;
  /** 0–5: the share of checks passed. */
  score: number;
  /** Checks passed when the transcript is read in parts, as successive Stop hooks read it. */
  passedInParts: number;
  /** Whether the parts gave the same Open and Files sections (what the final state decides). */
  sameFinalState: boolean;
  handoff: string;
}

/** The hand-off the hooks would write: the transcript read in `parts` successive reads, each folded into the draft. */
export async function handoffFor(path: string, parts = 1): Promise<string> {
  const size = statSync(path).size;
  const maxBytes = parts > 1 ? Math.ceil(size / parts) : undefined;
  let offset = 0;
  let draft = null;
  // Subagent transcripts beside it (Claude Code 2.1's layout) are read as the hooks read them.
  let subagents: Record<string, number> = {};
  for (;;) {
    const step = await foldTranscript(path, draft, { fromOffset: offset, maxBytes, subagents });
    draft = step.draft;
    subagents = step.subagents ?? subagents;
    if (step.endOffset <= offset || step.endOffset >= size) break;
    offset = step.endOffset;
  }
  return draft ? renderEphemeral(draft) : '';
}

/** `## Title` sections of a rendered hand-off, by title; the whole text under 'all'. */
export function sections(handoff: string): Record<string, string> {
  const out: Record<string, string> = { all: handoff };
  let current = '';
  for (const line of handoff.split('\n')) {
    const h = /^## (.+)$/.exec(line);
    if (h) {
      current = h[1]!.trim();
      out[current] = '';
    } else if (current) {
      out[current] += `${line}\n`;
    }
  }
  for (const k of Object.keys(out)) if (k !== 'all') out[k] = out[k]!.replace(/\n+$/, '\n');
  return out;
}

/** Paths of one kind in the Files section (`- edited: a, b`). */
export function listedFiles(handoff: string, kind: 'edited' | 'read' | 'deleted'): string[] {
  const files = sections(handoff).Files ?? '';
  const line = files.split('\n').find((l) => l.startsWith(`- ${kind}: `)) ?? '';
  // Several kinds may share one line, separated by " · ".
  const own = line.slice(`- ${kind}: `.length).split(' · ')[0] ?? '';
  return own ? own.split(', ').map((p) => p.trim()) : [];
}

const alternatives = (p: Phrase): string[] => (Array.isArray(p) ? p : [p]);
const has = (text: string, p: Phrase): boolean => alternatives(p).some((a) => text.toLowerCase().includes(a.toLowerCase()));
const label = (p: Phrase): string => alternatives(p).join(' | ');

export function grade(handoff: string, e: HandoffExpectation): CheckResult[] {
  const s = sections(handoff);
  const out: CheckResult[] = [];
  const inSection = (name: string, phrases: Phrase[]) => {
    for (const p of phrases) out.push({ check: `${name} mentions ${label(p)}`, ok: has(s[name] ?? '', p) });
  };
  inSection('Asked', e.asked);
  inSection('Done and decided', e.done);
  inSection('Open', e.open);
  if (e.openEmpty) out.push({ check: 'nothing is left open', ok: s.Open === undefined });
  for (const kind of ['edited', 'read', 'deleted'] as const) {
    const listed = listedFiles(handoff, kind);
    for (const path of e[kind] ?? []) out.push({ check: `${kind}: ${path}`, ok: listed.includes(path) });
  }
  const edited = listedFiles(handoff, 'edited');
  for (const path of e.notEdited ?? []) out.push({ check: `not edited: ${path}`, ok: !edited.includes(path) });
  for (const m of e.mustNot ?? []) {
    const where = m.in ?? 'all';
    out.push({ check: `no "${m.text}" in ${where}`, ok: !has(s[where] ?? '', m.text) });
  }
  return out;
}

export function readExpectation(transcript: string, dir = EXPECTATIONS): HandoffExpectation | null {
  const file = join(dir, `${transcript}.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as HandoffExpectation) : null;
}

/** Grades every transcript of a folder that has an expectation file; transcripts without one are reported as missing. */
export async function gradeFolder(folder: string, opts: { parts?: number; expectations?: string } = {}) {
  const rows: GradeRow[] = [];
  const missing: string[] = [];
  for (const transcript of readdirSync(folder)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()) {
    const expectation = readExpectation(transcript, opts.expectations);
    if (!expectation) {
      missing.push(transcript);
      continue;
    }
    const path = join(folder, transcript);
    const handoff = await handoffFor(path);
    const inParts = await handoffFor(path, opts.parts ?? 4);
    const checks = grade(handoff, expectation);
    const passed = checks.filter((c) => c.ok).length;
    const passedInParts = grade(inParts, expectation).filter((c) => c.ok).length;
    const finalState = (h: string) => ['Open', 'Files'].map((k) => sections(h)[k] ?? '').join('\n');
    const score = checks.length ? Math.round((50 * passed) / checks.length) / 10 : 5;
    rows.push({
      transcript,
      checks,
      passed,
      total: checks.length,
      score,
      passedInParts,
      sameFinalState: finalState(inParts) === finalState(handoff),
      handoff,
    });
  }
  const mean = rows.length ? Math.round((rows.reduce((sum, r) => sum + r.score, 0) / rows.length) * 100) / 100 : 0;
  return { rows, missing, mean };
}

/** A markdown table of the rows and the mean, as BENCHMARKS.md shows it. */
export function renderTable(result: Awaited<ReturnType<typeof gradeFolder>>, parts = 4): string {
  const short = (name: string) => (name.length > 60 ? `${name.slice(0, 28)}…${name.slice(-28)}` : name);
  const lines = [
    `| transcript | checks passed | score (of 5) | checks passed, read in ${parts} parts | same Open and Files in parts |`,
    '|---|---|---|---|---|',
  ];
  for (const r of result.rows) {
    lines.push(
      `| ${short(r.transcript)} | ${r.passed}/${r.total} | ${r.score.toFixed(1)} | ${r.passedInParts}/${r.total} | ${r.sameFinalState ? 'yes' : 'no'} |`,
    );
  }
  const passing = result.rows.filter((r) => r.passed === r.total).length;
  lines.push('', `Mean score: ${result.mean.toFixed(2)} of 5; ${passing} of ${result.rows.length} transcripts pass every check.`);
  return lines.join('\n');
}
