// From what a session did (capture-tracker.ts) to the few lessons worth
// keeping (SPEC §6a), as findings for the `team` role: the project's commands
// (one living entry), fixes that changed more than the code the error pointed
// at, the user's corrections in their own words, and errors met again in a
// later session with their fix when one is known. Precision before volume:
// a handful per session at most, each with its evidence. Pure.

import type { EchoEntry } from '../entry/echo-entry.ts';
import { DEAD_END, MET_AGAIN, SAID_LINE_START, TIME_LIMIT } from '../lifecycle/captured-merge.ts';
import { clip, oneLine } from '../text.ts';
import {
  type CaptureState,
  type ErrorSeen,
  type FailureSeen,
  type FixSeen,
  fixesOf,
  isShellSlip,
  isWrongCommand,
  TOO_LARGE_KEY,
} from './capture-tracker.ts';
import { isConfigFile } from './config-files.ts';
import { type Correction, ruleKey } from './corrections.ts';
import {
  CMD_SYNTAX_KEY,
  CMDLET_KEY,
  hookOfKey,
  isAccessError,
  isEnvironmentError,
  isLocalRefusal,
  isMachineLimit,
  isOtherShellKey,
  isShellError,
  isUsageSlip,
  keyOutlivesLine,
  pointsIntoCode,
  runsAFlag,
  saysOnlyThatItFailed,
} from './error-signature.ts';
import { isSilentExit, timedOutCommand } from './failure-key.ts';
import { isPackageOperation, runsOwnCode, WORK_KINDS, workFamily, workKind } from './work-commands.ts';

export const CAPTURE_KINDS = ['commands', 'fix', 'correction', 'obstacle'] as const;
export type CaptureKind = (typeof CAPTURE_KINDS)[number];

/** Most new lessons one session may add. */
export const LESSONS_PER_SESSION = 6;
const CORRECTIONS_PER_SESSION = 5;
const FIRST_CORRECTIONS = 3;
const TITLE_MAX = 110;
/**
 * A step that deals with access: signing in, a token or key, as a word of the command (`gh auth login`,
 * `ssh-add`), not inside a path it names (`--exclude=.credentials.json`); or the way out (a registry, a mirror, a proxy).
 */
const ACCESS_STEP =
  /(?<![\w./-])(?:auth|login|logout|token|credentials?|ssh(?:-add|-keygen|-agent)?|keychain|gpg|vpn)(?![\w./-])|\bexport\s+\w*(?:TOKEN|KEY|PASS|SECRET|AUTH)\w*=|registry|mirror|proxy/i;

/** Access that came back after steps none of which was about access: the user signed in elsewhere, or the network recovered. */
const accessFromOutside = (f: FixSeen): boolean =>
  f.change === 'steps' && isAccessError(f.error.line) && !f.steps.some((step) => ACCESS_STEP.test(step));

export interface CaptureMeta {
  sessionId: string;
  /** YYYY-MM-DD of the session's end. */
  day: string;
  kinds: ReadonlySet<CaptureKind>;
  /** Signatures this session already gave (an earlier capture of it, before a compaction). */
  given: readonly string[];
  /** The session is over (SessionEnd, a crashed session recovered), not only compacted. */
  ended?: boolean;
  /** Signatures of the captured lessons memory holds: seen again, one merges into its lesson and takes no new one's place under the cap. */
  known?: ReadonlySet<string>;
}

/** Errors by signature across sessions (personal state): an error met in two sessions is an obstacle. */
export interface Sighting {
  line: string;
  what: string;
  sessions: string[];
  /** How it was fixed, when a session showed it. */
  fix?: string;
  /** An error of Claude Code's own tools: named at a start when it recurs, never a lesson. */
  harness?: boolean;
}
export type Sightings = Record<string, Sighting>;

const SIGHTINGS_KEPT = 200;
const SIGHTING_SESSIONS = 8;

export const shortSession = (id: string): string => id.replace(/[^A-Za-z0-9-]/g, '').slice(0, 8) || 'unknown';

function finding(
  meta: CaptureMeta,
  kind: CaptureKind,
  f: Pick<EchoEntry, 'kind' | 'title' | 'learning' | 'evidence' | 'signature'> & Partial<EchoEntry>,
): EchoEntry {
  return {
    id: '',
    idExplicit: false,
    date: meta.day,
    layer: 'traced',
    source: `capture (session ${shortSession(meta.sessionId)})`,
    confidence: kind === 'commands' ? 0.6 : 0.5,
    verified: meta.day,
    supersedes: '',
    tags: ['captured', kind],
    extra: [],
    captured: kind,
    sessions: shortSession(meta.sessionId),
    ...f,
    title: clip(oneLine(f.title), TITLE_MAX),
  };
}

