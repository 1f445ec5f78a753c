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

/** `archive/unreadable-<agent>-findings-<day>[-n].md`: a findings file consolidation set aside unread (moveAside's names). */
const SET_ASIDE_FILE = /^(unreadable|unsafe)-([a-z0-9][a-z0-9-]{0,63})-findings-\d{4}-\d{2}-\d{2}(?:-\d+)?\.md$/;

/**
 * Findings files set aside unread: not UTF-8 text (or holding NUL bytes), or a link out of the memory folders. They
 * stay in the role's archive until the user converts one and moves it back as `<agent>-findings.md`; `status` lists them.
 */
export function listSetAsideFindings(paths: EchoPaths): Array<{ role: string; agent: string; path: string; why: 'unreadable' | 'unsafe' }> {
  const out: Array<{ role: string; agent: string; path: string; why: 'unreadable' | 'unsafe' }> = [];
  for (const role of listRoles(paths)) {
    let names: string[] = [];
    try {
      names = readdirSync(join(roleDir(paths, role), 'archive'));
    } catch {
      continue;
    }
    for (const n of names.sort(compareText)) {
      const m = SET_ASIDE_FILE.exec(n);
      if (m) out.push({ role, agent: m[2]!, path: join(roleDir(paths, role), 'archive', n), why: m[1] as 'unreadable' | 'unsafe' });
    }
  }
  return out;
}
