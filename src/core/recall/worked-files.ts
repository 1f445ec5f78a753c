// The files the work keeps coming back to and the commands it keeps running
// (SPEC §6a, how this project is worked): each working session's read and
// edited files, and its commands that passed, are counted in a small personal
// ledger, and a SessionStart names the few that sessions came back to most,
// weighted to the recent, which the last session's hand-off does not already
// name. A new session then knows where the work lives and how it is run before
// it searches for either. No model call: counts of what sessions did. Pure.

import { isInspection, mainStep, unwrapCommand, withoutRedirections } from '../session/summary-commands.ts';
import type { SummaryCommand } from '../session/summary-model.ts';
import { compareText } from '../text.ts';

/** One file's record: how many sessions touched it, and a weight that older sessions count less in. */
export interface WorkedFile {
  sessions: number;
  /** Decayed by DECAY per session since `seq`; +1 for each session that touched it. */
  weight: number;
  /** The ledger's session number when a session last touched it. */
  seq: number;
  /** That session (short id): a second capture of one session counts once. */
  last: string;
}

/** A command's record, by its key (`npm run typecheck`, `node scripts/seed.js`): its last successful run, as it is shown. */
export interface WorkedCommand extends WorkedFile {
  shown: string;
}

export interface WorkedFiles {
  /** How many working sessions the ledger has counted. */
  seq: number;
  files: Record<string, WorkedFile>;
  /** By key: the commands sessions ran and that passed (a ledger written before them has none). */
  commands?: Record<string, WorkedCommand>;
}

/** A command a session ran and that passed: its key (runKey), and the run as the digest may show it. */
export interface RanCommand {
  key: string;
  shown: string;
}

/** Per session that did not touch it, a file's weight keeps this share. */
const DECAY = 0.85;
/** Files the ledger keeps (the lightest go first). */
const KEPT = 300;
/** Commands the ledger keeps. */
const KEPT_COMMANDS = 100;
/** A file is named once this many sessions touched it. */
export const MIN_SESSIONS = 2;
/** Most files a start names. */
export const MAX_NAMED = 24;
/** Most commands a start names. */
export const MAX_COMMANDS = 10;
/** Most files a start names of the last few sessions that no other line names. */
export const MAX_RECENT = 8;
/** How many sessions back from the last those files are looked for. */
export const RECENT_BACK = 2;

export const emptyWorkedFiles = (): WorkedFiles => ({ seq: 0, files: {} });

// Outside the project, what is no one's work: the system's files, temporary folders, a relative path
// whose folder is not known.
const NOT_WORK = /^(?:\.\.(?:\/|$)|\/(?:etc|dev|proc|sys|tmp|private\/tmp|var\/folders)\/)|\/AppData\/Local\/Temp\//i;
// In a `.claude` folder, what Claude Code and this plugin keep for themselves: our memory (in either scope), plans, transcripts,
// installed plugins and the state beside them, and what Claude Code loads by itself (its rules, the auto-memory index, subagents' memory). Its skills, agents,
// settings and auto-memory topic files are work like any other: a session reads them when it needs them.
const CLAUDE_OWN =
  /(?:^|\/)\.claude\/(?:(?:echoes|memories|rules|agent-memory(?:-local)?|plans|todos|tasks|plugins|shell-snapshots|statsig|ide|debug|file-history|session-env|paste-cache|telemetry)(?:\/|$)|(?:EPHEMERAL|ARCHIVE)\.md$|history\.jsonl$|projects\/[^/]+\/(?!memory\/(?!MEMORY\.md$)))/i;

/**
 * A file worth naming: the project's own (relative to it), or one the work keeps reaching outside it (a
 * sibling folder, a home config, a skill, Claude Code's auto-memory topic files); not the system's, a
 * temporary one, the plugin's memory, or what Claude Code loads by itself (a CLAUDE.md, the auto-memory index).
 */
export function countsAsWorked(path: string): boolean {
  // A name with a line break or another control character in it (git allows them) is no one's work.
  if (!path || NOT_WORK.test(path) || CLAUDE_OWN.test(path) || path.includes('\\') || /[\u0000-\u001f\u007f]/.test(path)) return false;
  return !/(?:^|\/)CLAUDE(?:\.local)?\.md$/i.test(path);
}

// Commands that only move, make or remove files, or set up the shell, in sh, cmd and PowerShell: they say
// nothing of how the project is worked.
const FILE_CHORE =
  /^(?:cd|pushd|popd|mv|cp|rm|rmdir|mkdir|md|rd|touch|chmod|chown|ln|kill|pkill|killall|taskkill|open|start|clear|cls|source|\.|export|set|unset|alias|del|erase|copy|move|ren|xcopy|robocopy|Remove-Item|Copy-Item|Move-Item|New-Item|Rename-Item|Set-Item|Set-Location|Push-Location|Pop-Location|Stop-Process|Clear-Host)$/i;
/** A run is shown up to its first pipe, quote or line break (a commit message, a heredoc), this long at most. */
const SHOWN_MAX = 80;
/** A run's key holds at most this many words: the program and what it runs (`npm run build`, `docker compose up`). */
const KEY_WORDS = 3;