const code = (text: string) => `\`${text.replace(/`/g, "'")}\``;

function fixText(
  f: Pick<FixSeen, 'steps' | 'passed' | 'failed' | 'change' | 'edits' | 'changes' | 'pasted' | 'flags' | 'instead'>,
): string {
  if (f.pasted) {
    const what = f.change === 'config' ? settingsText(f) : `running ${f.steps.map(code).join(', then ')}`;
    return `it was not reported again after ${what}`;
  }
  if (f.change === 'steps')
    return `it passed after running ${f.steps.map(code).join(', then ')} first${f.passed !== f.failed ? `, then ${code(f.passed)}` : ''}`;
  if (f.change === 'config') return `it passed after ${settingsText(f)}`;
  if (f.change === 'command' && f.flags) {
    const { added, removed } = f.flags;
    const said = [added.length ? `with ${added.map(code).join(' ')}` : '', removed.length ? `without ${removed.map(code).join(' ')}` : ''];
    return `it passed ${said.filter(Boolean).join(' and ')} (${code(f.passed)})`;
  }
  if (f.change === 'command' && f.instead) {
    const first = f.steps.length > 0 ? `after running ${f.steps.map(code).join(', then ')}: ` : '';
    return `${code(f.instead.program)} did the job instead (${first}${code(f.passed)}, on ${f.instead.on.map(code).join(', ')})`;
  }
  if (f.change === 'command') return `${code(f.passed)} worked instead`;
  return `it passed after editing ${f.edits.slice(0, 4).join(', ')}`;
}

/** What a fix in settings changed: the lines when short (`ci.yml: \`a\` → \`b\``), else the files. */
function settingsText(f: Pick<FixSeen, 'edits' | 'changes'>): string {
  const changes = f.changes ?? [];
  return changes.length > 0 ? `changing ${changes.slice(0, 3).join('; ')}` : `editing ${f.edits.slice(0, 4).join(', ')}`;
}

/** Commands kept per kind (and folder) in the commands entry, the latest first. */
export const COMMANDS_PER_KIND = 3;

function commandsLesson(state: CaptureState, meta: CaptureMeta): EchoEntry | null {
  // Per kind (and folder), the commands that succeeded and did not fail after, the latest first.
  const byLabel = new Map<string, Array<{ command: string; order: number }>>();
  for (const w of state.works) {
    if (w.ok === 0 || !w.lastOk) continue;
    const label = w.dir ? `${w.kind} (in ${w.dir}/)` : w.kind;
    byLabel.set(label, [...(byLabel.get(label) ?? []), { command: w.command, order: w.last }]);
  }
  if (byLabel.size === 0) return null;
  const lines = [...byLabel.entries()]
    .sort(([a], [b]) => WORK_KINDS.indexOf(a.split(' ')[0] as never) - WORK_KINDS.indexOf(b.split(' ')[0] as never))
    .map(([label, runs]) => {
      const latest = runs.sort((x, y) => y.order - x.order).slice(0, COMMANDS_PER_KIND);
      return `${label}: ${latest.map((r) => code(r.command)).join(', ')}`;
    });
  const ran = state.works.filter((w) => w.ok > 0 && w.lastOk).map((w) => `${code(w.command)}${w.ok > 1 ? ` ×${w.ok}` : ''}`);
  return finding(meta, 'commands', {
    kind: 'Workflow',
    title: 'Commands that build, check and run this project',
    learning: lines.join('\n'),
    evidence: `session ${shortSession(meta.sessionId)} ran ${ran.slice(0, 6).join(', ')} successfully`,
    signature: 'commands',
  });
}

