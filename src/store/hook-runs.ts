// When each hook last ran, for `status`: the mtime of one tiny file per hook.
import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from './fs/atomic-file.ts';
import { assertWritable, type EchoPaths } from './fs/echo-paths.ts';

export const lastRunFile = (paths: EchoPaths, hook: string) => join(paths.stateDir, `last-run-${hook}`);

export function markHookRun(paths: EchoPaths, hook: string, now: Date): void {
  const file = lastRunFile(paths, hook);
  // Every hook does this: one utime on the marker once it exists, instead of writing and renaming a file.
  try {
    utimesSync(assertWritable(paths, file), now, now);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    writeFileAtomic(paths, file, '', { durable: false });
    utimesSync(file, now, now);
  }
}
