// The last list of stale entries (usage key → the day each was last checked),
// kept by whoever computed it (SessionStart, show, search: see
// evidence-changes.ts), so prompt-time and subagent recall can mark what they
// recall without running git or loading anything heavy.
import { join } from 'node:path';
import { readTextOrNull, writeFileAtomic } from '../fs/atomic-file.ts';
import type { EchoPaths } from '../fs/echo-paths.ts';

export const staleEntriesFile = (paths: EchoPaths) => join(paths.stateDir, 'stale-entries.json');
const staleFile = staleEntriesFile;

export function keepStaleEntries(paths: EchoPaths, stale: ReadonlyMap<string, string>): void {
  const text = JSON.stringify(Object.fromEntries(stale));
  try {
    if ((readTextOrNull(paths, staleFile(paths)) ?? '{}') !== text) writeFileAtomic(paths, staleFile(paths), text, { durable: false });
  } catch {
    /* recall then marks nothing stale */
  }
}

/** Takes one entry off the list (it was just re-verified). */
export function dropStaleEntry(paths: EchoPaths, key: string): void {
  const stale = readStaleEntries(paths);
  if (stale.delete(key)) keepStaleEntries(paths, stale);
}

export function readStaleEntries(paths: EchoPaths): Map<string, string> {
  try {
    const v = JSON.parse(readTextOrNull(paths, staleFile(paths)) ?? '{}') as unknown;
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return new Map();
    return new Map(Object.entries(v as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return new Map();
  }
}
