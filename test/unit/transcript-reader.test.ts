import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { EchoesError } from '../../src/core/errors.ts';
import { settleSummary } from '../../src/core/session/summary-settle.ts';
import { readTranscript } from '../../src/store/session/transcript-reader.ts';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const realdata = join(repoRoot, '../shared/realdata/transcripts');
const fixture = join(repoRoot, 'test/fixtures/transcripts/every-kind.jsonl');

function tempDir(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'transcript-reader-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Byte offset of the start of the first line containing `needle`. */
function offsetOfLine(bytes: Buffer, needle: string): number {
  const at = bytes.indexOf(needle);
  assert.ok(at > 0, needle);
  return bytes.lastIndexOf(0x0a, at) + 1;
}

test('reading the whole fixture consumes every line and ends at the file size', async () => {
  const size = readFileSync(fixture).length;
  const r = await readTranscript(fixture);
  assert.equal(r.endOffset, size);
  assert.equal(r.lineCount, 58);
  assert.equal(r.summary.lines, 58);
  assert.equal(r.summary.requests.length, 3);
});

test('reading 0→N then N→end gives each part once', async () => {
  const bytes = readFileSync(fixture);
  const n = offsetOfLine(bytes, '/review');
  const first = await readTranscript(fixture, { maxBytes: n });
  assert.equal(first.endOffset, n);
  const second = await readTranscript(fixture, { fromOffset: first.endOffset });
  assert.equal(second.endOffset, bytes.length);
  assert.equal(first.lineCount + second.lineCount, 58);
  assert.deepEqual(first.summary.requests, ['Fix the payment retry backoff in src/payments.ts and keep the tests green']);
  assert.deepEqual(second.summary.requests, ['/review src/payments.ts', 'Now plan the metric work']);
  assert.ok(first.summary.filesEdited.includes('src/payments.ts'));
  assert.ok(!second.summary.filesEdited.includes('src/payments.ts'));
  assert.ok(second.summary.firstTs! >= first.summary.lastTs!);
});

test('a limit that falls inside a line leaves that line for the next read', async () => {
  const bytes = readFileSync(fixture);
  const n = offsetOfLine(bytes, '/review');
  const r = await readTranscript(fixture, { maxBytes: n + 10 });
  assert.equal(r.endOffset, n);
  assert.ok(!r.summary.requests.includes('/review src/payments.ts'));
});

test('a partial last line is not consumed until its newline arrives', async (t) => {
  const dir = tempDir(t);
  const path = join(dir, 's.jsonl');
  const done = `${JSON.stringify({ type: 'user', uuid: 'a', message: { role: 'user', content: 'first ask' } })}\n`;
  const partial = JSON.stringify({ type: 'user', uuid: 'b', message: { role: 'user', content: 'second ask' } });
  writeFileSync(path, done + partial.slice(0, 30));
  const one = await readTranscript(path);
  assert.equal(one.endOffset, Buffer.byteLength(done));
  assert.deepEqual(one.summary.requests, ['first ask']);
  assert.equal(one.summary.skippedLines, 0);
  appendFileSync(path, `${partial.slice(30)}\n`);
  const two = await readTranscript(path, { fromOffset: one.endOffset });
  assert.deepEqual(two.summary.requests, ['second ask']);
  assert.equal(two.endOffset, Buffer.byteLength(`${done + partial}\n`));
});

test('a whole JSON line that only lacks the final newline is consumed', async (t) => {
  const path = join(tempDir(t), 's.jsonl');
  const text = JSON.stringify({ type: 'user', uuid: 'a', message: { role: 'user', content: 'é ask' } });
  writeFileSync(path, text);
  const r = await readTranscript(path);
  assert.deepEqual(r.summary.requests, ['é ask']);
  assert.equal(r.endOffset, Buffer.byteLength(text));
});

test('offsets are bytes, not characters, across multi-byte text and CRLF endings', async (t) => {
  const path = join(tempDir(t), 's.jsonl');
  const a = `${JSON.stringify({ type: 'user', uuid: 'a', message: { role: 'user', content: '中文 ünïcödé 🎉 first' } })}\r\n`;
  const b = `${JSON.stringify({ type: 'user', uuid: 'b', message: { role: 'user', content: 'second' } })}\r\n`;
  writeFileSync(path, a + b);
  const one = await readTranscript(path, { maxBytes: Buffer.byteLength(a) });
  assert.equal(one.endOffset, Buffer.byteLength(a));
  assert.deepEqual(one.summary.requests, ['中文 ünïcödé 🎉 first']);
  const two = await readTranscript(path, { fromOffset: one.endOffset });
  assert.deepEqual(two.summary.requests, ['second']);
});

test('an offset past the end of a replaced, shorter file reads it from the start', async (t) => {
  const path = join(tempDir(t), 's.jsonl');
  writeFileSync(path, `${JSON.stringify({ type: 'user', uuid: 'a', message: { role: 'user', content: 'new file' } })}\n`);
  const r = await readTranscript(path, { fromOffset: 1_000_000 });
  assert.deepEqual(r.summary.requests, ['new file']);
});

test('an offset at the end reads nothing and stays put', async () => {
  const size = readFileSync(fixture).length;
  const r = await readTranscript(fixture, { fromOffset: size });
  assert.equal(r.endOffset, size);
  assert.equal(r.lineCount, 0);
  assert.deepEqual(r.summary.requests, []);
});

test('a missing transcript is a not-found error', async () => {
  await assert.rejects(readTranscript('/nonexistent/t.jsonl'), (e: unknown) => e instanceof EchoesError && e.code === 'not-found');
});

// Which real transcripts edit files (the others only read, plan or chat).
const EDITS = [
  'coverage-test-fix',
  'python-to-rust-port',
  '5c0375b4',
  'fe5e1c67',
  'edge_cases',
  '4d5611e5-241a-462a-8d15-5122611a9569.jsonl',
  '8463c716',
  'ae4a77f8',
  '__subagent.jsonl',
];

test('every real transcript is read without error', async (t) => {
  if (!existsSync(realdata)) {
    t.skip('realdata not present');
    return;
  }
  const files = readdirSync(realdata).filter((f) => f.endsWith('.jsonl'));
  assert.ok(files.length >= 14);
  for (const f of files) {
    const path = join(realdata, f);
    const r = await readTranscript(path);
    const s = r.summary;
    const settled = settleSummary(s);
    assert.equal(r.endOffset, readFileSync(path).length, f);
    // Only the hand-made edge-case file has broken lines (7 of 19, on purpose).
    assert.ok(s.skippedLines <= (f.includes('edge_cases') ? 7 : 0), `${f}: ${s.skippedLines} skipped`);
    assert.ok(settled.requests.length > 0, `${f}: no requests`);
    assert.ok(s.firstTs && s.lastTs && s.sessionId, f);
    if (EDITS.some((e) => f.includes(e))) assert.ok(settled.filesEdited.length > 0, `${f}: no edited files`);
    // tool_heavy is two interrupted asks: nothing was concluded there.
    const realSession = !f.includes('daaain') && !f.includes('acompact') && !f.includes('tool_heavy');
    if (realSession) assert.ok(s.decisions.length > 0, `${f}: no decisions`);
    for (const d of s.decisions) assert.ok(!/^(?:let me|now let me)\b/i.test(d), `${f}: narration kept: ${d}`);
  }
});

test('real transcripts: compaction summaries, meta and sidechain prompts are not requests', async (t) => {
  if (!existsSync(realdata)) {
    t.skip('realdata not present');
    return;
  }
  const main = await readTranscript(
    join(realdata, 'marot__spotter__test__fixtures__transcripts__4d5611e5-241a-462a-8d15-5122611a9569.jsonl'),
  );
  assert.deepEqual(main.summary.requests, [
    'Work on bead spotter-dov. Run bd show spotter-dov to see the issue details and bd ready to find available subtasks. Start with the first ready task.',
  ]);
  const inline = await readTranscript(
    join(
      realdata,
      'd-kimuson__claude-code-viewer__mock-global-claude-dir__projects__sample-project__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl',
    ),
  );
  assert.deepEqual(inline.summary.requests, [
    '/orchestrator create TODO app by Next.js',
    'Thanks! Please update CLAUDE.md for current changes',
  ]);
  assert.ok(
    inline.summary.filesEdited.some((f) => f.startsWith('todo-app/src/')),
    'subagent edits count as the session’s edits',
  );
  const todos = await readTranscript(
    join(realdata, 'DRMacIver__claude-reliability__snapshot-tests__tests__python-to-rust-port__transcript.jsonl'),
  );
  assert.deepEqual(todos.summary.openTodos, [], 'the last TodoWrite had everything completed');
  assert.equal(todos.summary.todosSeen, true);
});

test('a first line longer than the byte budget is still consumed, so reads always make progress', async (t) => {
  const path = join(tempDir(t), 's.jsonl');
  const long = `${JSON.stringify({ type: 'user', uuid: 'a', message: { role: 'user', content: `long ${'x'.repeat(5000)}` } })}\n`;
  const short = `${JSON.stringify({ type: 'user', uuid: 'b', message: { role: 'user', content: 'short' } })}\n`;
  writeFileSync(path, long + short);
  const one = await readTranscript(path, { maxBytes: 100 });
  assert.equal(one.endOffset, Buffer.byteLength(long));
  assert.equal(one.lineCount, 1);
  const two = await readTranscript(path, { fromOffset: one.endOffset, maxBytes: 100 });
  assert.deepEqual(two.summary.requests, ['short']);
});
