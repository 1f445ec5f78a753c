// `.claude/echoes/.log`: one line per problem, so a broken store is visible
// in `status` without ever breaking a session. Kept small by trimming.
import { appendFileSync, mkdirSync, statSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const MAX_BYTES = 256 * 1024;

export function logLine(file: string, source: string, message: string, now = new Date()): void {
  const line = `${now.toISOString()} ${source} ${message.replace(/\s+/g, ' ').slice(0, 500)}\n`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    appendFileSync(file, line, 'utf8');
    if (statSync(file).size > MAX_BYTES) {
      const text = readFileSync(file, 'utf8');
      const keep = text.slice(text.length - MAX_BYTES / 2);
      writeFileSync(file, keep.slice(keep.indexOf('\n') + 1), 'utf8');
    }
  } catch {
    // Nowhere left to report to; a hook must still exit cleanly.
  }
}
