// Grades the hand-offs the hooks write for real transcripts against the
// hand-written expectations in test/fixtures/handoff-expectations/.
//
//   npm run grade                       (the folder ../shared/realdata/transcripts beside the repository,
//                                        and test/fixtures/handoff-transcripts: sessions made with the real CLI)
//   npm run grade -- <folder> [--parts N] [--verbose]
//
// Prints a table per transcript (checks passed, score of 5, the checks passed
// when the transcript is read in N parts as successive Stop hooks read it, and
// whether those parts gave the same Open and Files sections) and the mean
// score; --verbose adds each failed check and the hand-off itself. Exits 1
// when a transcript misses a check.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULT_TRANSCRIPTS, FIXTURE_TRANSCRIPTS, gradeFolder, renderTable } from './handoff-grading.ts';

const args = process.argv.slice(2);
const partsAt = args.indexOf('--parts');
const parts = partsAt >= 0 ? Number(args[partsAt + 1]) : 4;
const verbose = args.includes('--verbose');
const given = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--parts');
const folder = resolve(given ?? DEFAULT_TRANSCRIPTS);

if (!existsSync(folder)) {
  process.stderr.write(`no transcripts at ${folder}: pass the folder as the first argument\n`);
  process.exit(1);
}
const result = await gradeFolder(folder, { parts });
if (given === undefined) {
  // The sessions made with the real CLI are graded with the real transcripts.
  const made = await gradeFolder(FIXTURE_TRANSCRIPTS, { parts });
  result.rows.push(...made.rows);
  result.missing.push(...made.missing);
  result.mean = Math.round((result.rows.reduce((sum, r) => sum + r.score, 0) / result.rows.length) * 100) / 100;
}
if (verbose) {
  for (const r of result.rows) {
    process.stdout.write(`\n=== ${r.transcript} (${r.passed}/${r.total})\n`);
    for (const c of r.checks.filter((x) => !x.ok)) process.stdout.write(`  FAILED ${c.check}\n`);
    process.stdout.write(`${r.handoff}\n`);
  }
}
process.stdout.write(`${renderTable(result, parts)}\n`);
if (result.missing.length) process.stdout.write(`\nNo expectation file for: ${result.missing.join(', ')}\n`);
process.exit(result.rows.every((r) => r.passed === r.total) && result.missing.length === 0 ? 0 : 1);
