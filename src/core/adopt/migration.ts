// `migrate` on one memory document (seed 000 RENAME-2, seed 004's upgrade
// ladder): the schema rungs from the version a file is stamped with (none:
// Rune's original format) up to the current one, then the renames in
// metadata. Every step is idempotent and reports each change by line; the
// learning text and the title are never touched.

import { updateEntryFields, upgradeToV2 } from '../entry/document-edits.ts';
import type { EchoDocument } from '../entry/echo-document.ts';
import type { EchoEntry } from '../entry/echo-entry.ts';
import { applyRenames, type RenameMap } from './renames.ts';

/** The schema every memory file is brought to. */
export const CURRENT_SCHEMA = 'v2';

interface Rung {
  from: ReadonlyArray<EchoDocument['schema']>;
  to: 'v2';
  run: (doc: EchoDocument) => { doc: EchoDocument; changed: string[] };
}

/** The ladder (seed 004): one rung per schema step, run in order; a file already at the top skips it. */
const LADDER: readonly Rung[] = [{ from: [null, 'v1'], to: 'v2', run: upgradeToV2 }];

/** Metadata fields a rename may rewrite (SPEC §10): never the learning, the title or the id. */
export const RENAMED_FIELDS = ['source', 'evidence', 'supersedes'] as const;

export interface MigrationResult {
  doc: EchoDocument;
  /** One line per change: `line 12: wrote id "x" …`, `line 40 (id): source "a" → "b"`. */
  changes: string[];
}

export function migrateDocument(doc: EchoDocument, opts: { renames: RenameMap; upgrade: boolean }): MigrationResult {
  const changes: string[] = [];
  let next = doc;
  if (opts.upgrade) {
    for (const rung of LADDER) {
      // A file with entries but no stamp, or an older stamp, climbs; an up-to-date one still gets ids it lacks.
      const needs = rung.from.includes(next.schema) || next.blocks.some((b) => b.type === 'entry' && !b.entry.idExplicit);
      if (!needs) continue;
      const step = rung.run(next);
      next = step.doc;
      changes.push(...step.changed);
    }
  }
  if (opts.renames.size > 0) {
    const ids = next.blocks.flatMap((b) => (b.type === 'entry' ? [b.entry.id] : []));
    for (const id of ids) {
      const block = next.blocks.find((b) => b.type === 'entry' && b.entry.id === id);
      if (block?.type !== 'entry') continue;
      const e = block.entry;
      const update: Partial<Pick<EchoEntry, (typeof RENAMED_FIELDS)[number]>> = {};
      for (const field of RENAMED_FIELDS) {
        const renamed = applyRenames(e[field], opts.renames);
        if (renamed !== e[field]) {
          update[field] = renamed;
          changes.push(`line ${block.line} (${e.id}): ${field} ${JSON.stringify(e[field])} → ${JSON.stringify(renamed)}`);
        }
      }
      if (Object.keys(update).length > 0) next = updateEntryFields(next, e.id, update);
    }
  }
  return { doc: next, changes };
}
