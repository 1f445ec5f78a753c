// `rune-echoes import` (issue 12): read the memory other tools wrote, show
// per source and role what would come in, and on the real run add the new
// entries through the normal write path (security filter, consolidation,
// ids). Sources are only ever read. The ledger makes a re-run import
// nothing twice; a source that cannot be read is a one-line note and the
// others are still imported.
import { statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { detectKind, readSource } from '../../core/adopt/read-source.ts';
import { entriesOf, SOURCE_KINDS, type SourceKind, type SourceReading, verbatimOf } from '../../core/adopt/source-reading.ts';
import type { EchoesConfig } from '../../core/config/config-defaults.ts';
import { countLines } from '../../core/entry/echo-document.ts';
import type { EchoEntry } from '../../core/entry/echo-entry.ts';
import { EchoesError } from '../../core/errors.ts';
import { oneLine } from '../../core/text.ts';
import { readForeignText } from '../fs/atomic-file.ts';
import { assertSafeName, type EchoPaths } from '../fs/echo-paths.ts';
import { addEntries } from '../memory/role-edits.ts';
import { appendLedger, itemKey, readLedger, sha256 } from './import-ledger.ts';
import { type FoundSource, findSources, namedSource, oldFormatRoleFiles, projectMemoryDirSettings } from './memory-sources.ts';

export interface SourceReport {
  kind: SourceKind | null;
  ref: string;
  role: string;
  /** Entries the file holds, and how many of them were never imported. */
  entries: number;
  fresh: number;
  verbatimParts: number;
  verbatimLines: number;
  notes: string[];
  /** Set when the file could not be read at all. */
  unreadable?: string;
}

export interface ImportReport {
  dryRun: boolean;
  sources: SourceReport[];
  /** This store's role files still in the old format: `migrate` is their way in. */
  oldFormat: Array<{ role: string; ref: string }>;
  /** The project's settings files that set `autoMemoryDirectory`, which is not followed (a clone must not move auto memory). */
  ignoredSettings: string[];
  /** Per role, after a real run: ids added, entries merged into ones already there, forgotten ones left out. */
  roles: Array<{ role: string; added: string[]; merged: number; forgotten: number; stripped: number; linesAfter: number }>;
}

export interface ImportOptions {
  dryRun: boolean;
  now: Date;
  home: string;
  /** Claude Code's folder for this user (`CLAUDE_CONFIG_DIR`, else ~/.claude). */
  configDir?: string;
  /** Source kinds or file paths; all found sources when empty. */
  only: string[];
  role?: string;
}

interface ReadSource {
  src: FoundSource;
  report: SourceReport;
  sha: string;
  entries: Array<{ key: string; entry: EchoEntry }>;
}

/** A memory file is kilobytes; past this a file is not memory (and reading it would hold the rest up). */
const MAX_SOURCE_BYTES = 4 * 1048576;

const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The sources to read: everything found, or what the user named (kinds or paths). */
function selectSources(paths: EchoPaths, opts: ImportOptions, agents: Readonly<Record<string, string>>): FoundSource[] {
  const found = findSources(paths, opts.home, opts.configDir, agents);
  if (opts.only.length === 0) return found;
  const out: FoundSource[] = [];
  for (const arg of opts.only) {
    if ((SOURCE_KINDS as readonly string[]).includes(arg)) {
      out.push(...found.filter((s) => s.kind === arg));
      continue;
    }
    const named = namedSource(paths, opts.home, arg, agents);
    let isFile = false;
    try {
      isFile = statSync(named.path).isFile();
    } catch {
      /* below */
    }
    if (!isFile) {
      throw new EchoesError('bad-argument', `import: "${arg}" is neither a file nor a source kind (${SOURCE_KINDS.join(', ')})`);
    }
    // A file `import` finds by itself is read as it would find it (its kind, role and topic files): the same
    // facts then have the same keys, and naming it again imports nothing twice.
    const known = found.find((f) => f.path === named.path);
    out.push(known ?? { ...named, kind: 'auto-memory', detect: true });
  }
  return out;
}

function readOne(src: FoundSource, role: string, ledger: ReturnType<typeof readLedger>, seen: Set<string>): ReadSource {
  const base: SourceReport = {
    kind: src.detect ? null : src.kind,
    ref: src.ref,
    role: src.role,
    entries: 0,
    fresh: 0,
    verbatimParts: 0,
    verbatimLines: 0,
    notes: [],
  };
  let text: string | null = null;
  let mtime = 0;
  try {
    const size = statSync(src.path).size;
    if (size > MAX_SOURCE_BYTES) {
      base.unreadable = `${(size / 1048576).toFixed(1)} MB, more than the ${MAX_SOURCE_BYTES / 1048576} MB a memory file may have`;
    } else {
      const got = readForeignText(src.path);
      if (got.unreadable) base.unreadable = 'not text (binary or not UTF-8)';
      text = got.text;
      mtime = statSync(src.path).mtimeMs;
    }
  } catch (err) {
    base.unreadable = (err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message : String(err));
  }
  if (text === null) {
    base.notes.push(`${src.ref}: cannot be read (${base.unreadable ?? 'gone'}); skipped`);
    return { src, report: base, sha: '', entries: [] };
  }
  try {
    return readText(src, text, mtime, role, ledger, seen, base);
  } catch (err) {
    // Whatever one source does to a reader, the others are still imported.
    base.unreadable = oneLine(err instanceof Error ? err.message : String(err));
    base.entries = 0;
    base.fresh = 0;
    base.notes.push(`${src.ref}: cannot be read (${base.unreadable}); skipped`);
    return { src, report: base, sha: '', entries: [] };
  }
}

function readText(
  src: FoundSource,
  text: string,
  mtime: number,
  role: string,
  ledger: ReturnType<typeof readLedger>,
  seen: Set<string>,
  base: SourceReport,
): ReadSource {
  const kind = src.detect ? detectKind(src.path, text) : src.kind;
  base.kind = kind;
  const agent = kind === 'agent-memory' ? basename(dirname(src.path)) : '';
  const reading: SourceReading = readSource(kind, src.path, text, {
    ref: src.ref,
    fileDay: day(mtime),
    source: agent ? `agent-memory:${agent}` : kind,
    ...(src.topicFiles ? { topicFiles: new Set(src.topicFiles) } : {}),
  });
  const entries: Array<{ key: string; entry: EchoEntry }> = [];
  for (const part of entriesOf(reading)) {
    const key = itemKey(kind, part.raw);
    base.entries++;
    // Once per role: the same fact in two agents' memory reaches both roles.
    if (ledger.items.get(key)?.has(role) || seen.has(`${role}\u0000${key}`)) continue;
    seen.add(`${role}\u0000${key}`);
    entries.push({ key, entry: part.entry });
  }
  base.fresh = entries.length;
  const verbatim = verbatimOf(reading).filter((p) => p.raw.trim() !== '');
  base.verbatimParts = verbatim.length;
  base.verbatimLines = verbatim.reduce((n, p) => n + countLines(p.raw), 0);
  base.notes.push(...reading.notes);
  return { src, report: base, sha: sha256(text), entries };
}

export function importMemory(paths: EchoPaths, config: EchoesConfig, opts: ImportOptions): ImportReport {
  if (opts.role !== undefined) assertSafeName(opts.role, 'role');
  const sources = selectSources(paths, opts, config.agents);
  const ledger = readLedger(paths);
  const seen = new Set<string>();
  const read = sources.map((s) => readOne(s, opts.role ?? s.role, ledger, seen));
  if (opts.role) for (const r of read) r.report.role = opts.role;
  const report: ImportReport = {
    dryRun: opts.dryRun,
    sources: read.map((r) => r.report),
    oldFormat: oldFormatRoleFiles(paths).map((f) => ({ role: f.role, ref: `.claude/echoes/${f.role}/MEMORY.md` })),
    ignoredSettings: projectMemoryDirSettings(paths.project),
    roles: [],
  };
  if (opts.dryRun) return report;

  const byRole = new Map<string, ReadSource[]>();
  for (const r of read) byRole.set(r.report.role, [...(byRole.get(r.report.role) ?? []), r]);
  for (const [role, group] of byRole) {
    const entries = group.flatMap((r) => r.entries.map((e) => e.entry));
    if (entries.length > 0) {
      try {
        const { report: done, forgotten, stripped } = addEntries(paths, config, role, entries, { keepIds: true, skipForgotten: true });
        report.roles.push({
          role,
          added: done.appended,
          merged: entries.length - forgotten - done.appended.length,
          forgotten,
          stripped,
          linesAfter: done.linesAfter,
        });
      } catch (err) {
        // One role that cannot take its entries (its MEMORY.md has conflict markers, is not text …) fails alone.
        const why = oneLine(err instanceof Error ? err.message : String(err));
        for (const r of group) if (r.entries.length) r.report.notes.push(`${r.src.ref}: not imported into ${role} (${why})`);
        continue;
      }
    }
    // Only once MEMORY.md holds them: a run killed before this line merges them by evidence next time.
    for (const r of group) {
      if (r.sha === '') continue;
      appendLedger(paths, {
        ts: opts.now.toISOString(),
        kind: r.report.kind ?? '',
        path: r.src.path,
        sha: r.sha,
        role,
        items: r.entries.map((e) => e.key),
      });
    }
  }
  return report;
}
