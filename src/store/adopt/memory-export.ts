// `rune-echoes export` (issue 12): what the team decided, written where every
// session reads it — a marked section of CLAUDE.md, or topic files plus a
// marked block of index lines in Claude Code's auto memory for this project.
// Re-running rewrites only what export wrote (the marked part, its own topic
// files); every other byte stays, and a block edited by hand is left as it is
// (issue 18). `--role` replaces that role's part only; `--remove` takes the
// export away. Entries pass the security filter again on the way out: a
// hand-edited MEMORY.md may hold what the filter would stop.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  autoMemoryIndexBlock,
  blockLines,
  claudeMdSection,
  EXPORT_TOPIC_KEY,
  type ExportedEntry,
  findMarkedBlock,
  type MarkedEdit,
  topicFile,
  topicFileName,
  withMarkedBlock,
  withoutMarkedBlock,
} from '../../core/adopt/export-section.ts';
import type { Layer } from '../../core/entry/echo-entry.ts';
import { pickOneEntry } from '../../core/entry/entry-ids.ts';
import { EchoesError } from '../../core/errors.ts';
import { sanitizeEntry } from '../../core/security/entry-sanitize.ts';
import { readForeignText, removeFile, writeFileAtomic } from '../fs/atomic-file.ts';
import { autoMemoryExportFile, type EchoPaths, withExtraWritable } from '../fs/echo-paths.ts';
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
  /** Only this role: its part of the export is replaced (or removed), the other roles' stay. */
  role?: string;
  /** Entries of this layer (default etched) unless ids are given. */
  layer: Layer;
  /** Chosen entries by id or unique id prefix; overrides the layer. */
  ids: string[];
  /** Take the export (of `role`, when given) away instead of writing it. */
  remove?: boolean;
  dryRun: boolean;
  now: Date;
  home: string;
  /** Claude Code's folder for this user (`CLAUDE_CONFIG_DIR`, else ~/.claude). */
  configDir?: string;
}

