// Streams a Claude Code transcript from a byte offset into a SessionSummary.
//
// Transcripts reach tens of megabytes, and hooks have tight time limits, so
// the file is never read whole: chunks are split on newline bytes and each
// complete line is folded into the summary at once. Offsets are byte offsets
// (not characters): `endOffset` is just past the last complete line consumed,
// so a line still being written is left for the next read.

import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type CaptureState, trackCapture } from '../../core/capture/capture-tracker.ts';
import { EchoesError } from '../../core/errors.ts';
import type { UseWatch } from '../../core/lifecycle/entry-use.ts';
import { createSummaryBuilder } from '../../core/session/session-summary.ts';
import type { SessionSummary, SummaryCarry } from '../../core/session/summary-model.ts';
import type { PrivateDepth } from '../../core/transcript/transcript-guard.ts';

export interface ReadTranscriptOptions {
  /** Byte offset to start at (a previous read's endOffset). Past the end of a replaced file: reads from 0. */
  fromOffset?: number;
  /** Entry ids/titles to look for in the conversation text (see SessionSummary.namedTerms). */
  watchTerms?: string[];
  /** Entries to tell use of: the summary's `used` lists those the read part used. */
  use?: UseWatch;
  /** `<private>` spans left open by the previous read of this transcript. */
  privateDepth?: PrivateDepth;
  /** The project folder an earlier read found: paths are spelled relative to it in every part. */
  projectDir?: string | null;
  /** Where the previous read stopped (calls awaiting results, an open question). */
  carry?: SummaryCarry;
  /** Lessons gathered so far (SPEC §6a): when given, the read goes on gathering and returns the new state. */
  capture?: CaptureState;
  /** Read about this many bytes from fromOffset: lines ending past the limit are left for the next read (a first line longer than the limit is still read, so a read always makes progress). */
  maxBytes?: number;
  /**
   * Also read the session's subagent transcripts (`<transcript without .jsonl>/subagents/agent-*.jsonl`, where
   * Claude Code 2.1 keeps a subagent's work), each from the offset a previous read reached, after the main part.
   */
  subagents?: Record<string, number>;
}

export interface ReadTranscriptResult {
  summary: SessionSummary;
  /** Byte offset just after the last complete line consumed. */
  endOffset: number;
  /** Complete lines consumed by this read (blank lines included). */
  lineCount: number;
  /** What capture gathered, when the read was given a capture state. */
  capture?: CaptureState;
  /** How far each subagent transcript was read, when the read was asked to read them. */
  subagents?: Record<string, number>;
}

// One line longer than this is skipped rather than buffered: a runaway line
// must not be able to take the hook's memory with it.
const MAX_LINE_BYTES = 16 * 1024 * 1024;
const NEWLINE = 0x0a;

function isWholeJsonObject(text: string): boolean {
  const t = text.trim();
  if (!t.startsWith('{') || !t.endsWith('}')) return false;
  try {
    JSON.parse(t);
    return true;
  } catch {
    return false;
  }
}

interface SubagentQueue {
  name: string;
  lines: Array<{ ts: string; text: string; end: number }>;
}

/** A line's time as written (ISO, so text order is time order); '' when it has none (then it goes first). */
function timestampOf(line: string): string {
  return /"timestamp":"([^"]{10,40})"/.exec(line)?.[1] ?? '';
}

/** The complete lines each subagent transcript holds past its offset, with their times. */
async function subagentQueues(path: string, offsets: Record<string, number>): Promise<SubagentQueue[]> {
  const queues: SubagentQueue[] = [];
  for (const file of await subagentFiles(path)) {
    const name = file.slice(file.lastIndexOf('/') + 1);
    let size: number;
    try {
      size = await sizeOf(file);
    } catch {
      continue; // gone or unreadable: the main transcript still tells the session
    }
    const from = (offsets[name] ?? 0) > size ? 0 : (offsets[name] ?? 0);
    const q: SubagentQueue = { name, lines: [] };
    await readLines(file, from, size, Infinity, (text, end) => q.lines.push({ ts: timestampOf(text), text, end }));
    queues.push(q);
  }
  return queues;
}

/** The subagent transcripts beside a session's transcript, by file name; a compaction's summariser is not one. */
async function subagentFiles(path: string): Promise<string[]> {
  if (!path.endsWith('.jsonl')) return [];
  try {
    const dir = join(path.slice(0, -'.jsonl'.length), 'subagents');
    return (await readdir(dir))
      .filter((f) => /^agent-.+\.jsonl$/.test(f) && !f.startsWith('agent-acompact'))
      .sort()
      .map((f) => join(dir, f));
  } catch {
    return []; // no subagent ran
  }
}

