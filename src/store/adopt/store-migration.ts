// `rune-echoes migrate` over the whole store (seed 000 RENAME-2, seed 004):
// each role's MEMORY.md and knowledge.md climb the schema ladder to v2 (ids
// written, header stamped), and renames rewrite source, evidence and
// supersedes there and in the archives of pruned and forgotten entries.
// Under each role's lock; every file that changes is backed up first; a
// report lists every change; a second run finds nothing to do. Backups and
// findings files are never touched.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { migrateDocument } from '../../core/adopt/migration.ts';
import type { RenameMap } from '../../core/adopt/renames.ts';
import { parseEchoDocument, serializeEchoDocument } from '../../core/entry/echo-document.ts';
import { compareText } from '../../core/text.ts';
import { readTextFile, writeFileAtomic } from '../fs/atomic-file.ts';
import { archiveDir, type EchoPaths, knowledgeFile, memoryFile } from '../fs/echo-paths.ts';
import { withLock } from '../fs/role-lock.ts';
import { day, writeBackup } from '../memory/memory-files.ts';
import { listRoles } from '../memory/role-listing.ts';

export interface FileMigration {
  /** Path under .claude/echoes/. */
  file: string;
  changes: string[];
  /** Where the file was backed up before it changed (real runs only). */
  backup?: string;
  /** Set when the file could not be read as text: left as it is. */
  skipped?: string;
}

export interface MigrationReport {
  dryRun: boolean;
  renames: Array<[string, string]>;
  files: FileMigration[];
}

/** The files of a role migrate reads: memory and knowledge climb the ladder; archives only get renames. */
function roleFiles(paths: EchoPaths, role: string): Array<{ path: string; upgrade: boolean; backupStem: string }> {
  const files = [
    { path: memoryFile(paths, role), upgrade: true, backupStem: 'migrate' },
    { path: knowledgeFile(paths, role), upgrade: true, backupStem: 'migrate-knowledge' },
  ];
  let archived: string[] = [];
  try {
    archived = readdirSync(archiveDir(paths, role)).sort(compareText);
  } catch {
    /* no archive yet */
  }
  // Backups (MEMORY-*.md) and unparsed findings stay exactly as they were saved.
  for (const name of archived) {
    if (!name.endsWith('.md') || name.startsWith('MEMORY-') || name.startsWith('unparsed-')) continue;
    files.push({ path: join(archiveDir(paths, role), name), upgrade: false, backupStem: `migrate-${name.replace(/\.md$/, '')}` });
  }
  return files;
}

export function migrateStore(paths: EchoPaths, opts: { renames: RenameMap; dryRun: boolean; now: Date }): MigrationReport {
  const report: MigrationReport = { dryRun: opts.dryRun, renames: [...opts.renames], files: [] };
  for (const role of listRoles(paths)) {
    const run = () => {
      for (const f of roleFiles(paths, role)) {
        const rel = f.path.slice(paths.echoes.length + 1);
        const { text, unreadable } = readTextFile(paths, f.path);
        if (unreadable) {
          report.files.push({ file: rel, changes: [], skipped: 'not text (binary or not UTF-8); left as it is' });
          continue;
        }
        if (text === null) continue;
        const { doc, changes } = migrateDocument(parseEchoDocument(text), { renames: opts.renames, upgrade: f.upgrade });
        if (changes.length === 0) continue;
        const entry: FileMigration = { file: rel, changes };
        if (!opts.dryRun) {
          // A backup first, named like the others so search and status treat it as one.
          entry.backup = writeBackup(paths, role, `MEMORY-${day(opts.now)}-${f.backupStem}`, text).slice(paths.echoes.length + 1);
          writeFileAtomic(paths, f.path, serializeEchoDocument(doc));
        }
        report.files.push(entry);
      }
    };
    if (opts.dryRun) run();
    else withLock(paths, `role-${role}`, run);
  }
  return report;
}
