// Finds the entry a user named (SPEC §10: every command that takes an id
// accepts a unique prefix): `role/MEMORY.md#id`, `role#id`, a full echo_ref,
// an id, or the start of one.
import type { EchoEntry } from '../../core/entry/echo-entry.ts';
import { EchoesError } from '../../core/errors.ts';
import { parseEchoRef } from '../../core/remembrance/echo-ref.ts';
import type { EchoPaths } from '../fs/echo-paths.ts';
import { readAllEntries } from './memory-files.ts';

export function findEntry(paths: EchoPaths, ref: string): { role: string; entry: EchoEntry } {
  const parsed = parseEchoRef(ref);
  if (parsed === null) {
    throw new EchoesError(
      'bad-argument',
      `"${ref}" is not an entry reference; use role/MEMORY.md#id, role#id or an id (see rune-echoes show)`,
    );
  }
  const { roles } = readAllEntries(paths);
  const pool = roles.filter((r) => parsed.role === '' || r.role === parsed.role);
  if (parsed.role !== '' && pool.length === 0)
    throw new EchoesError('not-found', `no role "${parsed.role}" (roles: ${roles.map((r) => r.role).join(', ') || 'none'})`);
  const exact = pool.flatMap((r) => r.entries.filter((e) => e.id === parsed.id).map((entry) => ({ role: r.role, entry })));
  const found =
    exact.length > 0
      ? exact
      : pool.flatMap((r) => r.entries.filter((e) => e.id.startsWith(parsed.id)).map((entry) => ({ role: r.role, entry })));
  if (found.length === 1) return found[0]!;
  if (found.length === 0) throw new EchoesError('not-found', `no entry matches "${ref}"; list ids with rune-echoes show`);
  const names = found.slice(0, 5).map((f) => `${f.role}#${f.entry.id}`);
  throw new EchoesError(
    'bad-argument',
    `"${ref}" matches ${found.length} entries (${names.join(', ')}${found.length > 5 ? ', …' : ''}); give more of the id or role#id`,
  );
}
