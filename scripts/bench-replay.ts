// The replay benchmark (issue 17): `npm run bench:replay [dir …] [--json]`
// replays every history folder given (default ../shared/realdata/histories)
// through the built hooks, session by session (test/helpers/history-replay.ts),
// and reports what capture wrote and what injection gave: entries captured per
// working session by kind, their precision against
// test/fixtures/capture-labels/<history>.json, need coverage, injection use and
// tokens injected. On the default folder it also puts the section in
// BENCHMARKS.md in place of the previous one; `--json` prints the numbers
// instead, `--verbose` adds each session's needs (covered or not) to the output.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_HISTORIES, historyFolders, replayHistory } from '../test/helpers/history-replay.ts';
import { NEED_KINDS, type Share, share } from '../test/helpers/replay-metrics.ts';
import { CAPTURE_KINDS, type HistoryReport, historyReport, loadLabels, pooledReport, TARGETS } from '../test/helpers/replay-report.ts';
import { DIST, REPO } from '../test/helpers/run-bundle.ts';
import { writeBenchSection } from './bench-section.ts';

const START = '<!-- replay-benchmark:start -->';
const END = '<!-- replay-benchmark:end -->';

const pct = (s: Share): string => {
  const v = share(s);
  return v === null ? '–' : `${Math.round(v * 100)}% (${s.hit}/${s.of})`;
};
const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const max = (xs: readonly number[]) => (xs.length ? Math.max(...xs) : 0);
const oneLine = (s: string, n = 160) => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
};
const cell = (s: string) => s.replace(/\|/g, '\\|');
const short = (name: string) => name.split('__')[0] ?? name;

function captureRow(r: HistoryReport): string {
  const kinds = CAPTURE_KINDS.map((k) => r.byKind[k] ?? 0).join(' / ');
  const other = Object.entries(r.byKind)
    .filter(([k]) => !(CAPTURE_KINDS as readonly string[]).includes(k))
    .map(([k, n]) => ` + ${n} ${k}`)
    .join('');
  const per = r.perWorking === null ? '–' : r.perWorking.toFixed(2);
  const precision = r.labelled ? pct(r.precision) : 'no labels';
  const found = r.labelled ? `${r.found.hit} of ${r.found.of}` : '–';
  const leaks = r.judged.filter((j) => j.secret || j.private).length;
  return `| ${short(r.name)} | ${r.sessions} (${r.working}) | ${r.prompts} | ${r.captured} | ${per} | ${kinds}${other} | ${precision} | ${found} | ${leaks} |`;
}

function injectionRow(r: HistoryReport): string {
  const k = r.coverage.byKind;
  const t = r.tokens;
  return `| ${short(r.name)} | ${pct(r.coverage.all)} | ${NEED_KINDS.map((n) => pct(k[n].covered)).join(' | ')} | ${pct(r.coverage.ceiling)} | ${pct(r.lessonsUsed)} | ${pct(r.filesUsed)} | ${pct(r.handOffUsed)} | ${Math.round(mean(t.perSession))} | ${Math.round(mean(t.start))} / ${max(t.start)} | ${t.prompts.length} × ${Math.round(mean(t.prompts))} / ${max(t.prompts)} | ${t.failures.length} × ${Math.round(mean(t.failures))} / ${max(t.failures)} |`;
}

