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
  /** A teammate's entry (SPEC §6b: it came through git without this clone's mark), as the store judged it. */
  teammate?: boolean;
  /** This clone's etched entry as it wrote it, given again because a teammate's commit changed or removed it. */
  restored?: 'changed' | 'removed';
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

/** One live entry's `supersedes`: who claims, which keys, and how new the claimer is. */
export interface SupersedesClaim {
  from: string;
  targets: readonly string[];
  /** Verified date, else heading date (ms); null when it has none (oldest). */
  dayMs: number | null;
  /** Place in the store (roles by name, then entries in file order): the later is newer on the same day. */
  order: number;
}

/**
 * Retired entry (usage key) → the key of the entry that retired it. Only a
 * live entry (no status) retires; an entry never retires itself; and entries
 * that name each other — two, or a longer cycle — never retire all of them:
 * the newest of the cycle stays (by verified date, else heading date; on the
 * same day, the one written later). Pure: `show`, the digest, consolidation,
 * search and recall all decide by it.
 */
export function resolveRetirements(claims: readonly SupersedesClaim[]): Map<string, string> {
  const byFrom = new Map<string, SupersedesClaim>();
  for (const c of claims) if (!byFrom.has(c.from)) byFrom.set(c.from, c);
  const edges = (from: string) => (byFrom.get(from)?.targets ?? []).filter((t) => t !== from && byFrom.has(t));
  const winner = cycleWinners([...byFrom.keys()], edges, (a, b) => newerClaim(byFrom.get(a)!, byFrom.get(b)!));
  const retired = new Map<string, string>();
  for (const c of [...byFrom.values()].sort((a, b) => a.order - b.order)) {
    for (const target of c.targets) {
      if (target === c.from) continue;
      // A cycle's newest member is not retired by another member of the same cycle.
      const w = winner.get(target);
      if (w !== undefined && w === target && winner.get(c.from) === w) continue;
      if (!retired.has(target)) retired.set(target, c.from);
    }
  }
  return retired;
}

/** The same over a store's entries (every role's). */
export function retiredEntries(items: readonly RoleEntry[]): Map<string, string> {
  return resolveRetirements(claimsOf(items));
}

/**
 * Only the people who can etch retire an etched entry: a teammate's `supersedes` naming one of this
 * clone's etched entries is not applied, only shown. Retained entry (usage key) → the teammate's entry
 * that claims it.
 */
export function heldSupersessions(items: readonly RoleEntry[]): Map<string, string> {
  const held = new Map<string, string>();
  const own = ownEtched(items);
  if (own.size === 0) return held;
  for (const { role, entry, teammate } of items) {
    if (!teammate || entry.status !== undefined || !entry.supersedes) continue;
    for (const t of supersededKeys(entry.supersedes, role)) if (own.has(t) && !held.has(t)) held.set(t, usageKey(role, entry.id));
  }
  return held;
}

/** Usage keys of this clone's etched entries. */
function ownEtched(items: readonly RoleEntry[]): Set<string> {
  return new Set(items.filter((it) => !it.teammate && it.entry.layer === 'etched').map((it) => usageKey(it.role, it.entry.id)));
}

/** The `supersedes` claims of the live entries, in the order resolveRetirements breaks ties by (a teammate's never names this clone's etched entries). */
export function claimsOf(items: readonly RoleEntry[]): SupersedesClaim[] {
  const sorted = items.map((it, i) => ({ ...it, i })).sort((a, b) => (a.role < b.role ? -1 : a.role > b.role ? 1 : a.i - b.i));
  const own = items.some((it) => it.teammate) ? ownEtched(items) : new Set<string>();
  const out: SupersedesClaim[] = [];
  sorted.forEach(({ role, entry, teammate }, order) => {
    if (entry.status !== undefined || !entry.supersedes) return;
    const targets = supersededKeys(entry.supersedes, role).filter((t) => !(teammate && own.has(t)));
    if (targets.length) out.push({ from: usageKey(role, entry.id), targets, dayMs: entryDayMs(entry), order });
  });
  return out;
}

function newerClaim(a: SupersedesClaim, b: SupersedesClaim): boolean {
  const am = a.dayMs ?? -Infinity;
  const bm = b.dayMs ?? -Infinity;
  return am !== bm ? am > bm : a.order > b.order;
}

/**
 * For each node in a cycle (a strongly connected set of more than one), the
 * newest node of that set; nodes in no cycle are absent. Tarjan's algorithm,
 * iterative so a long chain cannot overflow the stack.
 */
function cycleWinners(
  nodes: readonly string[],
  edges: (n: string) => readonly string[],
  newer: (a: string, b: string) => boolean,
): Map<string, string> {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out = new Map<string, string>();
  let next = 0;
  for (const root of nodes) {
    if (index.has(root)) continue;
    const work: Array<{ node: string; i: number }> = [{ node: root, i: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length) {
      const top = work[work.length - 1]!;
      const out_ = edges(top.node);
      if (top.i < out_.length) {
        const m = out_[top.i++]!;
        if (!index.has(m)) {
          index.set(m, next);
          low.set(m, next++);
          stack.push(m);
          onStack.add(m);
          work.push({ node: m, i: 0 });
        } else if (onStack.has(m)) low.set(top.node, Math.min(low.get(top.node)!, index.get(m)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(top.node)!));
      if (low.get(top.node) !== index.get(top.node)) continue;
      const members: string[] = [];
      for (;;) {
        const m = stack.pop()!;
        onStack.delete(m);
        members.push(m);
        if (m === top.node) break;
      }
      if (members.length < 2) continue;
      const best = members.reduce((a, b) => (newer(b, a) ? b : a));
      for (const m of members) out.set(m, best);
    }
  }
  return out;
}
