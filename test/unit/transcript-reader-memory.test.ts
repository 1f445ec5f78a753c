import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import v8 from 'node:v8';
import vm from 'node:vm';
import { DRAFT_COMMANDS, SUMMARY_LIMITS } from '../../src/core/session/summary-model.ts';
import { readTranscript } from '../../src/store/session/transcript-reader.ts';

// A 50 MB transcript of many turns, each with long text, a command, an edit and a long result.
function writeBigTranscript(path: string, targetBytes: number): number {
  const fd = openSync(path, 'w');
  const filler = 'lorem ipsum '.repeat(350);
  let size = 0;
  let i = 0;
  try {
    while (size < targetBytes) {
      const batch: string[] = [];
      for (let k = 0; k < 200; k++, i++) {
        const ctx = { sessionId: 'big', cwd: '/repo', timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, i % 60)).toISOString() };
        batch.push(
          JSON.stringify({
            ...ctx,
            type: 'user',
            uuid: `u${i}`,
            message: { role: 'user', content: `Request ${i} about module ${i % 97}` },
          }),
        );
        batch.push(
          JSON.stringify({
            ...ctx,
            type: 'assistant',
            uuid: `a${i}`,
            message: {
              id: `m${i}`,
              role: 'assistant',
              content: [
                { type: 'text', text: `The root cause ${i} was a missing guard. ${filler}` },
                { type: 'tool_use', id: `t${i}`, name: 'Bash', input: { command: `npm run job${i}` } },
                { type: 'tool_use', id: `e${i}`, name: 'Edit', input: { file_path: `/repo/src/f${i}.ts`, old_string: filler } },
              ],
            },
          }),
        );
        batch.push(
          JSON.stringify({
            ...ctx,
            type: 'user',
            uuid: `r${i}`,
            message: {
              role: 'user',
              content: [
                { type: 'tool_result', tool_use_id: `t${i}`, content: filler, is_error: i % 7 === 0 },
                { type: 'tool_result', tool_use_id: `e${i}`, content: 'ok' },
              ],
            },
          }),
        );
      }
      const text = `${batch.join('\n')}\n`;
      writeSync(fd, text);
      size += Buffer.byteLength(text);
    }
  } finally {
    closeSync(fd);
  }
  return i;
}

test('a 50 MB transcript is streamed with bounded memory', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'transcript-memory-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'big.jsonl');
  const turns = writeBigTranscript(path, 50 * 1024 * 1024);
  const fileSize = statSync(path).size;

  v8.setFlagsFromString('--expose_gc');
  const gc = vm.runInNewContext('gc') as () => void;
  gc();
  const base = process.memoryUsage().heapUsed;
  // Live heap (after a collection) sampled while the read is under way:
  // garbage from parsed lines is expected, anything that survives is not.
  let peak = base;
  let samples = 0;
  const sampler = setInterval(() => {
    gc();
    samples++;
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  }, 5);
  let result: Awaited<ReturnType<typeof readTranscript>>;
  try {
    result = await readTranscript(path);
  } finally {
    clearInterval(sampler);
  }
  gc();
  peak = Math.max(peak, process.memoryUsage().heapUsed);

  assert.ok(samples > 0, 'the heap was sampled during the read');
  const growth = (peak - base) / fileSize;
  assert.ok(growth < 0.1, `live heap grew by ${(growth * 100).toFixed(1)}% of the file size`);
  assert.equal(result.endOffset, fileSize);
  assert.equal(result.summary.lines, turns * 3);
  assert.equal(result.summary.filesEdited.length, SUMMARY_LIMITS.files);
  assert.equal(result.summary.commands.length, DRAFT_COMMANDS);
  assert.equal(result.summary.requests.length, SUMMARY_LIMITS.requests);
});