/** The markdown section for these reports (the last one pooled when there are several). */
export function renderReplay(reports: HistoryReport[], folders: string, seconds: number): string[] {
  const out: string[] = [START, '## Replay: capture and injection on real project histories\n'];
  if (reports.length === 0) {
    out.push(`Not run: no history folder under \`${folders}\`.`, END);
    return out;
  }
  const pooled = reports.length > 1 ? pooledReport(reports) : reports[0]!;
  const all = reports.length > 1 ? [...reports, pooled] : reports;
  out.push(
    `\`npm run bench:replay\` (scripts/bench-replay.ts, test/helpers/history-replay.ts) replays each project history in \`${folders}\` session by session in time order, through the built hooks run as processes (\`node dist/<hook>.cjs\` from a copy of dist/ taken at the start, JSON on stdin) in a temporary project with a temporary HOME, the transcript a growing copy of the recorded one: SessionStart; for each human prompt, Stop for the turn before it and UserPromptSubmit with the transcript so far; PostToolUseFailure after each shell command of the main conversation that failed; PreCompact and SessionStart (compact) where the transcript was compacted; Stop and SessionEnd at the end; background workers waited for between sessions. A resumed session starts with its copied past in the transcript (source resume). Subagent transcripts are not replayed. ${reports.length} histories, ${pooled.sessions} sessions, ${pooled.prompts} prompts, ${pooled.hooks} hook runs in ${seconds.toFixed(0)} s; ${pooled.badHooks.length} did not exit 0 with one JSON object on stdout.\n`,
  );
  out.push('### Capture\n');
  out.push(
    `| history | sessions (working) | prompts | entries captured | per working session | ${CAPTURE_KINDS.join(' / ')} | precision on labels | labelled lessons found | with a secret or private text |\n|---|---|---|---|---|---|---|---|---|`,
  );
  for (const r of all) out.push(captureRow(r));
  out.push(
    `\nPrecision: captured entries that match a lesson of the history's labels (test/fixtures/capture-labels/<history>.json) ÷ all captured entries (those matching a statement that must not be captured, and those matching nothing, count against); the labels judge an entry by its title, learning, evidence, symptom and solution. Labelled lessons found: how many of the lessons a careful colleague would have written down some captured entry matched. Targets: at least ${TARGETS.capturedPerWorking} per working session in every history, precision at least ${TARGETS.precision}, no secret and no \`<private>\` text.\n`,
  );
  out.push('### Injection\n');
  out.push(
    '| history | need coverage | files | commands | errors | ceiling (previous session) | lessons and recall used | files a prompt named used | hand-off items used | tokens / session | SessionStart mean / max | prompt recall n × mean / max | recall at a failure n × mean / max |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const r of all) out.push(injectionRow(r));
  const k = pooled.coverage.byKind;
  out.push(
    `\nNeed coverage: of the files a session read or edited, the commands it ran (by family, \`normalizeCommand\` + \`commandFamily\`; commands that only look or move files, like \`ls\`, \`git status\`, \`mv\` or \`rm\`, left out) and the errors it hit (\`errorSignature\` key of a failed tool result) that an earlier session of the same history had also used or hit, the share that appeared in text the hooks injected into that session before its first use. Ceiling: the share the previous working session had used, what a perfect hand-off of that session alone would name (files ${pct(k.file.ceiling)}, commands ${pct(k.command.ceiling)}, errors ${pct(k.error.ceiling)}). Lessons and recall used: of the role-memory entries injected (digest, prompt recall and recall at a failure, by usage.jsonl), the share whose files, commands or errors the session then used, or whose id or title it named; files a prompt named used: of the files prompt recall named by their paths (a file earlier sessions worked on whose name the prompt holds), the share the session then read or edited; hand-off items used: the same for the files and commands the hand-off named. Tokens are characters ÷ 4. Targets: coverage at least ${TARGETS.coverage} pooled, commands at least ${TARGETS.commandCoverage}, errors at least ${TARGETS.errorCoverage}; at least ${Math.round(TARGETS.injectedUse * 100)}% of injected lessons and recall items used; SessionStart within ${TARGETS.digestTokens} tokens, prompt recall within ${TARGETS.recallTokens}.\n`,
  );
  const entries = pooled.judged;
  out.push(`### Captured entries (${entries.length})\n`);
  if (entries.length === 0) out.push('None.');
  for (const j of entries) {
    const v =
      j.verdict === null
        ? 'no labels'
        : j.verdict.verdict === 'expected'
          ? `expected: ${j.verdict.lesson}`
          : j.verdict.verdict === 'must-not'
            ? `MUST NOT: ${j.verdict.reason}`
            : 'UNMATCHED';
    const flags = `${j.secret ? ' SECRET' : ''}${j.private ? ' PRIVATE' : ''}`;
    out.push(
      `- ${short(reports.find((r) => r.judged.includes(j))?.name ?? '')} ${j.entry.session.slice(0, 8)} ${j.entry.kind} — **${cell(v)}**${flags}: ${cell(oneLine(j.entry.lesson, 200))}`,
    );
  }
  if (pooled.badHooks.length) {
    out.push('\n### Hooks that broke protocol\n');
    for (const h of pooled.badHooks.slice(0, 20))
      out.push(
        `- ${h.hook} (${h.session.slice(0, 8)}): exit ${h.code}, stdout ${JSON.stringify(h.stdout.slice(0, 200))}, stderr ${JSON.stringify(h.stderr.slice(0, 200))}`,
      );
  }
  out.push(END);
  return out;
}

/** `--verbose`: each session, what it needed again and whether it had been told (printed, never written to BENCHMARKS.md). */
export function renderSessions(reports: HistoryReport[]): string[] {
  const out: string[] = ['', '### Sessions', ''];
  for (const r of reports) {
    out.push(`#### ${r.name}`, '');
    for (const s of r.perSession) {
      const needs = r.need.filter((n) => n.session === s.id).map((n) => `${n.covered ? '✓' : '✗'} ${n.kind} \`${n.key}\``);
      const what = `${s.worked ? 'worked' : 'no work'}${s.resumed ? ', resumed' : ''}, ${s.prompts} prompts, ${s.injections} injections (${s.tokens} tokens)`;
      out.push(`- ${s.id.slice(0, 8)} ${s.start.slice(0, 16)} ${what}${needs.length ? `; needed again: ${needs.join(', ')}` : ''}`);
    }
    out.push('');
  }
  return out;
}

/** The numbers alone, for `--json`: no entry text beyond what the report needs. */
function jsonReport(reports: HistoryReport[]): unknown {
  const strip = (r: HistoryReport) => ({
    ...r,
    badHooks: r.badHooks.map((h) => ({
      hook: h.hook,
      session: h.session,
      code: h.code,
      stdout: h.stdout.slice(0, 500),
      stderr: h.stderr.slice(0, 500),
    })),
  });
  return { histories: reports.map(strip), pooled: strip(pooledReport(reports)), targets: TARGETS };
}

async function main(argv: string[]): Promise<void> {
  const json = argv.includes('--json');
  const verbose = argv.includes('--verbose');
  const dirs = argv.filter((a) => !a.startsWith('--'));
  const roots = dirs.length ? dirs.map((d) => resolve(d)) : [DEFAULT_HISTORIES];
  if (!existsSync(resolve(DIST, 'session-start.cjs'))) throw new Error('dist/ has no hooks: run npm run build first');
  const folders = roots.flatMap(historyFolders);
  const t0 = Date.now();
  const reports: HistoryReport[] = [];
  for (const dir of folders) {
    const result = await replayHistory(dir, {
      onSession: (h, s) =>
        process.stderr.write(
          `${short(h)} ${s.id.slice(0, 8)}: ${s.prompts} prompts, ${s.captured.length} captured, ${s.trace.injections.length} injections\n`,
        ),
    });
    reports.push(historyReport(result, loadLabels(result.history.name)));
  }
  const seconds = (Date.now() - t0) / 1000;
  if (json) {
    console.log(JSON.stringify(jsonReport(reports), null, 2));
    return;
  }
  const shown = dirs.length ? roots.join(', ') : '../shared/realdata/histories';
  const lines = renderReplay(reports, shown, seconds);
  console.log(lines.join('\n'));
  if (verbose) console.log(renderSessions(reports).join('\n'));
  // Only the default histories are the benchmark: another folder's numbers are printed, not written down.
  if (dirs.length === 0 && reports.length > 0) {
    const file = resolve(REPO, 'BENCHMARKS.md');
    const section = lines.join('\n');
    writeBenchSection(file, START, END, section);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main(process.argv.slice(2));