function chosen(paths: EchoPaths, config: { ignore: string[] }, opts: ExportOptions): ExportedEntry[] {
  if (opts.remove) return [];
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

/** Lines of the earlier export that stay: other roles' when one role is exported (or removed) again. */
function keptLines(text: string | null, role: string | undefined): string[] {
  if (role === undefined || text === null) return [];
  const found = findMarkedBlock(text);
  return found.state === 'found'
    ? blockLines(found.block.body)
        .filter((l) => l.role !== role)
        .map((l) => l.line)
    : [];
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
  const ref = (path: string) => refOf(paths, opts.home, path);
  // Every change is worked out first: a marked block edited by hand stops the export before anything is written.
  const writes: Array<{ path: string; current: string | null; next: string | null }> = [];
  const plan = (path: string, edit: MarkedEdit, current: string | null) => {
    if ('edited' in edit) {
      throw new EchoesError(
        'refused',
        `${ref(path)}: the part export wrote was changed by hand (its text or its markers); export leaves every byte as it is — move your text out of it, or delete it with its markers, and export again`,
      );
    }
    // A file that would hold nothing but the export's own part, now empty, goes; one that never was is not made.
    const next = edit.text.trim() === '' ? null : edit.text;
    if (next === current && current === null) return;
    writes.push({ path, current, next });
  };
  const read = (path: string) => {
    const { text, unreadable } = readForeignText(path);
    if (unreadable) throw new EchoesError('unreadable', `${ref(path)} is not a text file; export left it as it is`);
    return text;
  };
  const blockEdit = (current: string | null, block: string): MarkedEdit =>
    block === '' ? withoutMarkedBlock(current) : withMarkedBlock(current, block);

  let target = paths;
  const topicWrites: Array<{ path: string; next: string | null; current: string | null }> = [];
  if (opts.to === 'claude-md') {
    // The project's CLAUDE.md; .claude/CLAUDE.md when that is the one the project keeps.
    const root = join(paths.project, 'CLAUDE.md');
    const dotted = join(paths.project, '.claude', 'CLAUDE.md');
    const path = !existsSync(root) && existsSync(dotted) ? dotted : root;
    target = withExtraWritable(paths, [path]);
    const current = read(path);
    // Nothing chosen (and nothing to remove): the export there stays as it is.
    if (items.length === 0 && !opts.remove) return report;
    plan(path, blockEdit(current, claudeMdSection(items, day(opts.now), keptLines(current, opts.role))), current);
  } else {
    const dir = autoMemoryDir(paths.project, opts.home, opts.configDir);
    target = withExtraWritable(paths, [dir]);
    const index = join(dir, 'MEMORY.md');
    const current = read(index);
    if (items.length === 0 && !opts.remove) return report;
    plan(index, blockEdit(current, autoMemoryIndexBlock(items, keptLines(current, opts.role))), current);
    const wanted = new Set(items.map(topicFileName));
    for (const item of items) {
      const path = join(dir, topicFileName(item));
      const was = read(path);
      const next = topicFile(item);
      if (was !== null && !isExportTopic(was)) {
        throw new EchoesError('refused', `${ref(path)} was not written by export (or was edited); export leaves it as it is`);
      }
      topicWrites.push({ path, current: was, next });
    }
    // Topic files an earlier export wrote for entries no longer chosen go (of this role only, with --role); nothing else is touched.
    let names: string[] = [];
    try {
      names = readdirSync(dir).filter(
        (n) => n.startsWith(opts.role === undefined ? 'rune-echoes_' : `rune-echoes_${opts.role}_`) && n.endsWith('.md') && !wanted.has(n),
      );
    } catch {
      /* no memory folder yet */
    }
    for (const name of names.sort()) {
      const path = join(dir, name);
      const text = readForeignText(path).text;
      if (text === null || !isExportTopic(text)) continue;
      topicWrites.push({ path, current: text, next: null });
    }
  }

  const apply = (path: string, current: string | null, next: string | null) => {
    const action = next === null ? 'removed' : current === null ? 'created' : current === next ? 'unchanged' : 'updated';
    report.files.push({ file: ref(path), action });
    if (opts.dryRun || action === 'unchanged') return;
    if (next === null) {
      removeFile(target, path);
      return;
    }
    writeFileAtomic(target, path, next);
    // What export wrote is not memory to adopt: a file that had nothing new before still has nothing new.
    if (current === null || ledger.files.get(path) === sha256(current)) {
      appendLedger(paths, { ts: opts.now.toISOString(), kind: 'export', path, sha: sha256(next), role: '', items: [] });
    }
  };
  for (const w of topicWrites) apply(w.path, w.current, w.next);
  for (const w of writes) apply(w.path, w.current, w.next);
  if (opts.to === 'auto-memory' && !opts.dryRun) noteAutoMemoryExport(paths, opts);
  return report;
}

/** A topic file export wrote: its key in the frontmatter, under `metadata:` or (older exports) at the top. */
function isExportTopic(text: string): boolean {
  const fm = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1] ?? '';
  return new RegExp(`^(?:  )?${EXPORT_TOPIC_KEY}:`, 'm').test(fm);
}

/** Which entries auto memory now holds: the topic files export wrote there, by `role/id`. */
function noteAutoMemoryExport(paths: EchoPaths, opts: ExportOptions): void {
  const dir = autoMemoryDir(paths.project, opts.home, opts.configDir);
  let keys: string[] = [];
  try {
    keys = readdirSync(dir)
      .map((n) => /^rune-echoes_([a-z0-9][a-z0-9-]*)_(.+)\.md$/.exec(n))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => `${m[1]}/${m[2]}`)
      .sort();
  } catch {
    /* no folder */
  }
  writeFileAtomic(paths, autoMemoryExportFile(paths), `${JSON.stringify({ dir, keys })}\n`);
}
