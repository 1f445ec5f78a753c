// Text for `show`: one table per role, then a totals line. The entry columns
// come from the field table; score and age are computed.
import type { EchoEntry } from '../../core/entry/echo-entry.ts';
import { ENTRY_FIELDS } from '../../core/entry/entry-fields.ts';
import type { EntryScore } from '../../core/lifecycle/echo-score.ts';
import { staleNote } from '../../core/lifecycle/evidence-staleness.ts';
import { plural } from '../../core/text.ts';
import { renderTable } from './render-table.ts';

export interface ShowRole {
  role: string;
  lines: number;
  maxLines: number;
  verbatimBlocks: number;
  total: number;
  error?: string | undefined;
  rows: ShowRow[];
}

export interface ShowRow {
  entry: EchoEntry;
  score: EntryScore;
  /** Its evidence changed after this day, when it was last checked. */
  staleSince?: string;
  /** The usage key of the entry whose `supersedes` retires it. */
  supersededBy?: string;
}

type Row = ShowRow;

interface Column {
  header: string;
  width: number;
  order: number;
  hideEmpty?: boolean;
  cell: (row: Row) => string;
}

const age = (days: number | null) => (days === null ? '?' : `${Math.floor(days)}d`);

function fieldCell(prop: keyof EchoEntry, row: Row): string {
  const { entry } = row;
  const v = entry[prop];
  const text = Array.isArray(v) ? v.join(', ') : v === undefined || v === '' ? '—' : String(v);
  if (prop !== 'layer') return text;
  const status = entry.status ?? (row.supersededBy ? 'superseded' : row.staleSince ? 'stale' : undefined);
  return status ? `${text} (${status})` : text;
}

// How often the entry was given to the model and how often a session used it (usage.jsonl):
// only use counts for its score.
const COMPUTED: Column[] = [
  { header: 'score', width: 5, order: 2, cell: (r) => r.score.score.toFixed(2) },
  { header: 'age', width: 6, order: 3, cell: (r) => age(r.score.ageDays) },
  { header: 'given', width: 6, order: 7, cell: (r) => String(r.score.injected) },
  { header: 'used', width: 6, order: 8, cell: (r) => String(r.score.used) },
];
const FIELD_COLUMNS: Column[] = ENTRY_FIELDS.flatMap((f) => (f.column ? [{ ...f.column, cell: (r: Row) => fieldCell(f.prop, r) }] : []));

/** One line under the table for each entry that needs a look: stale evidence, or retired by another. */
function notes(rows: Row[]): string[] {
  const out: string[] = [];
  for (const r of rows) {
    if (r.supersededBy)
      out.push(`  ! ${r.entry.id}: superseded by ${r.supersededBy}; it leaves MEMORY.md for the archive between sessions\n`);
    else if (r.staleSince)
      out.push(`  ! ${r.entry.id}: ${staleNote(r.staleSince)} — check it against the code, then rune-echoes verify ${r.entry.id}\n`);
  }
  return out;
}
const COLUMNS = [...COMPUTED, ...FIELD_COLUMNS].sort((a, b) => a.order - b.order);

/** `layer`: the rows are only that layer's entries (`show --layer`), and the counts say so. */
export function renderShow(roles: ShowRole[], layer?: string): string {
  if (roles.length === 0)
    return 'No echoes yet. Agents add findings with `rune-echoes record`; you can add one with `rune-echoes remember`.\n';
  const out: string[] = [];
  for (const r of roles) {
    const count =
      layer === undefined ? plural(r.total, 'entry', 'entries') : `${r.rows.length} ${layer} of ${plural(r.total, 'entry', 'entries')}`;
    out.push(
      `## ${r.role}  (${count}, ${r.lines}/${r.maxLines} lines${r.verbatimBlocks ? `, ${plural(r.verbatimBlocks, 'block')} kept verbatim` : ''})\n`,
    );
    if (r.error) {
      out.push(`  ! ${r.error}\n\n`);
      continue;
    }
    if (r.rows.length === 0) {
      out.push(layer === undefined ? '  (no entries)\n\n' : `  (no ${layer} entries)\n\n`);
      continue;
    }
    // A column only some entries have (captured) is shown where one of them is.
    const columns = COLUMNS.filter((c) => !c.hideEmpty || r.rows.some((row) => c.cell(row) !== '—'));
    const rows = r.rows.map((row) => columns.map((c) => c.cell(row)));
    out.push(
      renderTable(
        columns.map((c) => c.header),
        rows,
        columns.map((c) => c.width),
      ),
      ...notes(r.rows),
      '\n',
    );
  }
  const total = roles.reduce((s, r) => s + r.total, 0);
  const shown = roles.reduce((s, r) => s + r.rows.length, 0);
  out.push(
    layer === undefined
      ? `${plural(total, 'entry', 'entries')} in ${plural(roles.length, 'role')}\n`
      : `${plural(shown, `${layer} entry`, `${layer} entries`)} (of ${total}) in ${plural(roles.length, 'role')}\n`,
  );
  return out.join('');
}
