// Atomic writes: a reader sees the old file or the new one, never half of
// either, whatever instant the writer is killed at (temp file, fsync, rename).
import {
  appendFileSync,
  closeSync,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { EchoesError } from '../../core/errors.ts';
import { assertReadable, assertWritable, type EchoPaths } from './echo-paths.ts';
import { uniqueSuffix } from './unique-suffix.ts';

function tempPath(target: string): string {
  return join(dirname(target), `.${basename(target)}.${uniqueSuffix()}.tmp`);
}

function writeDurably(path: string, data: string | Uint8Array, durable = true, mode = 0o644): void {
  const fd = openSync(path, 'wx', mode);
  try {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    // write() may take fewer bytes than asked (near a full disk, say): loop, or a
    // truncated file would be renamed over the good one.
    for (let done = 0; done < bytes.byteLength; ) done += writeSync(fd, bytes, done, bytes.byteLength - done);
    if (durable) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function syncDir(dir: string): void {
  // Makes the rename itself durable; not every platform allows it, so best effort.
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    /* not supported here */
  }
}

export function ensureDir(paths: EchoPaths, dir: string): void {
  assertWritable(paths, dir);
  mkdirSync(dir, { recursive: true });
}

export interface WriteOptions {
  /**
   * fsync the data and the rename (default). Hook bookkeeping that can be
   * rebuilt (session offsets, last-run markers) skips it: the rename alone
   * is already atomic against a killed process, and fsync is the slowest
   * part of a hook on a busy disk.
   */
  durable?: boolean;
  /** Permission bits of the new file (default 0644); 0600 for text only its owner may read. */
  mode?: number;
}

/** Replaces `target` atomically with `data`. */
export function writeFileAtomic(paths: EchoPaths, target: string, data: string | Uint8Array, opts: WriteOptions = {}): void {
  const durable = opts.durable ?? true;
  assertWritable(paths, target);
  mkdirSync(dirname(target), { recursive: true });
  const tmp = tempPath(target);
  try {
    writeDurably(tmp, data, durable, opts.mode);
    renameSync(tmp, target);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      /* already gone */
    }
    throw err;
  }
  if (durable) syncDir(dirname(target));
}

/**
 * Creates `target` with `data` only if no file has that name yet, atomically
 * and completely (hard link of a finished temp file). Returns false when taken.
 */
export function createFileExclusive(paths: EchoPaths, target: string, data: string): boolean {
  assertWritable(paths, target);
  mkdirSync(dirname(target), { recursive: true });
  const tmp = tempPath(target);
  try {
    writeDurably(tmp, data);
    linkSync(tmp, target);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    try {
      unlinkSync(tmp);
    } catch {
      /* already gone */
    }
  }
}

/** Appends one line with a single O_APPEND write, so concurrent appenders never interleave. */
export function appendLine(paths: EchoPaths, target: string, line: string): void {
  assertWritable(paths, target);
  mkdirSync(dirname(target), { recursive: true });
  appendFileSync(target, line.endsWith('\n') ? line : `${line}\n`, { encoding: 'utf8', mode: 0o644 });
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Reads a text file we may rewrite. `unreadable` when it holds NUL bytes or is
 * not valid UTF-8 (binary, or another encoding): such a file is never parsed
 * into memory nor overwritten. A U+FFFD the user typed is valid text.
 */
export function readTextFile(
  paths: EchoPaths,
  path: string,
  opts: { stripNul?: boolean } = {},
): { text: string | null; unreadable: boolean } {
  if (!readableHere(paths, path)) return { text: null, unreadable: false };
  return readForeignText(path, opts);
}

/** Checks a read (assertReadable); false for a personal file git tracks, which reads as absent. */
function readableHere(paths: EchoPaths, path: string): boolean {
  try {
    assertReadable(paths, path);
    return true;
  } catch (err) {
    if (err instanceof EchoesError && err.code === 'tracked') return false;
    throw err;
  }
}

/**
 * Reads a text file outside the store that the user pointed a command at (a
 * memory file to import, the CLAUDE.md an export rewrites), as readTextFile
 * does but without the memory-folder check. Never for the store's own files.
 */
export function readForeignText(path: string, opts: { stripNul?: boolean } = {}): { text: string | null; unreadable: boolean } {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { text: null, unreadable: false };
    throw err;
  }
  if (bytes.includes(0)) {
    // Findings files are an agent's scratch output: a stray NUL is dropped, not a reason to stall.
    if (!opts.stripNul) return { text: null, unreadable: true };
    bytes = Buffer.from(bytes.filter((b) => b !== 0));
  }
  try {
    return { text: strictUtf8.decode(bytes), unreadable: false };
  } catch {
    return { text: null, unreadable: true };
  }
}

/** A store file's text, or null when it does not exist. Refuses a symlink that leads out of the memory folders. */
export function readTextOrNull(paths: EchoPaths, path: string): string | null {
  if (!readableHere(paths, path)) return null;
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * Moves a store file out of the way, to `target` or `target-2`, `-3`… without
 * overwriting anything. A symlink is moved as a link: what it points at is
 * never read, written or removed. Returns where it went.
 */
export function moveAside(paths: EchoPaths, from: string, target: string): string {
  assertWritable(paths, dirname(from));
  const ext = extname(target);
  const stem = target.slice(0, target.length - ext.length);
  for (let n = 1; ; n++) {
    const to = n === 1 ? target : `${stem}-${n}${ext}`;
    assertWritable(paths, to);
    try {
      lstatSync(to);
      continue; // taken
    } catch {
      /* free */
    }
    mkdirSync(dirname(to), { recursive: true });
    renameSync(from, to);
    return to;
  }
}

export function removeFile(paths: EchoPaths, target: string): void {
  assertWritable(paths, target);
  try {
    unlinkSync(target);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

/** A file's modification time (epoch ms); 0 when it is missing or cannot be stat'ed. */
export function mtimeOf(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}