async function sizeOf(path: string): Promise<number> {
  let size: number;
  try {
    const st = await stat(path);
    if (!st.isFile()) throw new EchoesError('unreadable', `transcript is not a file: ${path}`);
    size = st.size;
  } catch (err) {
    if (err instanceof EchoesError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new EchoesError('not-found', `transcript not found: ${path}`);
    throw new EchoesError('unreadable', `cannot read transcript ${path}: ${code ?? String(err)}`);
  }
  return size;
}

export async function readTranscript(path: string, opts: ReadTranscriptOptions = {}): Promise<ReadTranscriptResult> {
  const size = await sizeOf(path);
  let start = Math.max(0, Math.floor(opts.fromOffset ?? 0));
  let capture = opts.capture;
  if (start > size) start = 0; // the file was replaced by a shorter one: it is a new transcript
  const builder = createSummaryBuilder({
    watchTerms: opts.watchTerms,
    use: opts.use,
    privateDepth: opts.privateDepth,
    projectDir: opts.projectDir,
    carry: opts.carry,
    ...(opts.capture
      ? {
          onEvents: (events) => {
            if (capture) capture = trackCapture(capture, events);
          },
        }
      : {}),
  });
  const limit = opts.maxBytes !== undefined ? Math.max(0, Math.floor(opts.maxBytes)) : Infinity;
  // A subagent's lines go in among the main transcript's by time, so that what it changed comes before
  // the check the main session ran after it; those later than the part of the main transcript read wait
  // for the next read, unless that part reaches its end (a subagent may still be at work).
  const queues = opts.subagents ? await subagentQueues(path, opts.subagents) : [];
  const subagents = opts.subagents ? { ...opts.subagents } : undefined;
  const flush = (until: string | null) => {
    for (;;) {
      let next: SubagentQueue | null = null;
      for (const q of queues) if (q.lines.length > 0 && (next === null || q.lines[0]!.ts < next.lines[0]!.ts)) next = q;
      if (!next || (until !== null && next.lines[0]!.ts > until)) return;
      const line = next.lines.shift()!;
      builder.addLine(line.text);
      subagents![next.name] = line.end;
    }
  };
  const main = await readLines(path, start, size, limit, (line) => {
    if (queues.length > 0) flush(timestampOf(line));
    builder.addLine(line);
  });
  if (main.endOffset >= size) flush(null);
  return {
    summary: builder.finish(),
    endOffset: main.endOffset,
    lineCount: main.lineCount,
    ...(capture ? { capture } : {}),
    ...(subagents ? { subagents } : {}),
  };
}

/** Streams the complete lines of `path` from byte `start` (of a file of `size` bytes) to `addLine`, within `limit` bytes. */
async function readLines(
  path: string,
  start: number,
  size: number,
  limit: number,
  addLine: (line: string, end: number) => void,
): Promise<{ endOffset: number; lineCount: number }> {
  let endOffset = start;
  let lineCount = 0;
  // Lines must end within the budget, except the first one: a line longer than
  // the whole budget is still consumed, or a caller with a small budget would
  // be stuck on it forever.
  const budgetEnd = start + limit;
  if (size <= start || limit === 0) return { endOffset, lineCount };

  let pieces: Buffer[] = [];
  let pieceBytes = 0;
  let overlong = false;
  let position = start; // offset of the first byte of the current chunk
  let stopped = false;

  // The size is fixed now, so a file that grows while it is read reads consistently.
  const stream = createReadStream(path, { start, end: size - 1, highWaterMark: 256 * 1024 });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let from = 0;
      while (from < chunk.length) {
        const nl = chunk.indexOf(NEWLINE, from);
        if (nl < 0) {
          if (!overlong) {
            pieces.push(chunk.subarray(from));
            pieceBytes += chunk.length - from;
            if (pieceBytes > MAX_LINE_BYTES) {
              overlong = true;
              pieces = [];
              pieceBytes = 0;
            }
          }
          break;
        }
        const lineEnd = position + nl + 1;
        if (lineCount > 0 && lineEnd > budgetEnd) {
          stopped = true;
          break;
        }
        if (overlong) {
          addLine('\u0000overlong', lineEnd); // counted as an unreadable line
        } else {
          const part = chunk.subarray(from, nl);
          const bytes = pieces.length === 0 ? part : Buffer.concat([...pieces, part]);
          addLine(bytes.toString('utf8'), lineEnd);
        }
        pieces = [];
        pieceBytes = 0;
        overlong = false;
        lineCount++;
        endOffset = lineEnd;
        from = nl + 1;
      }
      position += chunk.length;
      // Any newline still to come lies past the budget.
      if (stopped || (lineCount > 0 && position >= budgetEnd)) {
        stopped = true;
        break;
      }
    }
    // A last line without its newline is normally still being written. One
    // that is already a whole JSON object is complete (no proper prefix of a
    // JSON object parses as one), so a file that just lacks the final newline
    // loses nothing.
    if (!stopped && pieces.length > 0 && !overlong && (lineCount === 0 || size <= budgetEnd)) {
      const text = Buffer.concat(pieces).toString('utf8');
      if (isWholeJsonObject(text)) {
        addLine(text, size);
        lineCount++;
        endOffset = size;
      }
    }
  } catch (err) {
    throw new EchoesError('unreadable', `cannot read transcript ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  } finally {
    stream.destroy();
  }
  return { endOffset, lineCount };
}
