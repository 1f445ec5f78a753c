// Which roles and findings files exist, by name only: cheap enough for every
// hook, with no parser loaded.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { compareText } from '../../core/text.ts';
import { type EchoPaths, isRoleName, roleDir } from '../fs/echo-paths.ts';

/** `<agent>-findings.md`, the one file each agent writes (SPEC §6). */
const FINDINGS_FILE = /^([a-z0-9][a-z0-9-]{0,63})-findings\.md$/;

export const isFindingsFileName = (name: string): boolean => FINDINGS_FILE.test(name);

export function listRoles(paths: EchoPaths): string[] {
  const found = new Set<string>();
  try {
    for (const name of readdirSync(paths.echoes)) {
      if (!isRoleName(name)) continue;
      try {
        if (statSync(join(paths.echoes, name)).isDirectory()) found.add(name);
      } catch {
        /* raced away */
      }
    }
  } catch {
    /* no store yet */
  }
  return [...found].sort();
}

export function listFindingsFiles(paths: EchoPaths, role: string): Array<{ agent: string; path: string }> {
  let names: string[] = [];
  try {
    names = readdirSync(roleDir(paths, role));
  } catch {
    return [];
  }
  return names
    .map((n) => FINDINGS_FILE.exec(n))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ agent: m[1]!, path: join(roleDir(paths, role), m[0]) }))
    .sort((a, b) => compareText(a.agent, b.agent));
}
