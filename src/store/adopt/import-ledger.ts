// What `import` already brought in, so a re-run brings in nothing twice and
// `status` can tell which sources are new or changed: one JSON line per
// source and run in .state/imports.jsonl — the file's hash when it was read,
// and the keys of the entries it gave (a hash of each entry's source text, so
// the same fact found again, even in another file, is not imported again).
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { LEARNINGS_HEADING } from '../../core/adopt/read-claude-md.ts';
import { appendLine, readForeignText, readTextOrNull } from '../fs/atomic-file.ts';
import type { EchoPaths } from '../fs/echo-paths.ts';
import { type FoundSource, findSources } from './memory-sources.ts';

export interface LedgerLine {
  ts: string;
  kind: string;
  path: string;
  /** sha256 of the file as it was read. */
  sha: string;
  role: string;
  items: string[];
}

export const ledgerFile = (paths: EchoPaths): string => join(paths.stateDir, 'imports.jsonl');

export const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

/** The key of one imported fact: its kind and its source text, whitespace at the edges aside. */
export const itemKey = (kind: string, raw: string): string => sha256(`${kind}\u0000${raw.trim()}`).slice(0, 32);

export interface Ledger {
  /** Fact key → the roles it was imported into (a fact two agents both know goes to each). */
  items: Map<string, Set<string>>;
  /** Path → hash of the file when it was last imported. */
  files: Map<string, string>;
}

export function readLedger(paths: EchoPaths): Ledger {
  const items = new Map<string, Set<string>>();
  const files = new Map<string, string>();
  for (const line of (readTextOrNull(paths, ledgerFile(paths)) ?? '').split('\n')) {
    if (!line.trim()) continue;
    try {
      const row = JSON.parse(line) as Partial<LedgerLine>;
      if (typeof row.path === 'string' && typeof row.sha === 'string') files.set(row.path, row.sha);
      const role = typeof row.role === 'string' ? row.role : '';
      for (const k of Array.isArray(row.items) ? row.items : []) {
        if (typeof k !== 'string') continue;
        const roles = items.get(k) ?? new Set<string>();
        roles.add(role);
        items.set(k, roles);
      }
    } catch {
      /* a torn last line from a killed run: its entries merge by evidence and title on the next run */
    }
  }
  return { items, files };
}

export function appendLedger(paths: EchoPaths, line: LedgerLine): void {
  appendLine(paths, ledgerFile(paths), JSON.stringify(line));
}

/** Found sources whose content was never imported (new, or changed since): for `status`, without parsing any. */
export function sourcesNotImported(paths: EchoPaths, home: string, configDir?: string): FoundSource[] {
  const ledger = readLedger(paths);
  return findSources(paths, home, configDir).filter((s) => {
    let text: string | null = null;
    try {
      text = readForeignText(s.path).text;
    } catch {
      return false;
    }
    if (text === null || ledger.files.get(s.path) === sha256(text)) return false;
    // CLAUDE.md is instructions; it is a source only when it has a learnings section.
    return s.kind !== 'claude-md' || text.split(/\r?\n/).some((l) => /^#{1,6}\s/.test(l) && LEARNINGS_HEADING.test(l));
  });
}
