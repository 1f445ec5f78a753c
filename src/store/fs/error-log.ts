// `.claude/echoes/.log`: one line per problem, so a broken store is visible
// in `status` without ever breaking a session. Kept small by trimming.
// The file is written only as a real file in real folders: a symlinked
// `.log`, `echoes/` or `.claude/` (a cloned repository could ship one) is
// never followed, so the log cannot append to or truncate anything else.
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';

const MAX_BYTES = 256 * 1024;

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

export function logLine(file: string, source: string, message: string, now = new Date()): void {
  // One line: no control characters (a crafted config key must not forge lines).
  const text = message
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .slice(0, 500);
  const line = `${now.toISOString()} ${source} ${text}\n`;
  try {
    const dir = dirname(file);
    if (isSymlink(dir) || isSymlink(dirname(dir))) return;
    mkdirSync(dir, { recursive: true });
    const fd = openSync(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o644);
    let size: number;
    try {
      writeSync(fd, line);
      size = fstatSync(fd).size;
    } finally {
      closeSync(fd);
    }
    if (size > MAX_BYTES) {
      const old = readFileSync(file, 'utf8');
      const keep = old.slice(old.length - MAX_BYTES / 2);
      const tmp = join(dir, `.log.${process.pid}.tmp`);
      writeFileSync(tmp, keep.slice(keep.indexOf('\n') + 1), { encoding: 'utf8', flag: 'wx' });
      renameSync(tmp, file);
    }
  } catch {
    // Nowhere left to report to; a hook must still exit cleanly.
  }
}

/** Log lines that are config warnings, not errors: `status` counts them apart. */
export const CONFIG_WARNING = 'config warning: ';
