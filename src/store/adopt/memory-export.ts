// `rune-echoes export` (issue 12): what the team decided, written where every
// session reads it — a marked section of CLAUDE.md, or topic files plus a
// marked block of index lines in Claude Code's auto memory for this project.
// Re-running rewrites only what export wrote (the marked part, its own topic
// files); every other byte stays. Entries pass the security filter again on
// the way out: a hand-edited MEMORY.md may hold what the filter would stop.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  autoMemoryIndexBlock,
  claudeMdSection,
  EXPORT_TOPIC_KEY,
  type ExportedEntry,
  topicFile,
  topicFileName,
  withMarkedBlock,
} from '../../core/adopt/export-section.ts';
import type { Layer } from '../../core/entry/echo-entry.ts';
import { pickOneEntry } from '../../core/entry/entry-ids.ts';
import { EchoesError } from '../../core/errors.ts';
import { sanitizeEntry } from '../../core/security/entry-sanitize.ts';
import { readForeignText, removeFile, writeFileAtomic } from '../fs/atomic-file.ts';
import { type EchoPaths, withExtraWritable } from '../fs/echo-paths.ts';
import { day, readAllEntries } from '../memory/memory-files.ts';
import { appendLedger, readLedger, sha256 } from './import-ledger.ts';
import { autoMemoryDir, refOf } from './memory-sources.ts';

export type ExportTarget = 'claude-md' | 'auto-memory';

export interface ExportReport {
  to: ExportTarget;
  dryRun: boolean;
  entries: Array<{ role: string; id: string; title: string }>;
  files: Array<{ file: string; action: 'created' | 'updated' | 'unchanged' | 'removed' }>;
}

export interface ExportOptions {
  to: ExportTarget;
  /** Only this role. */
  role?: string;
  /** Entries of this layer (default etched) unless ids are given. */
  layer: Layer;
  /** Chosen entries by id or unique id prefix; overrides the layer. */
  ids: string[];
  dryRun: boolean;
  now: Date;
  home: string;
  /** Claude Code's folder for this user (`CLAUDE_CONFIG_DIR`, else ~/.claude). */
  configDir?: string;
}

function chosen(paths: EchoPaths, config: { ignore: string[] }, opts: ExportOptions): ExportedEntry[] {
  const all = readAllEntries(paths)
    .roles.filter((r) => opts.role === undefined || r.role === opts.role)
    .flatMap((r) => r.entries.map((entry) => ({ role: r.role, entry })))
    .filter((x) => x.entry.status === undefined);
  let picked = all.filter((x) => x.entry.layer === opts.layer);
  if (opts.ids.length) {
    picked = opts.ids.map((id) => pickOneEntry(all, id, 'export'));
  }
  return picked.map((x) => ({ role: x.role, entry: sanitizeEntry(x.entry, config.ignore).entry }));
}

export function exportMemory(paths: EchoPaths, config: { ignore: string[] }, opts: ExportOptions): ExportReport {
  const items = chosen(paths, config, opts);
  const report: ExportReport = {
    to: opts.to,
    dryRun: opts.dryRun,
    entries: items.map((x) => ({ role: x.role, id: x.entry.id, title: x.entry.title })),
    files: [],
  };
  const ledger = readLedger(paths);
  const put = (target: EchoPaths, path: string, next: string) => {
    const { text: current, unreadable } = readForeignText(path);
    if (unreadable) throw new EchoesError('unreadable', `${refOf(paths, opts.home, path)} is not a text file; export left it as it is`);
    // Nothing chosen and no file yet: nothing to write (a CLAUDE.md saying "no entries" helps nobody).
    if (current === null && items.length === 0) return;
    const action = current === null ? 'created' : current === next ? 'unchanged' : 'updated';
    report.files.push({ file: refOf(paths, opts.home, path), action });
    if (opts.dryRun || action === 'unchanged') return;
    writeFileAtomic(target, path, next);
    // What export wrote is not memory to adopt: a file that had nothing new before still has nothing new.
    if (current === null || ledger.files.get(path) === sha256(current)) {
      appendLedger(paths, { ts: opts.now.toISOString(), kind: 'export', path, sha: sha256(next), role: '', items: [] });
    }
  };

  if (opts.to === 'claude-md') {
    // The project's CLAUDE.md; .claude/CLAUDE.md when that is the one the project keeps.
    const root = join(paths.project, 'CLAUDE.md');
    const dotted = join(paths.project, '.claude', 'CLAUDE.md');
    const path = !existsSync(root) && existsSync(dotted) ? dotted : root;
    const { text } = readForeignText(path);
    put(withExtraWritable(paths, [path]), path, withMarkedBlock(text, claudeMdSection(items, day(opts.now))));
    return report;
  }

  const dir = autoMemoryDir(paths.project, opts.home, opts.configDir);
  const target = withExtraWritable(paths, [dir]);
  const wanted = new Set(items.map(topicFileName));
  for (const item of items) put(target, join(dir, topicFileName(item)), topicFile(item));
  // Topic files an earlier export wrote for entries no longer chosen go; nothing else is touched.
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((n) => n.startsWith('rune-echoes_') && n.endsWith('.md') && !wanted.has(n));
  } catch {
    /* no memory folder yet */
  }
  for (const name of names) {
    const path = join(dir, name);
    const { text } = readForeignText(path);
    if (text === null || !new RegExp(`^${EXPORT_TOPIC_KEY}:`, 'm').test(text)) continue;
    report.files.push({ file: refOf(paths, opts.home, path), action: 'removed' });
    if (!opts.dryRun) removeFile(target, path);
  }
  const index = join(dir, 'MEMORY.md');
  put(target, index, withMarkedBlock(readForeignText(index).text, autoMemoryIndexBlock(items)));
  return report;
}
