// echo_ref (SPEC §11): `<echo_path>#<entry_id>@sha256:<hash>` ties a solution
// document to the entry it was promoted from, and tells when that entry has
// changed since. The hash is over a canonical form of the entry's content, so
// re-verifying it (a new `verified` date, a higher confidence) is not a change.
//
// Canonical form, version 1 — one `key: value` line per field, in this order:
//   id, kind, title, symptom, root_cause, solution, evidence, tags, learning
// Each value has its whitespace (line breaks included) collapsed to single
// spaces and is trimmed; tags are joined with ", " in the order written; an
// absent field is written with an empty value. Lines are joined with "\n",
// with no final newline, and hashed as UTF-8 with SHA-256 (lower-case hex).
// Left out on purpose: date, verified, confidence, layer, source, supersedes
// and status, which change as an entry ages without changing what it says.

import type { EchoEntry } from '../entry/echo-entry.ts';

export function canonicalEntryText(e: EchoEntry): string {
  const one = (v: string | undefined) => (v ?? '').replace(/\s+/g, ' ').trim();
  return [
    `id: ${one(e.id)}`,
    `kind: ${one(e.kind)}`,
    `title: ${one(e.title)}`,
    `symptom: ${one(e.symptom)}`,
    `root_cause: ${one(e.rootCause)}`,
    `solution: ${one(e.solution)}`,
    `evidence: ${one(e.evidence)}`,
    `tags: ${e.tags.map((t) => one(t)).join(', ')}`,
    `learning: ${one(e.learning)}`,
  ].join('\n');
}

export interface EchoRef {
  /** Path of the memory file relative to the project: `.claude/echoes/<role>/MEMORY.md`. */
  path: string;
  role: string;
  id: string;
  /** Hex SHA-256 of the canonical form, when the reference carries one. */
  hash?: string;
}

export const echoMemoryPath = (role: string) => `.claude/echoes/${role}/MEMORY.md`;

export function formatEchoRef(role: string, id: string, hash: string): string {
  return `${echoMemoryPath(role)}#${id}@sha256:${hash}`;
}

/**
 * What a user may type for an entry: `role/MEMORY.md#id`, `role#id`, a full
 * echo_ref (`.claude/echoes/role/MEMORY.md#id@sha256:…`), or a bare id or id
 * prefix (role and id left for the caller to resolve: `role` is '').
 * Returns null for anything else.
 */
export function parseEchoRef(text: string): EchoRef | null {
  const m =
    /^(?:(?:\.claude\/)?echoes\/)?(?:([a-z0-9][a-z0-9-]{0,63})(?:\/MEMORY\.md)?#)?([a-z0-9][a-z0-9-]*)(?:@sha256:([0-9a-f]{64}))?$/.exec(
      text.trim(),
    );
  if (!m) return null;
  const role = m[1] ?? '';
  return { path: role ? echoMemoryPath(role) : '', role, id: m[2]!, ...(m[3] ? { hash: m[3] } : {}) };
}