/** A program called by its path (`& "C:\Program Files\nodejs\npm.cmd" run build`) by its name (`npm run build`). */
function byProgramName(command: string): string {
  const c = command.trim().replace(/^&\s+/, '');
  const quoted = /^"([^"]+)"|^'([^']+)'/.exec(c);
  if (!quoted) return c;
  const name = (quoted[1] ?? quoted[2]!)
    .split(/[\\/]/)
    .pop()!
    .replace(/\.(?:exe|cmd|bat)$/i, '');
  return `${name}${c.slice(quoted[0].length)}`;
}

/** The run as it is told: its first line, less what only shapes its output (`| tail`, `|| echo …`, `2>&1`) and quoted text. */
function runText(command: string): string {
  const first = byProgramName(command.split(/\r?\n/)[0]!);
  const run = withoutRedirections(first.split(/\s*;\s*|\s+\|\|?\s+|\s\\(?:\s|$)/)[0]!.trim());
  const quote = run.search(/["'`]|<</);
  return quote > 0 ? `${run.slice(0, quote).trimEnd()} …` : run;
}

/**
 * What makes two runs the same habit: the program and up to two words after it, flags left out, ending at
 * the first path (`npm run build`, `node scripts/seed.js`, `docker compose up`, `gh pr merge`). A looser
 * key would call one run of `node scripts/fix-typo.js` a habit because `node` ran before.
 */
function runKey(run: string): string {
  const words: string[] = [];
  for (const w of unwrapCommand(mainStep(run)).split(/\s+/)) {
    if (!w || w.startsWith('-') || w === '…') continue;
    words.push(w);
    if (words.length === KEY_WORDS || (words.length > 1 && /[/\\.]/.test(w))) break;
  }
  return words.join(' ');
}

/**
 * The commands of a session that count as how the project is worked: those whose last run passed, less
 * the ones that only look (`ls`, `git status`), move files about, or held a secret (the summary has it
 * redacted already); each by its key and its run. Of two rows with one key, the later row's run is kept.
 */
export function ranCommands(commands: readonly SummaryCommand[]): RanCommand[] {
  const out: RanCommand[] = [];
  for (const c of commands) {
    if (c.failed || c.command.includes('[REDACTED:')) continue;
    const run = runText(c.command);
    const step = unwrapCommand(mainStep(run));
    const program = step.split(/\s+/)[0] ?? '';
    if (!step || isInspection(step) || FILE_CHORE.test(program)) continue;
    const key = runKey(run);
    const shown = run.length > SHOWN_MAX ? `${run.slice(0, SHOWN_MAX - 2).trimEnd()} …` : run;
    if (key) out.push({ key, shown });
  }
  return out;
}

/** The weight `f` has now, at the ledger's session number `seq`. */
export const weightAt = (f: WorkedFile, seq: number): number => f.weight * DECAY ** Math.max(0, seq - f.seq);

/**
 * `records` after `session` touched each key (with what its record holds beyond the counts: a command's
 * run), at session number `seq`; the lightest beyond `kept` left out.
 */
function touch<T extends WorkedFile>(
  records: Record<string, T>,
  keys: ReadonlyMap<string, Omit<T, keyof WorkedFile>>,
  session: string,
  seq: number,
  kept: number,
): Record<string, T> {
  const next: Record<string, T> = { ...records };
  for (const [key, extra] of keys) {
    const had = next[key];
    // A second capture of one session counts it once (a command's run is brought up to date).
    const counts: WorkedFile =
      had && had.last === session
        ? had
        : had
          ? { sessions: had.sessions + 1, weight: weightAt(had, seq) + 1, seq, last: session }
          : { sessions: 1, weight: 1, seq, last: session };
    next[key] = { ...counts, ...extra } as T;
  }
  const all = Object.keys(next);
  if (all.length > kept) {
    const lightest = all.sort((a, b) => weightAt(next[a]!, seq) - weightAt(next[b]!, seq)).slice(0, all.length - kept);
    for (const k of lightest) delete next[k];
  }
  return next;
}

/**
 * The ledger after `session` touched `files`, deleted or moved away `gone` (no longer named) and ran
 * `commands` that passed (a session counted before is not counted again).
 */
export function updateWorkedFiles(
  ledger: WorkedFiles,
  files: readonly string[],
  session: string,
  gone: readonly string[] = [],
  commands: readonly RanCommand[] = [],
): WorkedFiles {
  const removed = new Set(gone);
  const touched = [...new Set(files.filter((f) => countsAsWorked(f) && !removed.has(f)))];
  // The later row of each key is the run shown.
  const ran = new Map(commands.filter((c) => c.key && c.shown).map((c) => [c.key, c.shown]));
  if (touched.length === 0 && ran.size === 0 && !gone.some((g) => g in ledger.files)) return ledger;
  const known = [...Object.values(ledger.files), ...Object.values(ledger.commands ?? {})].some(
    (f) => f.last === session && f.seq === ledger.seq,
  );
  const seq = known || touched.length + ran.size === 0 ? ledger.seq : ledger.seq + 1;
  const kept: Record<string, WorkedFile> = { ...ledger.files };
  for (const g of removed) delete kept[g];
  const nextFiles = touch(kept, new Map(touched.map((p) => [p, {}])), session, seq, KEPT);
  const nextCommands = touch<WorkedCommand>(
    ledger.commands ?? {},
    new Map([...ran].map(([key, shown]) => [key, { shown }])),
    session,
    seq,
    KEPT_COMMANDS,
  );
  return { seq, files: nextFiles, ...(Object.keys(nextCommands).length > 0 ? { commands: nextCommands } : {}) };
}

/**
 * The files to name at a start: touched in MIN_SESSIONS sessions or more, heaviest first, less those
 * `named` already (the hand-off lists them).
 */
export function filesComingBack(ledger: WorkedFiles, named: (path: string) => boolean): string[] {
  return Object.entries(ledger.files)
    .filter(([path, f]) => f.sessions >= MIN_SESSIONS && countsAsWorked(path))
    .sort(([a, x], [b, y]) => weightAt(y, ledger.seq) - weightAt(x, ledger.seq) || compareText(a, b))
    .map(([path]) => path)
    .filter((path) => !named(path))
    .slice(0, MAX_NAMED);
}

/**
 * The files the last few sessions touched (the last one and RECENT_BACK before it) that neither the
 * hand-off (`named`) nor the line of files coming back (`shown`) names: the latest session's first, then
 * the most touched, at most MAX_RECENT. Work often goes back to what was open two sessions ago, when the
 * session between was about something else.
 */
export function filesOfRecentSessions(ledger: WorkedFiles, named: (path: string) => boolean, shown: readonly string[]): string[] {
  const skip = new Set(shown);
  return Object.entries(ledger.files)
    .filter(([path, f]) => f.seq >= ledger.seq - RECENT_BACK && !skip.has(path) && countsAsWorked(path) && !named(path))
    .sort(([a, x], [b, y]) => y.seq - x.seq || y.sessions - x.sessions || compareText(a, b))
    .map(([path]) => path)
    .slice(0, MAX_RECENT);
}

/**
 * The commands to name at a start: those run (and passed) in MIN_SESSIONS sessions or more, heaviest
 * first, each by its latest run, less those `named` already (the hand-off names the key).
 */
export function commandsComingBack(ledger: WorkedFiles, named: (key: string) => boolean): string[] {
  return Object.entries(ledger.commands ?? {})
    .filter(([, c]) => c.sessions >= MIN_SESSIONS)
    .sort(([a, x], [b, y]) => weightAt(y, ledger.seq) - weightAt(x, ledger.seq) || compareText(a, b))
    .filter(([key]) => !named(key))
    .map(([, c]) => c.shown)
    .slice(0, MAX_COMMANDS);
}

/**
 * The text names the command in code (between backticks, as a hand-off lists its commands) as whole words:
 * `node`, not `node_modules`; `npm run build`, not `npm run build:prod`; never prose ("make sure …").
 */
export function namesCommand(text: string, key: string): boolean {
  for (const span of text.matchAll(/`([^`\n]+)`/g)) {
    const at = span[1]!.replace(/[ \t]+/g, ' ');
    for (let i = at.indexOf(key); i >= 0; i = at.indexOf(key, i + 1)) {
      const before = at[i - 1] ?? ' ';
      const after = at[i + key.length] ?? ' ';
      if (!/[\w./-]/.test(before) && !/[\w:/-]/.test(after)) return true;
    }
  }
  return false;
}

const isRecord = (f: unknown): f is WorkedFile => {
  const r = f as WorkedFile | null;
  return !!r && typeof r.sessions === 'number' && typeof r.weight === 'number' && typeof r.seq === 'number' && typeof r.last === 'string';
};

/** A ledger read from disk, or an empty one when it is not one (torn, hand-edited, from elsewhere). */
export function parseWorkedFiles(text: string | null): WorkedFiles {
  if (!text) return emptyWorkedFiles();
  try {
    const v = JSON.parse(text) as Partial<WorkedFiles> | null;
    if (!v || typeof v.seq !== 'number' || typeof v.files !== 'object' || v.files === null || Array.isArray(v.files))
      return emptyWorkedFiles();
    const files: Record<string, WorkedFile> = {};
    for (const [path, f] of Object.entries(v.files)) if (isRecord(f)) files[path] = f;
    const commands: Record<string, WorkedCommand> = {};
    if (v.commands && typeof v.commands === 'object' && !Array.isArray(v.commands))
      for (const [key, c] of Object.entries(v.commands))
        if (isRecord(c) && typeof (c as WorkedCommand).shown === 'string') commands[key] = c as WorkedCommand;
    return { seq: v.seq, files, ...(Object.keys(commands).length > 0 ? { commands } : {}) };
  } catch {
    return emptyWorkedFiles();
  }
}