/** A command shown cut (`… && echo "YAML…`) with the quote it left open closed, so its steps read as written. */
function closeQuotes(command: string): string {
  let out = command;
  if ((out.match(/"/g) ?? []).length % 2 === 1) out += '"';
  if ((out.replace(/"[^"]*"/g, '').match(/'/g) ?? []).length % 2 === 1) out += "'";
  return out;
}

/** `cd web && npm run build -- --x` → `npm run build`: what a title names the command by. */
function familyOf(shown: string): string {
  const bare = shown.replace(/^cd \S+ && /, '');
  // Only a command shown cut can have left a quote open; one shown whole is read as written (`'it'\''s'`).
  const command = bare.includes('…') ? closeQuotes(bare.replace(/…/g, ' ')) : bare;
  return workFamily(command) || command.split(' ')[0] || shown;
}

/**
 * `npm install: npm error …`; a line that already names the program (`sudo: …`, `python3 exited with code 49 …`)
 * is not prefixed again.
 */
function errorTitle(what: string, line: string): string {
  const program = what.split(' ')[0] ?? '';
  return !program || line.toLowerCase().startsWith(`${program.toLowerCase()}:`) || isSilentExit(line) ? line : `${what}: ${line}`;
}

function fixLesson(f: FixSeen, meta: CaptureMeta): EchoEntry {
  const how = fixText(f);
  if (f.pasted)
    return finding(meta, 'fix', {
      kind: 'Fix',
      title: f.error.line,
      learning: `The user reported "${f.error.line}"; ${how}.`,
      evidence: `session ${shortSession(meta.sessionId)}: the user pasted the error${f.edits.length ? `; edited ${f.edits.slice(0, 4).join(', ')}` : ''}${f.steps.length ? `; ran ${f.steps.slice(0, 2).map(code).join(', ')}` : ''}`,
      signature: `error:${f.error.key}`,
      symptom: f.error.line,
      solution: how.charAt(0).toUpperCase() + how.slice(1),
    });
  return finding(meta, 'fix', {
    kind: 'Fix',
    title: errorTitle(familyOf(f.failed), f.error.line),
    learning: `${code(f.failed)} failed with "${f.error.line}"; ${how}.`,
    evidence: `session ${shortSession(meta.sessionId)}: ${code(f.failed)} failed, then ${code(f.passed)} passed${f.edits.length ? `; edited ${f.edits.slice(0, 4).join(', ')}` : ''}`,
    signature: `error:${f.error.key}`,
    symptom: f.error.line,
    solution: how.charAt(0).toUpperCase() + how.slice(1),
  });
}

/**
 * What failed for a moment's reason: a local server not up, a flag or an argument the model got wrong. Met again
 * without a way that worked, it says nothing a colleague would write down.
 */
const momentary = (line: string): boolean => isLocalRefusal(line) || isUsageSlip(line);

/**
 * An error met again with no way past it known is worth writing down when it says what stands in the way whatever
 * the code does: the machine (a program missing, a permission, the network, access), Claude Code's limits (a time
 * limit, a file too large to Read), a hook of the user's, another shell's commands. The project's own errors met
 * again without a fix (`npm error code ENOENT`, `ERROR: role "app" already exists`, `Job for nginx.service failed`)
 * say only that it went wrong again.
 */
function tellsWithoutFix(error: { line: string; key: string }): boolean {
  if (momentary(error.line)) return false;
  return (
    isEnvironmentError(error.line) ||
    isAccessError(error.line) ||
    isMachineLimit(error.line) ||
    timedOutCommand(error.key) !== null ||
    keyOutlivesLine(error.key) ||
    error.key.startsWith(TOO_LARGE_KEY)
  );
}

/**
 * A failure the session never got past, when it lies in the environment rather than in the code (a check still
 * failing is work in progress). A program that only failed, saying nothing, says too little the first time:
 * it is a lesson once met again.
 */
function deadEnds(state: CaptureState): FailureSeen[] {
  return state.open.filter((f) => {
    const kind = workKind(f.command.replace(/^cd \S+ && /, ''));
    // A package manager's own operation failing: the tool or the machine is in the way, not the code.
    const packages = isPackageOperation(familyOf(f.command));
    return (
      !pointsIntoCode(f.error.line) &&
      !isShellSlip(f.error.line, f.command) &&
      !isSilentExit(f.error.line) &&
      !saysOnlyThatItFailed(f.error.line) &&
      !momentary(f.error.line) &&
      (isEnvironmentError(f.error.line) || packages) &&
      kind !== 'test' &&
      kind !== 'build' &&
      kind !== 'typecheck' &&
      kind !== 'lint'
    );
  });
}

function deadEndLesson(f: FailureSeen, meta: CaptureMeta): EchoEntry {
  return finding(meta, 'obstacle', {
    kind: 'Obstacle',
    title: OTHER_SHELLS.get(f.error.key)?.title ?? errorTitle(familyOf(f.command), f.error.line),
    learning: `${code(f.command)} failed with "${f.error.line}"${DEAD_END}${obstacleAdvice(f.error.key)}`,
    evidence: `session ${shortSession(meta.sessionId)}: ${code(f.command)} failed and no later run passed`,
    signature: `error:${f.error.key}`,
    symptom: f.error.line,
  });
}

/** git talking to a remote: what it refuses is settled there, or in the commits sent. */
const REMOTE_GIT = /^git (?:push|pull|fetch|clone)\b/;
/** The remote's own words (`remote: error: GH013 …`, `[remote rejected]`, a protected branch), not a local hook's. */
const REMOTE_SAID = /^remote:|\[remote rejected\]|\bGH0\d\d\b|protected branch/i;

/** An obstacle of commands written for another shell: titled by that, whichever command showed it first, and what to do. */
const OTHER_SHELLS = new Map<string, { title: string; advice: string }>([
  [
    CMDLET_KEY,
    {
      title: "PowerShell's commands given to bash",
      advice:
        ' The Bash tool runs bash here, not PowerShell: use the bash commands (ls, cat, head, grep), or run PowerShell as `powershell -Command "…"`.',
    },
  ],
  [
    CMD_SYNTAX_KEY,
    {
      title: "cmd's commands, options and paths given to bash (Git Bash)",
      advice:
        ' The Bash tool runs bash here (Git Bash), not cmd: write paths with forward slashes (`E:/app`), use the bash commands (mv, cp, rm -rf) for cmd\'s (move, copy, del, rd), give a Windows program\'s options with two slashes (`taskkill //F //PID 1234`) or run it as `cmd //c "…"`, and a Unix path meant for a container or a device as `//app` or with `MSYS_NO_PATHCONV=1`.',
    },
  ],
]);

/** What to do about an obstacle whose kind says it: a file too large for one Read, a hook of the user's that blocks. */
function obstacleAdvice(key: string): string {
  if (key.startsWith(TOO_LARGE_KEY)) return ' Read such files in parts (offset and limit), or search them with Grep.';
  const shell = OTHER_SHELLS.get(key);
  if (shell) return shell.advice;
  if (hookOfKey(key) !== null) return " The user's hook blocks such calls each time: do the job another way, or ask the user to run it.";
  return '';
}

function obstacleLesson(key: string, s: Sighting, meta: CaptureMeta): EchoEntry {
  // A command that outran Claude Code's time limit in two sessions will again: what helps is known.
  const learning =
    timedOutCommand(key) !== null
      ? `${s.what ? code(s.what) : 'A command'}${TIME_LIMIT}("${s.line}") in ${s.sessions.length} sessions: run it in the background, or with a longer timeout.`
      : `${MET_AGAIN}"${s.line}"${s.what ? ` (from ${code(s.what)})` : ''}.${s.fix ? ` Fix seen: ${s.fix}.` : ''}${obstacleAdvice(key)}`;
  return finding(meta, 'obstacle', {
    kind: 'Obstacle',
    title: OTHER_SHELLS.get(key)?.title ?? errorTitle(s.what, s.line),
    learning,
    evidence: `sessions ${s.sessions.join(', ')} met "${clip(s.line, 80)}"`,
    signature: `error:${key}`,
    symptom: s.line,
    ...(s.fix ? { solution: s.fix.charAt(0).toUpperCase() + s.fix.slice(1) } : {}),
  });
}

/** How each way of pointing at a correction reads in its lesson: when the user said it, and the evidence. */
const SAID_WHEN: Record<Correction['how'], { when: (about: string) => string; evidence: (about: string) => string }> = {
  stated: { when: () => 'as a standing rule', evidence: () => 'said in a request' },
  repeated: { when: () => 'saying it again', evidence: () => 'said again in a request' },
  'after-action': { when: (about) => `right after the assistant did ${about}`, evidence: (about) => `correction after ${about}` },
  'refusal-note': { when: (about) => `refusing ${about}`, evidence: (about) => `refused ${about}` },
  'after-refusal': { when: (about) => `after refusing ${about}`, evidence: (about) => `refused ${about}` },
};

function correctionLesson(c: Correction, meta: CaptureMeta): EchoEntry {
  const said = SAID_WHEN[c.how];
  return finding(meta, 'correction', {
    kind: 'Preference',
    title: c.words,
    learning: `${SAID_LINE_START}${said.when(c.about)}: "${c.words}"`,
    evidence: `session ${shortSession(meta.sessionId)}: ${said.evidence(c.about)}`,
    // Said again in other words, a rule whose sense is known (the language to answer in) is the same rule.
    signature: `said:${ruleKey(c.words) ?? (c.words.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join(' ').slice(0, 100)}`,
  });
}

/** This session's errors added to the sightings: the next state of the ledger. */
export function updateSightings(ledger: Sightings, state: CaptureState, meta: CaptureMeta): Sightings {
  const session = shortSession(meta.sessionId);
  const next: Sightings = { ...ledger };
  const fixes = new Map(state.fixes.map((f) => [f.error.key, f]));
  for (const e of state.errors) {
    if (e.code) continue;
    const had = next[e.error.key];
    const fix = fixes.get(e.error.key);
    const sessions = had
      ? had.sessions.includes(session)
        ? had.sessions
        : [...had.sessions, session].slice(-SIGHTING_SESSIONS)
      : [session];
    next[e.error.key] = {
      line: had?.line ?? e.error.line,
      what: had?.what ?? e.what,
      sessions,
      // PowerShell's or cmd's commands given to bash: what helps is known (obstacleAdvice), whatever ran before a pass.
      // Access that came back after steps that had nothing to do with it came back from outside (see lessonsOf).
      ...(fix && fix.change !== 'edits' && !isOtherShellKey(e.error.key) && !accessFromOutside(fix)
        ? { fix: fixText(fix) }
        : had?.fix
          ? { fix: had.fix }
          : {}),
    };
  }
  for (const e of state.toolErrors ?? []) {
    const had = next[e.error.key];
    if (had && !had.harness) continue;
    const sessions = had
      ? had.sessions.includes(session)
        ? had.sessions
        : [...had.sessions, session].slice(-SIGHTING_SESSIONS)
      : [session];
    // Moved to the end: the most recently met come last, and the oldest leave first when the ledger is full.
    delete next[e.error.key];
    next[e.error.key] = { line: had?.line ?? e.error.line, what: had?.what ?? e.what, sessions, harness: true };
  }
  const keys = Object.keys(next);
  if (keys.length > SIGHTINGS_KEPT) for (const k of keys.slice(0, keys.length - SIGHTINGS_KEPT)) delete next[k];
  return next;
}

/**
 * The lessons of a session, best first, within the per-session cap (counting what an earlier capture
 * of the same session gave). `sightings` must already hold this session's errors (updateSightings).
 */
export function lessonsOf(state: CaptureState, meta: CaptureMeta, sightings: Sightings): EchoEntry[] {
  const session = shortSession(meta.sessionId);
  const ranked: EchoEntry[] = [];
  const later: EchoEntry[] = [];
  const want = (k: CaptureKind) => meta.kinds.has(k);
  // The project's commands first: one living entry, new only once, and what every later session needs.
  if (want('commands')) {
    const c = commandsLesson(state, meta);
    if (c) ranked.push(c);
  }
  if (want('correction')) {
    // What the structure points at most surely first, and among those the short, pointed ones: a long
    // message after a refusal is more often a new task than a rule.
    const rank = (c: Correction) =>
      (c.how === 'after-action' || c.how === 'stated' || c.how === 'repeated' ? 2 : 0) + (c.words.length > 120 ? 1 : 0);
    const picked = state.corrections
      .map((c, i) => ({ c, i }))
      .sort((a, b) => rank(a.c) - rank(b.c) || a.i - b.i)
      .slice(0, CORRECTIONS_PER_SESSION);
    // A few first; the rest only after the other kinds, so one talkative session cannot crowd them out.
    for (const { c } of picked.slice(0, FIRST_CORRECTIONS)) ranked.push(correctionLesson(c, meta));
    for (const { c } of picked.slice(FIRST_CORRECTIONS)) later.push(correctionLesson(c, meta));
  }
  const recurring = new Set<string>();
  if (want('obstacle'))
    for (const e of state.errors as ErrorSeen[]) {
      const s = sightings[e.error.key];
      // A line that says only that the build failed (`BUILD FAILED in 3s`) keys every failure of that build alike.
      if (e.code || saysOnlyThatItFailed(e.error.line) || !s || s.sessions.length < 2 || !s.sessions.includes(session)) continue;
      if (!s.fix && !tellsWithoutFix(e.error)) continue;
      recurring.add(e.error.key);
      ranked.push(obstacleLesson(e.error.key, s, meta));
    }
  if (want('obstacle')) for (const f of deadEnds(state)) if (!recurring.has(f.error.key)) ranked.push(deadEndLesson(f, meta));
  if (want('fix'))
    for (const f of fixesOf(state, meta.ended === true)) {
      // An error the code pointed at, fixed by editing that code, is ordinary work, not a lesson.
      // A test's assertion or an error pointing into the code is fixed by the code, whatever ran meanwhile.
      // Settings edited alone are how the project is set up, wherever the error pointed. A script of the
      // session's own that threw and then ran is that script's bug fixed, unless the machine was in the way.
      const ownCode =
        (f.own === true || runsOwnCode(f.failed)) &&
        (runsAFlag(f.error.line) || (!isEnvironmentError(f.error.line) && !isShellError(f.error.line)));
      if (f.change === 'edits' || recurring.has(f.error.key)) continue;
      // What a remote turned down (a push its rules blocked) lies in the commits sent, not in the working tree's settings.
      if (f.change === 'config' && REMOTE_GIT.test(familyOf(f.failed)) && REMOTE_SAID.test(f.error.line)) continue;
      // What failed is not said (`BUILD FAILED in 3s`, a traceback's header): what was learnt cannot be said either.
      // Nor is a command the shell could not read (an unclosed quote) the project's: the model's slip with the tool.
      // PowerShell's or cmd's commands given to bash: what helps is known whatever ran next (the obstacle says it).
      if (saysOnlyThatItFailed(f.error.line) || isShellSlip(f.error.line, f.failed) || isOtherShellKey(f.error.key)) continue;
      // The code was edited too, and the error lies in it rather than in the machine or the command as typed: the
      // edits may as well have fixed it as the steps run or the other command, a colleague would not say which. A
      // package installed meanwhile is a change of the machine's that may be the fix (another version of a library).
      if (
        (f.change === 'steps' || f.change === 'command') &&
        !f.instead &&
        !f.pasted &&
        !isEnvironmentError(f.error.line) &&
        !isWrongCommand(f.error.line) &&
        !(f.change === 'steps' && f.steps.some((step) => isPackageOperation(familyOf(step)))) &&
        (f.edits.some((e) => !isConfigFile(e)) || (f.elsewhere ?? 0) > 0)
      )
        continue;
      // Another command worked, but as shown (cut at its length) it reads the same as the one that failed: the
      // lesson could not say what was different.
      if (f.change === 'command' && !f.flags && !f.instead && f.passed === f.failed) continue;
      if (f.change !== 'config' && !f.pasted && (pointsIntoCode(f.error.line) || ownCode)) continue;
      // Access that came back after an unrelated step (a copy, a build) came back from outside the session:
      // the user signed in elsewhere, or the network recovered. Only a step about access is its fix.
      if (accessFromOutside(f)) continue;
      ranked.push(fixLesson(f, meta));
    }
  ranked.push(...later);
  const given = new Set(meta.given);
  const out: EchoEntry[] = [];
  const seen = new Set<string>();
  let fresh = [...given].filter((sig) => sig !== 'commands').length;
  for (const e of ranked) {
    const sig = e.signature ?? '';
    if (seen.has(sig)) continue;
    seen.add(sig);
    // The commands entry is one living entry of the project, rewritten as the commands change: not a new lesson.
    // Nor is a lesson memory holds already, seen again: it merges into that one.
    if (!given.has(sig) && sig !== 'commands' && !meta.known?.has(sig)) {
      if (fresh >= LESSONS_PER_SESSION) continue;
      fresh++;
    }
    out.push(e);
  }
  return out;
}

/** Claude Code tool errors met in two sessions or more, most sessions first (then the latest met), at most `max`. */
export function recurringToolErrors(ledger: Sightings, max = 5): Array<{ tool: string; line: string; sessions: number }> {
  return Object.values(ledger)
    .map((s, order) => ({ s, order }))
    .filter(({ s }) => s.harness === true && s.sessions.length >= 2)
    .sort((a, b) => b.s.sessions.length - a.s.sessions.length || b.order - a.order)
    .slice(0, max)
    .map(({ s }) => ({ tool: s.what, line: s.line, sessions: s.sessions.length }));
}
