// Texts from a transcript are filtered whole before anything cuts them, and a
// <private> span stays private across the messages (and the reads) it spans.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { filterHead } from '../../src/core/security/secret-filter.ts';
import { createSummaryBuilder } from '../../src/core/session/session-summary.ts';
import { renderSummaryMarkdown } from '../../src/core/session/session-summary-render.ts';
import { mergeSummaries } from '../../src/core/session/summary-merge.ts';
import { emptySummary } from '../../src/core/session/summary-model.ts';
import { readTranscript } from '../../src/store/session/transcript-reader.ts';

// Split so that no committed line holds a whole provider token.
const GOOGLE_KEY = ['AIza', 'SyFAKE0example0000FAKEfake0000EXAMP'].join('');
const PEM = [
  '-----BEGIN RSA PRIVATE KEY-----',
  ...Array.from({ length: 30 }, (_, i) => `MIIEFAKE${String(i).padStart(2, '0')}${'QmFzZTY0Ym9keQ'.repeat(4)}`),
  '-----END RSA PRIVATE KEY-----',
].join('\n');

/** No run of 12 or more characters of `secret` in `text`. */
function leaks(text: string, secret: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 12 <= secret.length; i++) if (text.includes(secret.slice(i, i + 12))) out.push(secret.slice(i, i + 12));
  return out;
}

let n = 0;
const user = (content: string, extra: object = {}) =>
  JSON.stringify({
    type: 'user',
    uuid: `u${++n}`,
    sessionId: 's',
    timestamp: '2026-11-23T10:00:00Z',
    message: { role: 'user', content },
    ...extra,
  });
const bash = (command: string) =>
  JSON.stringify({
    type: 'assistant',
    uuid: `a${++n}`,
    sessionId: 's',
    message: { id: `m${n}`, role: 'assistant', content: [{ type: 'tool_use', id: `t${n}`, name: 'Bash', input: { command } }] },
  });

function summaryOf(lines: string[]): string {
  const b = createSummaryBuilder();
  for (const l of lines) b.addLine(l);
  return renderSummaryMarkdown(b.finish(), { title: 't' }) + JSON.stringify(b.finish());
}

test('a key that crosses the request length is redacted whole, not cut and kept in part', () => {
  for (let pad = 150; pad < 210; pad += 3) {
    const out = summaryOf([user(`${'Please deploy the service now. '.repeat(10).slice(0, pad)} with key ${GOOGLE_KEY} today`)]);
    assert.deepEqual(leaks(out, GOOGLE_KEY), [], `pad ${pad}`);
  }
});

test('a private key in a long command loses its body too, wherever the command is cut', () => {
  for (const pad of [100, 1500, 1990, 2500]) {
    const out = summaryOf([user('Install the key'), bash(`${'echo x; '.repeat(pad / 8)}cat > id.pem <<'EOF'\n${PEM}\nEOF`)]);
    for (const line of PEM.split('\n').slice(1, -1)) assert.deepEqual(leaks(out, line), [], `pad ${pad}`);
  }
});

test('filterHead cuts where the original text is cut and never keeps half a secret', () => {
  const text = `${'a '.repeat(95)}token ${GOOGLE_KEY} and more text after it`;
  for (let keep = 180; keep < 250; keep++) {
    const out = filterHead(text, keep);
    assert.deepEqual(leaks(out, GOOGLE_KEY), [], `keep ${keep}`);
    assert.ok(out.length <= keep + '[REDACTED:google-api-key]'.length, `keep ${keep}`);
  }
});

test('a <private> span opened in one message hides the next messages until it closes', () => {
  const out = summaryOf([
    user('Set up billing. <private>the card number is'),
    user('4111 1111 1111 1111 and the CVV SECRETCVV'),
    bash('echo SECRETCMD'),
    user('that is all</private> Now add the invoice page'),
  ]);
  for (const hidden of ['4111', 'SECRETCVV', 'SECRETCMD', 'that is all']) assert.ok(!out.includes(hidden), hidden);
  assert.match(out, /Set up billing/);
  assert.match(out, /Now add the invoice page/);
});

test('a <private> inside a file a tool writes does not hide the rest of the session', () => {
  const write = JSON.stringify({
    type: 'assistant',
    uuid: 'w1',
    message: {
      id: 'mw',
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'tw', name: 'Write', input: { file_path: '/p/plan.md', content: 'intro <private> never closed' } }],
    },
  });
  const out = summaryOf([user('Write the plan'), write, user('Then ship the release notes')]);
  assert.match(out, /ship the release notes/);
});

test('a span left open at the end of one read stays open in the next read of the transcript', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'guard-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 't.jsonl');
  const first = `${user('Rotate the keys <private>the old one is')}\n`;
  writeFileSync(file, first);
  const a = await readTranscript(file);
  assert.deepEqual(a.summary.privateDepth, { main: 1, side: 0 });
  writeFileSync(file, `${first}${user('OLDKEYVALUE42 gone</private> and update the docs')}\n`);
  const b = await readTranscript(file, { fromOffset: a.endOffset, privateDepth: a.summary.privateDepth });
  const merged = mergeSummaries(mergeSummaries(emptySummary(), a.summary), b.summary);
  const text = JSON.stringify(merged);
  assert.ok(!text.includes('OLDKEYVALUE42'));
  assert.match(text, /update the docs/);
  assert.equal(merged.privateDepth, undefined, 'closed again');
});
