// A captured lesson seen again (SPEC §6a): the sighting merges into the entry
// by signature, the sessions that saw it grow, and with them confidence and
// layer — traced until a second session sees it, inscribed from then on,
// never etched (only the user etches). The project's commands are one living
// entry whose commands merge kind by kind, the newer first. Pure.

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

/** Commands a commands-entry line keeps per kind (the newest first). */
const COMMANDS_KEPT = 3;
const commandsOf = (text: string): string[] => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

/**
 * The commands entry's lines merged kind by kind: the newer sighting's commands first, then the older
 * line's others, a few at most (a command the project stopped using drops off as new ones come).
 */
export function mergeCommandLines(older: string, newer: string): string {
  const lines = new Map<string, string[]>();
  const loose: string[] = [];
  for (const text of [newer, older])
    for (const raw of text.split(/\r?\n/)) {
      const line = raw.trim();
      if (!line) continue;
      const m = COMMAND_LINE.exec(line);
      if (m) {
        const had = lines.get(m[1]!) ?? [];
        const cmds = commandsOf(m[2]!);
        lines.set(m[1]!, [...had, ...(cmds.length ? cmds : [m[2]!]).filter((c) => !had.includes(c))].slice(0, COMMANDS_KEPT));
      } else if (!loose.includes(line)) loose.push(line);
    }
  const ordered = [...lines.entries()].sort(([a], [b]) => order(a) - order(b));
  return [...loose, ...ordered.map(([label, cmds]) => `${label}: ${cmds.map((c) => `\`${c}\``).join(', ')}`)].join('\n');
}

// Kinds in the order the entry lists them (install first, apply last); anything else after.
const KIND_ORDER = ['install', 'build', 'typecheck', 'lint', 'format', 'test', 'run', 'apply'];
const order = (label: string): number => {
  const i = KIND_ORDER.indexOf(label.split(' ')[0] ?? '');
  return i < 0 ? KIND_ORDER.length : i;
};

function laterDay(a: string, b: string): string {
  return b > a ? b : a;
}

/** How capture words an obstacle (core/capture/lesson-candidates.ts): met in several sessions, … */
export const MET_AGAIN = 'Met again across sessions: ';
/** … a dead end of one session (a command, then this), … */
export const DEAD_END = ' and the session did not get past it.';
/** … or a command past Claude Code's time limit (a command, then this, then the error quoted). */
export const TIME_LIMIT = " ran past Claude Code's time limit for a command ";

/** A line of an obstacle's learning in one of the shapes capture writes it in. */
export const isObstacleStatement = (line: string): boolean => {
  const l = line.trim();
  return l.startsWith(MET_AGAIN) || l.includes(DEAD_END) || l.includes(TIME_LIMIT);
};

/**
 * An obstacle's learning when it is seen again: capture states it afresh each time from every session
 * that met it (how many, what fixed it), so the newer statement replaces the lines of the older written
 * in capture's shapes (the dead end of its first session, "in 2 sessions", a fix since superseded); any
 * other line, one a person added, stays, and a statement the entry already holds changes nothing (a
 * re-run for the same session).
 */
function restated(older: string, newer: string): string {
  const fresh = newer.trim();
  if (older.includes(fresh)) return older;
  const kept = older.split(/\r?\n/).filter((line) => !isObstacleStatement(line));
  while (kept.length > 0 && kept[kept.length - 1]!.trim() === '') kept.pop();
  return [...kept, fresh].join('\n');
}

/** How capture opens a line of the user's words (core/capture/lesson-candidates.ts). */
export const SAID_LINE_START = 'The user said, ';
/** The user's statements of one rule a correction keeps: the newest, said in other words across sessions. */
const SAID_KEPT = 2;

/**
 * A correction said again in other words (the language to answer in, five times over) keeps the newest
 * few statements: the user's latest words say the rule as it stands. Other lines stay.
 */
function newestSaid(learning: string): string {
  const lines = learning.split(/\r?\n/);
  const said = lines.filter((l) => l.trim().startsWith(SAID_LINE_START));
  if (said.length <= SAID_KEPT) return learning;
  const dropped = new Set(said.slice(0, said.length - SAID_KEPT));
  return lines.filter((l) => !dropped.has(l)).join('\n');
}

/** The learning of `target` with a sighting's merged in, as its kind keeps it. */
function mergedLearning(target: EchoEntry, newer: string): string {
  if (target.captured === 'commands') return mergeCommandLines(target.learning, newer);
  if (target.captured === 'obstacle' && target.layer !== 'etched') return restated(target.learning, newer);
  if (target.learning.includes(newer.trim())) return target.learning;
  return newestSaid(`${target.learning}\n${newer.trim()}`);
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
  const learning = mergedLearning(target, seen.learning);
  // What fixed an obstacle, once a sighting knows it; one the entry has (a person's, say) stays.
  const solution = target.solution ?? (target.captured === 'obstacle' ? seen.solution : undefined);
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
    ...(solution ? { solution } : {}),
  };
  const same =
    next.sessions === (target.sessions ?? '') &&
    next.confidence === target.confidence &&
    next.layer === target.layer &&
    next.learning === target.learning &&
    next.verified === target.verified &&
    next.evidence === target.evidence &&
    next.solution === target.solution;
  return same ? target : next;
}
