// When each hook last ran, for `status`: the mtime of one tiny file per hook.
import { join } from 'node:path';
import { writeFileAtomic } from './fs/atomic-file.ts';
import type { EchoPaths } from './fs/echo-paths.ts';

export const lastRunFile = (paths: EchoPaths, hook: string) => join(paths.stateDir, `last-run-${hook}`);

export function markHookRun(paths: EchoPaths, hook: string, now: Date): void {
  writeFileAtomic(paths, lastRunFile(paths, hook), `${now.toISOString()}\n`, { durable: false });
}
