// What the current session's context already holds from memory: the digest's
// entries (written by SessionStart, again after a compaction), each
// prompt-time recall's items, and the entries `export` put in Claude Code's
// auto memory (Claude Code gives those itself). Recall never gives an item twice in a session
// (SPEC §8). One small file per session in .state/given/, read only when a
// prompt has something to recall.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { appendLine, readTextOrNull, removeFile, writeFileAtomic } from '../fs/atomic-file.ts';
import { autoMemoryExportFile, type EchoPaths } from '../fs/echo-paths.ts';
import { safeSessionKey } from '../session/session-state.ts';

const givenDir = (paths: EchoPaths) => join(paths.stateDir, 'given');
const givenPath = (paths: EchoPaths, sessionId: string) => join(givenDir(paths), `${safeSessionKey(sessionId)}.txt`);

/** Files of sessions not heard of for this long are removed when a session starts. */
const KEEP_MS = 7 * 24 * 3600 * 1000;

const handOffPath = (paths: EchoPaths, sessionId: string) => join(givenDir(paths), `${safeSessionKey(sessionId)}.last-session.md`);

/** The last session's summary this session was given at its start (sessions that overlap are each given their own). */
export function keepGivenHandOff(paths: EchoPaths, sessionId: string, text: string): void {
  writeFileAtomic(paths, handOffPath(paths, sessionId), text, { durable: false });
}

export function givenHandOff(paths: EchoPaths, sessionId: string): string | null {
  return readTextOrNull(paths, handOffPath(paths, sessionId));
}

/** The keys the session's context holds (usage keys of entries, `path:line` of other items), auto memory's exported entries too. */
export function readGiven(paths: EchoPaths, sessionId: string): Set<string> {
  const text = readTextOrNull(paths, givenPath(paths, sessionId));
  return new Set([...(text ?? '').split('\n').filter((l) => l !== ''), ...exportedToAutoMemory(paths)]);
}

/**
 * The usage keys (`role#id`) of entries `export --to auto-memory` put in auto memory whose topic files are still
 * there: Claude Code gives them to the model from its own index, so neither the digest nor recall gives them again.
 */
export function exportedToAutoMemory(paths: EchoPaths): Set<string> {
  const keys = new Set<string>();
  try {
    const parsed = JSON.parse(readTextOrNull(paths, autoMemoryExportFile(paths)) ?? '{}') as { dir?: unknown; keys?: unknown };
    if (typeof parsed.dir !== 'string' || !Array.isArray(parsed.keys)) return keys;
    for (const k of parsed.keys) {
      const m = typeof k === 'string' ? /^([a-z0-9][a-z0-9-]*)\/(.+)$/.exec(k) : null;
      if (m && existsSync(join(parsed.dir, `rune-echoes_${m[1]}_${m[2]}.md`))) keys.add(`${m[1]}#${m[2]}`);
    }
  } catch {
    /* none, or torn: nothing is held there */
  }
  return keys;
}

/** The key under which a file named to the session (its start's line of files, a prompt's) is held. */
export const fileGivenKey = (path: string): string => `file:${path}`;

/** Notes items just given to the session. */
export function addGiven(paths: EchoPaths, sessionId: string, keys: readonly string[]): void {
  if (keys.length === 0) return;
  appendLine(paths, givenPath(paths, sessionId), keys.join('\n'));
}

/** A session's context starts (or starts over after a compaction) with the digest's entries only. */
export function resetGiven(paths: EchoPaths, sessionId: string, keys: readonly string[], now: Date): void {
  writeFileAtomic(paths, givenPath(paths, sessionId), keys.length ? `${keys.join('\n')}\n` : '', { durable: false });
  let names: string[] = [];
  try {
    names = readdirSync(givenDir(paths));
  } catch {
    return;
  }
  for (const name of names) {
    const file = join(givenDir(paths), name);
    try {
      if (now.getTime() - statSync(file).mtimeMs > KEEP_MS) removeFile(paths, file);
    } catch {
      /* raced away */
    }
  }
}
