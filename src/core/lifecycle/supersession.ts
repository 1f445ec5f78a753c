// `supersedes` (SPEC §8): an entry that names another as superseded retires it
// at once — it leaves the digest and recall, consolidation moves it to the
// archive with a pointer to its successor, and search ranks it below. Pure:
// the callers hand in every role's entries.

import type { EchoEntry } from '../entry/echo-entry.ts';
import { entryDayMs } from './echo-score.ts';
import { usageKey } from './usage-events.ts';

export interface RoleEntry {
  role: string;
  entry: EchoEntry;
}

const NONE = /^(?:none|n\/a|-|—)?$/i;
const QUALIFIED = /^([a-z0-9][a-z0-9-]{0,63})(?:\/MEMORY\.md)?#([a-z0-9][a-z0-9-]*)$/;
const BARE = /^[a-z0-9][a-z0-9-]*$/;

/**
 * The entries a `supersedes` value names, as usage keys: `old-id` (same role
 * as the entry that says it), `role#old-id` or `role/MEMORY.md#old-id` (any
 * role), several separated by commas. `none` and anything else name nothing.
 */
export function supersededKeys(value: string, role: string): string[] {
  const out: string[] = [];
  for (const raw of value.split(/[,\s]+/)) {
    const part = raw.trim().replace(/^`|`$/g, '');
    if (NONE.test(part)) continue;
    const q = QUALIFIED.exec(part);
    if (q) out.push(usageKey(q[1]!, q[2]!));
    else if (BARE.test(part)) out.push(usageKey(role, part));
  }
  return out;
}

/**
 * Retired entry (usage key) → the key of the entry that retired it. Only a
 * live entry (no status) retires; an entry never retires itself; and when two
 * entries name each other, the newer stays (by verified date, else heading
 * date; on the same day, the one written later).
 */
export function retiredEntries(items: readonly RoleEntry[]): Map<string, string> {
  const byKey = new Map<string, { entry: EchoEntry; at: number }>();
  items.forEach(({ role, entry }, at) => {
    byKey.set(usageKey(role, entry.id), { entry, at });
  });
  const claims = new Map<string, string[]>();
  for (const { role, entry } of items) {
    if (entry.status !== undefined || !entry.supersedes) continue;
    const from = usageKey(role, entry.id);
    for (const target of supersededKeys(entry.supersedes, role)) {
      if (target === from) continue;
      claims.set(from, [...(claims.get(from) ?? []), target]);
    }
  }
  const retired = new Map<string, string>();
  for (const [from, targets] of claims) {
    for (const target of targets) {
      const back = claims.get(target)?.includes(from) === true;
      if (back && newer(byKey.get(target), byKey.get(from))) continue;
      if (!retired.has(target)) retired.set(target, from);
    }
  }
  return retired;
}

/** True when `a` is newer than `b` (an unknown date is oldest). */
function newer(a: { entry: EchoEntry; at: number } | undefined, b: { entry: EchoEntry; at: number } | undefined): boolean {
  if (!a || !b) return a !== undefined;
  const am = entryDayMs(a.entry) ?? -Infinity;
  const bm = entryDayMs(b.entry) ?? -Infinity;
  return am !== bm ? am > bm : a.at > b.at;
}
