// A captured lesson seen again (SPEC §6a): the sighting merges into the entry
// by signature, the sessions that saw it grow, and with them confidence and
// layer — traced until a second session sees it, inscribed from then on,
// never etched (only the user etches). The project's commands are one living
// entry whose lines the newer sighting replaces kind by kind. Pure.

import type { EchoEntry } from '../entry/echo-entry.ts';

/** Short session ids kept on an entry: enough to tell "seen in N sessions" and where. */
export const SESSIONS_KEPT = 8;
const CONFIDENCE_STEP = 0.1;
const CONFIDENCE_CAP = 0.9;

export function sessionList(value: string | undefined): string[] {
  return (value ?? '')
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

// `- build: \`npm run build\`` — one line per kind (and folder) in the commands entry.
const COMMAND_LINE = /^(?:-\s*)?([\p{L}-]+(?: \(in [^)]*\))?):\s*(.+)$/u;

/** The commands entry's lines merged: the newer sighting's line for a kind replaces the older, the rest stay. */
export function mergeCommandLines(older: string, newer: string): string {
  const lines = new Map<string, string>();
  const loose: string[] = [];
  for (const text of [older, newer])
    for (const raw of text.split(/\r?\n/)) {
      const line = raw.trim();
      if (!line) continue;
      const m = COMMAND_LINE.exec(line);
      if (m) {
        lines.delete(m[1]!);
        lines.set(m[1]!, line.replace(/^-\s*/, ''));
      } else if (!loose.includes(line)) loose.push(line);
    }
  return [...loose, ...lines.values()].join('\n');
}

function laterDay(a: string, b: string): string {
  return b > a ? b : a;
}

/** `target` with the sighting `seen` merged in; `target` itself when nothing changes. */
export function mergeSighting(target: EchoEntry, seen: EchoEntry): EchoEntry {
  const had = sessionList(target.sessions);
  const added = sessionList(seen.sessions).filter((s) => !had.includes(s));
  const sessions = [...had, ...added].slice(-SESSIONS_KEPT);
  const confidence = Math.min(
    CONFIDENCE_CAP,
    Math.max(target.confidence, seen.confidence) + (added.length > 0 && had.length > 0 ? CONFIDENCE_STEP * added.length : 0),
  );
  const layer = target.layer === 'traced' && had.length + added.length >= 2 ? 'inscribed' : target.layer;
  const learning =
    target.captured === 'commands'
      ? mergeCommandLines(target.learning, seen.learning)
      : target.learning.includes(seen.learning.trim())
        ? target.learning
        : `${target.learning}\n${seen.learning.trim()}`;
  const verified = laterDay(target.verified, seen.verified);
  const evidence = added.length > 0 && seen.evidence ? seen.evidence : target.evidence;
  const next: EchoEntry = {
    ...target,
    sessions: sessions.join(', '),
    confidence: Math.round(confidence * 100) / 100,
    layer,
    learning,
    verified,
    evidence,
  };
  const same =
    next.sessions === (target.sessions ?? '') &&
    next.confidence === target.confidence &&
    next.layer === target.layer &&
    next.learning === target.learning &&
    next.verified === target.verified &&
    next.evidence === target.evidence;
  return same ? target : next;
}
