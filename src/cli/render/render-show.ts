// Text for `show`: one table per role, then a totals line.
import type { EchoEntry } from '../../core/entry/echo-entry.ts';
import type { EntryScore } from '../../core/lifecycle/echo-score.ts';
import { renderTable } from './render-table.ts';

export interface ShowRole {
  role: string;
  lines: number;
  maxLines: number;
  verbatimBlocks: number;
  total: number;
  error?: string | undefined;
  rows: Array<{ entry: EchoEntry; score: EntryScore }>;
}

const age = (days: number | null) => (days === null ? '?' : `${Math.floor(days)}d`);

export function renderShow(roles: ShowRole[]): string {
  if (roles.length === 0) return 'No echoes yet. Agents add findings with `rune-echoes record`; you can add one with `rune-echoes remember`.\n';
  const out: string[] = [];
  for (const r of roles) {
    out.push(`## ${r.role}  (${r.total} entries, ${r.lines}/${r.maxLines} lines${r.verbatimBlocks ? `, ${r.verbatimBlocks} blocks kept verbatim` : ''})\n`);
    if (r.error) {
      out.push(`  ! ${r.error}\n\n`);
      continue;
    }
    if (r.rows.length === 0) {
      out.push('  (no entries)\n\n');
      continue;
    }
    const rows = r.rows.map(({ entry, score }) => [
      entry.layer + (entry.status ? ` (${entry.status})` : ''),
      score.score.toFixed(2),
      age(score.ageDays),
      entry.id,
      entry.title,
      entry.evidence || '—',
    ]);
    out.push(renderTable(['layer', 'score', 'age', 'id', 'title', 'evidence'], rows, [20, 5, 6, 40, 50, 60]) + '\n');
  }
  const total = roles.reduce((s, r) => s + r.total, 0);
  out.push(`${total} entries in ${roles.length} role(s)\n`);
  return out.join('');
}
