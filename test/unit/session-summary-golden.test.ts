// Golden summaries of real transcripts. The transcripts are read from
// ../shared/realdata (never copied here); the *.expected.md files hold only
// our own rendered output. Regenerate with UPDATE=1 and review the diff.

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { renderSummaryLine, renderSummaryMarkdown, summaryTopics } from '../../src/core/session/session-summary-render.ts';
import type { SessionSummary } from '../../src/core/session/summary-model.ts';
import { readTranscript } from '../../src/store/session/transcript-reader.ts';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const realdata = join(repoRoot, '../shared/realdata/transcripts');
const goldenDir = join(repoRoot, 'test/fixtures/transcripts/golden');

const GOLDEN: Array<[name: string, file: string]> = [
  ['coverage-test-fix', 'DRMacIver__claude-reliability__snapshot-tests__tests__coverage-test-fix__transcript.jsonl'],
  ['python-to-rust-port', 'DRMacIver__claude-reliability__snapshot-tests__tests__python-to-rust-port__transcript.jsonl'],
  [
    'orchestrator-inline-subagents',
    'd-kimuson__claude-code-viewer__mock-global-claude-dir__projects__sample-project__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl',
  ],
  ['plan-mode-compacted', 'marot__spotter__test__fixtures__transcripts__8463c716-a2ea-4c14-9efa-87158ebd9f20.jsonl'],
  ['otel-epic-compacted', 'marot__spotter__test__fixtures__transcripts__ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl'],
  ['ask-user-plan', 'marot__spotter__test__fixtures__transcripts__subagent.jsonl'],
  ['subagent-file', 'marot__spotter__test__fixtures__transcripts__4d5611e5-241a-462a-8d15-5122611a9569__subagents__agent-a2898e3.jsonl'],
];

function hhmm(ts: string | null): string {
  return ts ? ts.slice(0, 16).replace('T', ' ') : '?';
}

function render(s: SessionSummary): string {
  const title = `Last session — ${hhmm(s.firstTs)} → ${hhmm(s.lastTs)} (session ${(s.sessionId ?? '?').slice(0, 8)}…, branch ${s.branch ?? '?'})`;
  const meta = `${s.lines} lines, ${s.skippedLines} unreadable`;
  return (
    renderSummaryMarkdown(s, { title, meta }) +
    `\n<!-- digest: ${renderSummaryLine(s)} -->\n<!-- topics: ${summaryTopics(s).join(', ')} -->\n`
  );
}

for (const [name, file] of GOLDEN) {
  test(`golden summary: ${name}`, async (t) => {
    const path = join(realdata, file);
    if (!existsSync(path)) {
      t.skip('realdata not present');
      return;
    }
    const { summary } = await readTranscript(path);
    const actual = render(summary);
    const goldenPath = join(goldenDir, `${name}.expected.md`);
    if (process.env.UPDATE === '1' || !existsSync(goldenPath)) {
      mkdirSync(goldenDir, { recursive: true });
      writeFileSync(goldenPath, actual);
      if (process.env.UPDATE !== '1') assert.fail(`wrote missing golden ${goldenPath}; review it and re-run`);
      return;
    }
    assert.equal(actual, readFileSync(goldenPath, 'utf8'));
  });
}
