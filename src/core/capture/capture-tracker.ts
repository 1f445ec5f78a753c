// What a session did that is worth a lesson, gathered while its transcript is
// read (SPEC §6a): the project's commands that succeeded and where, checks
// that failed and later passed with what changed in between, errors by their
// signature, and the user's corrections. It sees the same events as the
// summary builder, after `<private>` spans and injected text are gone, and
// keeps a small state that a later read of the same transcript goes on from
// (so capture at compaction and at the end see one session). Pure.

import { filterSecrets } from '../security/secret-filter.ts';
import {
  commandSteps,
  displayCommand,
  grepMatchedNothing,
  isInspection,
  mainStep,
  normalizeCommand,
  onlyFetches,
  outputShowsFailure,
  PACKAGE_INSTALL,
  programBase,
  unwrapCommand,
  withoutRedirections,
} from '../session/summary-commands.ts';
import { clip, oneLine } from '../text.ts';
import { absolutePath, isAbsolutePath, isClaudeCodeFile, projectDir, projectPath } from '../transcript/path-spelling.ts';
import { shellEffects, shellWords } from '../transcript/shell-effects.ts';
import type { TranscriptEvent } from '../transcript/transcript-events.ts';
import type { EditChange } from '../transcript/transcript-tools.ts';
import { isConfigFile } from './config-files.ts';
import { type Correction, isRefusal, readCorrection, refusalNote, repeatedRequests, reportsNoChange, statedRules } from './corrections.ts';
import {
  type ErrorSignature,
  errorSignature,
  hookOfKey,
  isEnvironmentError,
  isModuleByPath,
  isShellError,
  pointsIntoCode,
  reportedError,
  runsAFlag,
} from './error-signature.ts';
import { failureSignature, isSilentExit, keptError, stepProgram, timedOutCommand } from './failure-key.ts';
import { isPackageOperation, runsOwnCode, type WorkKind, workCommand, workFamily, workKind } from './work-commands.ts';

export interface WorkSeen {
  kind: WorkKind;
  /** As the project runs it (`npm run build`, `pytest`). */
  command: string;
  /** Project-relative folder it ran in ('' for the root). */
  dir: string;
  ok: number;
  failed: number;
  /** Order of the latest run, for "the latest command of a kind wins". */
  last: number;
  lastOk: boolean;
}

export interface FailureSeen {
  /** Family and folder: a later run with the same key passing settles it. */
  key: string;
  /** The failing command as shown. */
  command: string;
  error: ErrorSignature;
  /** Files edited after it failed. */
  edits: string[];
  /** Files outside the project edited after it failed (not named: their paths are the machine's). */
  elsewhere?: number;
  /** Other commands that succeeded after it failed (a step run first). */
  steps: string[];
  /** What the edits of settings after it changed (`ci.yml: \`a\` → \`b\``). */
  changes?: string[];
  /** The flags of the whole command (the one shown may be cut before them). */
  flags?: string[];
  /** The words of the whole command's last step other than its flags (values, arguments), clipped. */
  rest?: string;
  /** The whole command runs code of the session's own (`node scripts/x.js`; the one shown may be cut before it). */
  own?: boolean;
  /** The program that ran (`python3`, as programOf reads the whole command: the one shown may be cut). */
  program?: string;
  /** The command's first word as run (`CI=1`, `timeout`, `npm`): one dropped or added makes another command. */
  lead?: string;
  /** When that program was not there: the files and packages the whole command names, what it was for. */
  purpose?: string[];
}

export interface FixSeen {
  failed: string;
  passed: string;
  error: ErrorSignature;
  edits: string[];
  /** Files outside the project edited in between. */
  elsewhere?: number;
  steps: string[];
  /**
   * What differed in the run that passed: steps run first, the command itself, settings edited (and
   * nothing else), or only files edited.
   */
  change: 'steps' | 'command' | 'config' | 'edits';
  changes?: string[];
  /** The same program passed with other flags: those it gained and lost (`--no-verify`). */
  flags?: { added: string[]; removed: string[] };
  /** The error was one the user pasted (a CI log, a terminal), not a run of this session. */
  pasted?: boolean;
  /** The failing command ran code of the session's own (see FailureSeen.own). */
  own?: boolean;
  /** The program was not there, and another did the same job: which, on what (the files or packages both named). */
  instead?: { program: string; on: string[] };
}

/** An error the user pasted into a message, and what the assistant did about it before the user spoke again. */
export interface PastedError {
  error: ErrorSignature;
  /** Settings files edited since. */
  edits: string[];
  changes: string[];
  /** Installs run since. */
  steps: string[];
  /** Code was edited too: the fix, if any, was ordinary work. */
  other: boolean;
}

export interface ErrorSeen {
  error: ErrorSignature;
  /** The command family or tool that met it. */
  what: string;
  count: number;
  /** Code errors (a source location in the line, an assertion) are fixed by editing code: never an obstacle. */
  code: boolean;
}

interface PendingCall {
  id: string;
  tool: string;
  command: string | null;
  dir: string | null;
  file: string | null;
  edit: boolean;
  sidechain: boolean;
  change?: EditChange;
  /** Started with `run_in_background`: its result only says it started. */
  background?: boolean;
  /** The file a Read (or another reading tool) asked for. */
  read?: string;
}

export interface CaptureState {
  root: string | null;
  pending: PendingCall[];
  works: WorkSeen[];
  open: FailureSeen[];
  fixes: FixSeen[];
  errors: ErrorSeen[];
  /** Errors of Claude Code's own tools (an edit's text not found, a file not read first): never a lesson of the project. */
  toolErrors?: ErrorSeen[];
  corrections: Correction[];
  /** A refused main-chain call the user has not spoken after yet. */
  refused: string | null;
  /** That call put a plan or a question to the user (absent in a state written before it was kept). */
  refusedProposal?: boolean;
  /** The assistant's latest action since the user last spoke (described only when a correction needs it). */
  acted: PendingCall | null;
  runs: number;
  /** An error the user's latest message pasted, while what followed it is gathered. */
  pasted?: PastedError | null;
}

export const CAPTURE_CAPS = {
  pending: 32,
  works: 24,
  open: 12,
  fixes: 8,
  errors: 24,
  toolErrors: 8,
  corrections: 6,
  edits: 6,
  steps: 4,
} as const;

export function emptyCaptureState(): CaptureState {
  return { root: null, pending: [], works: [], open: [], fixes: [], errors: [], corrections: [], refused: null, acted: null, runs: 0 };
}

// The shell found no such program (`gh: command not found`, `'tree' is not recognized as …`).
const NO_SUCH_PROGRAM = 'command not found|is not recognized as an internal or external command';
const PROGRAM_NOT_FOUND = new RegExp(NO_SUCH_PROGRAM, 'i');
// A tool or script that is not there, said in a run's output whatever its exit status showed.
const MISSING_TOOL = new RegExp(
  `^.*(?:${NO_SUCH_PROGRAM}|Cannot find module|Couldn't find a script named|Missing script:|ERR_PNPM_\\w+\\s+Command "[^"]+" not found).*$`,
  'im',
);
// A shell that could not find the program (`/bin/sh: 1: node: not found`), in the shells' own lower case: never
// a page's `404: Not Found`.
const SHELL_NOT_FOUND = /^(?:\S+: )?(?:\d+: )?(?:line \d+: )?[A-Za-z_][\w.-]*: not found$/m;
// The command itself was wrong, not the code: a script, program or option this project does not have.
const WRONG_COMMAND = new RegExp(
  `${NO_SUCH_PROGRAM}|couldn'?t find a script|missing script|no such (?:command|option|script)|unknown (?:option|flag|command|argument|script)|unrecognized (?:option|argument|arguments|command)|invalid option|error parsing (?:flag|option|argument)|is not a (?:valid )?(?:command|option)`,
  'i',
);

/** The command was wrong here (a program or script not there, an option it does not know): no edit of the code fixes that. */
export const isWrongCommand = (line: string): boolean => WRONG_COMMAND.test(line);
// The shell could not parse the command line: a slip in its quoting, not the machine in the way.
// The shell could not read the command as written: bash's words, and zsh's (`(eval):1: parse error near \`('`).
const SHELL_SLIP =
  /\b(?:syntax error near unexpected token|unexpected EOF while looking for|unterminated quoted string|parse error near)\b/i;
const SHELL_SLIP_LINE = new RegExp(`^.*${SHELL_SLIP.source}.*$`, 'im');

// A `cd` by a relative path into a folder that is not there from where the shell stands (`bash: line 1: cd:
// packages/api: No such file or directory`, zsh's `(eval):cd:1: no such file or directory: backend/api`), given by
// the command itself: the Bash tool kept the folder an earlier call moved to, and the model lost track of it. Not an
// absolute path, nor a Windows one bash mangled (`cd: $'d:workx'`): those say where things are, or how to write a
// path here; nor a `cd` a script or a build ran (`npm run deploy` printing `cd: dist: …`: dist is not built yet).
const LOST_CD =
  /(?:^|[\s:])cd: (?![A-Za-z]:|\$'|[/\\~])([^:]+): no such file or directory\b|\(eval\):cd:\d+: no such file or directory: (?![A-Za-z]:|[/\\~])(.+)$/im;
/** The command's own `cd` went into a folder not there from where the shell stood. */
function lostCd(line: string, command: string | undefined): boolean {
  const m = LOST_CD.exec(line);
  if (!m || !command) return false;
  const path = (m[1] ?? m[2] ?? '').trim();
  return commandSteps(command, { lines: true }).some((step) => {
    // The shell's own reading of the step (quotes removed, `cd "my app"` is two words), in a subshell or not.
    const words = shellWords(step.trim().replace(/^\(\s*/, ''))
      .filter((w) => !w.op)
      .map((w) => w.text);
    const dir = words[0] === 'cd' ? (words[1] === '--' ? words[2] : words[1]) : undefined;
    // bash names the whole folder given; some zsh name only its first missing part.
    return dir !== undefined && (dir === path || dir.startsWith(`${path}/`));
  });
}

// A program not found named by a capitalised word (`zsh: command not found: Kill`, `bash: Check: command not found`).
const WORD_NOT_FOUND = /command not found: ([A-Z][a-z]+)\b|(?:^|[\s:])([A-Z][a-z]+): command not found\b/;

/**
 * The command was a sentence, not a program (`Kill training process`, `Kill the trainer now.`): its description
 * given as the command. At least two words follow, and nothing of the shell's (a flag, a pipe, a redirection, a
 * file's extension): `Rscript analysis.R` runs a program.
 */
function proseCommand(line: string, command: string | undefined): boolean {
  const m = WORD_NOT_FOUND.exec(line);
  if (!m || !command) return false;
  const word = m[1] ?? m[2] ?? '';
  const sentence = new RegExp(`^${word}(?: (?!-)[^\\s|&;<>$=.]+){2,}[.!?]?$`);
  return commandSteps(command, { lines: true }).some((step) => sentence.test(step.trim()));
}

/**
 * The shell could not read the command as written (an unclosed quote, zsh's parse error), the command's own `cd`
 * went from the wrong folder, or the command was a sentence: the model's slip with the tool.
 */
export const isShellSlip = (line: string, command?: string): boolean =>
  SHELL_SLIP.test(line) || lostCd(line, command) || proseCommand(line, command);
// A fallback that turns any failure into success.
const MASKED = /\|\|\s*(?:true|:|echo\b|printf\b|exit\s+0\b)/;
// The plugin's own CLI: managing memory is not how the project is worked.
const OWN_CLI = /(?:^|[\s/])rune-echoes(?:\s|$)|\bdist\/cli\.mjs\b/;

// A file a command names by its extension (`店铺概览.xlsx`, `./data/s1.json` → `s1.json`), wherever it stands: in
// an argument, a path or code passed inline (`python3 -c "…open('s1.json')…"`), between the marks that bound a
// word or a path; never a call (`json.dump(`), a member (`self.db.x`) or what is assigned to (`self.db = …`).
const FILE_NAMED =
  /(?<![^\s'"`/\\=(,[])[\p{L}\p{N}_.-]{0,120}[\p{L}\p{N}_-]\.(?:json|jsonl|csv|tsv|xlsx|xls|docx|doc|pdf|txt|md|html?|xml|ya?ml|toml|ini|db|sqlite3?|py|js|mjs|cjs|ts|tsx|jsx|sh|ps1|sql)(?=$|[\s'"`),;\]])(?!\s*=[^=])/giu;
const PURPOSE_MAX = 8;
const NAME_MAX = 120;

/** The program a command's main step starts (`python3`, `node`; `python3 -m pip` is `python3`), without its folder or `.exe`. */
function programOf(normalized: string): string {
  return stepProgram(withoutRedirections(mainStep(normalized))).toLowerCase();
}

/** A run that does a job in place of another program: code run by an interpreter, or packages installed. */
function doesAJob(normalized: string): boolean {
  const step = unwrapCommand(withoutRedirections(mainStep(normalized)));
  return runsOwnCode(normalized) || PACKAGE_INSTALL.test(step) || /^\S+\s+-m\s+pip\s+install\s/.test(step);
}

/**
 * What a command is for, by name: the files its main step names, with the script it passes inline or in a
 * heredoc (the lines after the first), and, when it installs, the packages (`python -m pip install openpyxl`
 * → `openpyxl`). Not a commit's message, a web address, or another step of the line (`cp a.csv /tmp && …`).
 */
function purposeOf(command: string): string[] {
  const [first = '', ...rest] = command.replace(/-m\s+(?:"(?:[^"\\]|\\.)*"|'[^']*')/g, '').split('\n');
  const step = unwrapCommand(withoutRedirections(mainStep(first)));
  const text = [step, ...rest].join('\n').replace(/\b[a-z][\w+.-]*:\/\/\S+/gi, ' ');
  const files = [...text.matchAll(FILE_NAMED)].map((m) => m[0].toLowerCase());
  const install = /(?:^|\s)(?:install|add)\s+([^|;&]+)/.exec(step);
  const packages = (install?.[1] ?? '')
    .split(/\s+/)
    .map((w) => w.replace(/^['"]|['"]$/g, '').split(/[<>=!~[;]/)[0]!)
    .filter((w) => w.length >= 3 && w.length <= NAME_MAX && !w.startsWith('-') && !/\.\w+$/.test(w));
  return [...new Set([...files, ...packages.map((w) => w.toLowerCase())])].slice(0, PURPOSE_MAX);
}

/** What a run is pointed at: its words after the family that are not flags (`test/a_test.exs`), as one key. */
function targetsOf(shown: string): string {
  const command = shown.replace(/^cd \S+ && /, '').replace(/…$/, '');
  const family = workFamily(command).split(' ').length;
  return command
    .split(/\s+/)
    .slice(family)
    .filter((w) => w && !w.startsWith('-') && w !== '--')
    .join(' ');
}

/** The flags of a command's last step (`git add x && git commit --no-verify -m …` → `--no-verify`, `-m`), sorted. */
function flagsOf(command: string): string[] {
  const steps = commandSteps(command);
  return [
    ...new Set(
      (steps[steps.length - 1] ?? '')
        .split(/\s+/)
        .filter((w) => /^--?[A-Za-z][\w-]*$/.test(w))
        .sort(),
    ),
  ].slice(0, 8);
}

// A temporary folder's scratch (`/tmp/probe.c`, macOS's `/var/folders/…`, Windows' `…/Temp/…`): no code of the work.
const TEMP_FILE = /^\/tmp\/|^\/var\/folders\/|^\/private\/(?:tmp|var)\/|\/Temp\//i;

/** The words of a command's last step other than its flags: its values and arguments (clipped). */
function restOf(command: string): string {
  const steps = commandSteps(command);
  return clip(
    (steps[steps.length - 1] ?? '')
      .split(/\s+/)
      .filter((w) => w && !/^--?[A-Za-z][\w-]*$/.test(w))
      .join(' '),
    300,
  );
}

function pushBounded<T>(list: T[], item: T, cap: number): T[] {
  const next = [...list, item];
  return next.length > cap ? next.slice(next.length - cap) : next;
}

function addUnique(list: string[], item: string, cap: number): string[] {
  return list.includes(item) ? list : pushBounded(list, item, cap);
}

/** `ci.yml: \`node-version: [18, 20]\` → \`node-version: [20]\``: what an edit of a setting changed, when it is short. */
function changeText(path: string, change: EditChange | undefined): string | null {
  if (!change) return null;
  const name = path.split('/').slice(-2).join('/');
  const code = (t: string) => `\`${t.replace(/`/g, "'")}\``;
  if (!change.before) return `${name}: added ${code(change.after)}`;
  if (!change.after) return `${name}: removed ${code(change.before)}`;
  return `${name}: ${code(change.before)} → ${code(change.after)}`;
}

/** The error a user's message pasted (a CI log, a terminal's output), by the lines such output prints. */
function pastedSignature(text: string, root: string | null): ErrorSignature | null {
  const error = reportedError(text);
  return error ? kept(error, root) : null;
}

/** An error as kept (core/capture/failure-key.ts), a secret its line printed filtered out. */
const kept = (error: ErrorSignature, root: string | null): ErrorSignature => keptError(error, root, (line) => filterSecrets(line).text);

function editedAfterPaste(p: PastedError, path: string, config: boolean, change: string | null): PastedError {
  if (!config || isAbsolutePath(path)) return { ...p, other: true };
  return {
    ...p,
    edits: addUnique(p.edits, path, CAPTURE_CAPS.edits),
    changes: change ? addUnique(p.changes, change, CAPTURE_CAPS.edits) : p.changes,
  };
}

/**
 * The user spoke again after pasting an error: when only settings were edited or packages installed
 * since, and the new message neither reports the same error nor says nothing changed, that fixed it.
 */
function settlePasted(fixes: FixSeen[], p: PastedError, next: string, reported: ErrorSignature | null): FixSeen[] {
  if (p.other || (p.edits.length === 0 && p.steps.length === 0)) return fixes;
  if (reported?.key === p.error.key || reportsNoChange(next)) return fixes;
  const fix: FixSeen = {
    failed: '',
    passed: '',
    error: p.error,
    edits: p.edits,
    steps: p.steps,
    change: p.edits.length > 0 ? 'config' : 'steps',
    changes: p.changes,
    pasted: true,
  };
  return pushBounded(
    fixes.filter((x) => x.error.key !== p.error.key),
    fix,
    CAPTURE_CAPS.fixes,
  );
}

/**
 * The session's fixes as its capture sees them: at its end, an error the user pasted and that only
 * settings edits or installs followed counts as fixed, for the user did not come back to it.
 */
export function fixesOf(state: CaptureState, ended: boolean): FixSeen[] {
  return ended && state.pasted ? settlePasted(state.fixes, state.pasted, '', null) : state.fixes;
}

/** Folds events into the state; returns the new state (the input is not changed). */
export function trackCapture(state: CaptureState, events: readonly TranscriptEvent[]): CaptureState {
  let s = state;
  for (const e of events) s = onEvent(s, e);
  return s;
}

function onEvent(s: CaptureState, e: TranscriptEvent): CaptureState {
  switch (e.kind) {
    case 'context':
      return !s.root && e.cwd ? { ...s, root: e.cwd } : s;
    case 'prompt': {
      if (e.sidechain) return s;
      const acted = s.acted;
      const c =
        s.refused || acted
          ? readCorrection(e.text, {
              refused: s.refused,
              proposal: s.refusedProposal === true,
              acted: acted ? () => describe(s, acted) : null,
            })
          : null;
      let corrections = c ? pushBounded(s.corrections, c, CAPTURE_CAPS.corrections) : s.corrections;
      if (!c) {
        // A request the user says they make again stands, whatever it is worded as; the rules the message states besides it too.
        const again = repeatedRequests(e.text);
        const stated = statedRules(e.text).filter((r) => !again.some((a) => a.words.includes(r.words) || r.words.includes(a.words)));
        for (const rule of [...again, ...stated]) corrections = pushBounded(corrections, rule, CAPTURE_CAPS.corrections);
      }
      const reported = e.slash ? null : pastedSignature(e.text, s.root);
      const fixes = s.pasted ? settlePasted(s.fixes, s.pasted, e.text, reported) : s.fixes;
      const pasted = reported ? { error: reported, edits: [], changes: [], steps: [], other: false } : null;
      return { ...s, corrections, fixes, pasted, refused: null, refusedProposal: false, acted: null };
    }
    case 'tool-use': {
      if (e.hidden || !e.call.id) return s;
      const call = e.call;
      // Most commands do not start with a `cd`: only those are parsed for it.
      const cd = call.command !== null && /^\s*(?:cd|pushd)\s/.test(call.command) ? shellEffects(call.command).cd : null;
      const dir = cd ? absolutePath(cd, e.cwd) : e.cwd;
      // Only an edited file matters to capture (files edited before a check passed, the action a correction
      // is about); it is spelled relative to the project only when one of those asks (projectPath resolves it).
      const file = call.file?.access === 'edit' ? call.file.path : null;
      const p: PendingCall = {
        id: call.id,
        tool: call.name,
        command: call.command,
        dir,
        file,
        edit: call.file?.access === 'edit',
        sidechain: e.sidechain,
        ...(call.change ? { change: call.change } : {}),
        ...(call.background ? { background: true } : {}),
        ...(call.file?.access === 'read' ? { read: call.file.path } : {}),
      };
      return {
        ...s,
        pending: pushBounded(
          s.pending.filter((x) => x.id !== p.id),
          p,
          CAPTURE_CAPS.pending,
        ),
      };
    }
    case 'tool-result': {
      const p = s.pending.find((x) => x.id === e.result.toolUseId);
      if (!p) return s;
      return onResult({ ...s, pending: s.pending.filter((x) => x !== p) }, p, e.result);
    }
    default:
      return s;
  }
}

type Result = Extract<TranscriptEvent, { kind: 'tool-result' }>['result'];

/** Claude Code's tools that put a plan or a question to the user: a note turning one down answers it. */
const PROPOSALS = new Set(['ExitPlanMode', 'AskUserQuestion']);

function describe(s: CaptureState, p: PendingCall): string {
  if (p.command !== null) return `\`${displayCommand(normalizeCommand(p.command, p.dir, s.root ?? p.dir))}\``;
  if (p.file) return `${p.edit ? 'editing' : 'reading'} ${projectPath(p.file, p.dir, s.root)}`;
  return `the ${p.tool} tool`;
}

function onResult(s: CaptureState, p: PendingCall, r: Result): CaptureState {
  if (r.isError && isRefusal(r.text)) {
    if (p.sidechain) return s;
    const about = describe(s, p);
    const proposal = PROPOSALS.has(p.tool);
    const note = r.userSaid ? refusalNote(r.userSaid, about, proposal) : null;
    if (note)
      return { ...s, corrections: pushBounded(s.corrections, note, CAPTURE_CAPS.corrections), refused: null, refusedProposal: false };
    return { ...s, refused: about, refusedProposal: proposal };
  }
  if (p.command !== null) return onCommand(s, p, p.command, r);
  if (p.file && p.edit) {
    if (!r.isError) {
      const acted = p.sidechain ? s.acted : p;
      if (s.open.length === 0 && !s.pasted) return { ...s, acted };
      const path = projectPath(p.file, p.dir, s.root);
      const config = isConfigFile(path);
      const change = config ? changeText(path, p.change) : null;
      const open = isAbsolutePath(path)
        ? isClaudeCodeFile(path) || TEMP_FILE.test(path)
          ? s.open
          : s.open.map((f) => ({ ...f, elsewhere: Math.min((f.elsewhere ?? 0) + 1, CAPTURE_CAPS.edits) }))
        : s.open.map((f) => ({
            ...f,
            edits: addUnique(f.edits, path, CAPTURE_CAPS.edits),
            ...(change ? { changes: addUnique(f.changes ?? [], change, CAPTURE_CAPS.edits) } : {}),
          }));
      const pasted = s.pasted ? editedAfterPaste(s.pasted, path, config, change) : s.pasted;
      return { ...s, open, pasted, acted };
    }
  }
  if (!r.isError) return s;
  // A file of the project too large for one Read is a trap of the project: met in another session, it is an
  // obstacle. It is counted with the tools' errors too (below): met here again, whatever the file, the start names it.
  const large = p.read ? tooLargeToRead(r.text, projectPath(p.read, p.dir, s.root)) : null;
  const next = large ? noteError(s, { line: large.line, key: large.key }, `Read ${large.path}`, false) : s;
  // Claude Code's own tools (an edit whose text was not found, a file not read first) fail on the model's
  // slips and say how to go on: the harness's rules, not this project's, so never an obstacle. They are
  // counted apart: met again and again here, the start names them (a formatter rewriting files, say).
  // A hook of the user's that blocked the call is the project's, whatever the tool: an obstacle, as for a command.
  const error = signatureOf(r.text, s.root, true);
  const hook = error ? hookOfKey(error.key) : null;
  if (error && hook) return noteError(next, error, `hook ${hook}`, false);
  return error ? { ...next, toolErrors: noteToolError(next.toolErrors ?? [], error, p.tool) } : next;
}

// Claude Code's Read turning down a file for its size (`File content (31234 tokens) exceeds maximum allowed tokens (25000)`).
const READ_TOO_LARGE = /File content \([^)\n]*\) exceeds maximum allowed (?:tokens|size) \([^)\n]*\)/;

/** How the key of a file too large to Read opens. */
export const TOO_LARGE_KEY = 'read too large ';

/**
 * A project file Read turned down for its size, known by its folder and extension: the next file of the same
 * kind there (another day's export, another chat log) will be too large too. A file at the root, or one with
 * no extension, is known by itself. Folders are compared in lower case (Windows spells one several ways).
 */
function tooLargeToRead(text: string, path: string): (ErrorSignature & { path: string }) | null {
  const line = READ_TOO_LARGE.exec(text)?.[0];
  if (!line || path === '' || path.startsWith('..') || isAbsolutePath(path)) return null;
  const slash = path.lastIndexOf('/');
  const name = path.slice(slash + 1);
  const dot = name.lastIndexOf('.');
  const kind = slash < 0 || dot <= 0 ? path : `${path.slice(0, slash)}/*${name.slice(dot)}`;
  return { line, key: `${TOO_LARGE_KEY}${kind.toLowerCase()}`, path };
}

function noteToolError(list: ErrorSeen[], error: ErrorSignature, tool: string): ErrorSeen[] {
  const i = list.findIndex((x) => x.error.key === error.key);
  if (i >= 0) return list.map((x, k) => (k === i ? { ...x, count: x.count + 1 } : x));
  return pushBounded(list, { error, what: tool, count: 1, code: false }, CAPTURE_CAPS.toolErrors);
}

/** The signature of a failure's output, as kept (see `kept`). */
function signatureOf(output: string, root: string | null, failed = false): ErrorSignature | null {
  const error = errorSignature(output, failed);
  return error ? kept(error, root) : null;
}

/** What a failed command's output is known by, as kept (core/capture/failure-key.ts). */
const commandFailure = (output: string, normalized: string, root: string | null, further = '', raw?: string): ErrorSignature | null =>
  failureSignature(output, normalized, root, (line) => filterSecrets(line).text, further, raw);

/**
 * `checks`: the run was a check of the code (build, test, typecheck, lint, format) or git, or an
 * interpreter running code of the session's own: what it reports is the state of that code or of the
 * change, fixed by working on them, unless the machine is in the way or the shell itself complained.
 */
function noteError(s: CaptureState, error: ErrorSignature, what: string, checks: boolean, command?: string): CaptureState {
  const i = s.errors.findIndex((x) => x.error.key === error.key);
  if (i >= 0) return { ...s, errors: s.errors.map((x, k) => (k === i ? { ...x, count: x.count + 1 } : x)) };
  // A hook of the user's that blocked the call is never the code's: what it says may read like an assertion.
  const code =
    hookOfKey(error.key) === null &&
    (pointsIntoCode(error.line) ||
      isShellSlip(error.line, command) ||
      runsAFlag(error.line) ||
      (checks && !isEnvironmentError(error.line) && !isShellError(error.line)));
  return { ...s, errors: pushBounded(s.errors, { error, what, count: 1, code }, CAPTURE_CAPS.errors) };
}

function onCommand(s: CaptureState, p: PendingCall, command: string, r: Result): CaptureState {
  if (OWN_CLI.test(command)) return s;
  // A command started in the background has not passed yet: its start says nothing of how it ends.
  if (p.background && !r.isError && (r.exitCode ?? 0) === 0) return p.sidechain ? s : { ...s, acted: p };
  const root = s.root ?? p.dir;
  const normalized = normalizeCommand(command, p.dir, root);
  if (!normalized) return s;
  const where = projectDir(p.dir, root) ?? '';
  const program = programOf(normalized);
  if (where.startsWith('..') || isAbsolutePath(where)) return s;
  const shown = displayCommand(where ? `cd ${where} && ${normalized}` : normalized);
  const family = workFamily(normalized);
  // Asking a program its version or help (`npx playwright --version`) is no way of working the project.
  const kind = isInspection(normalized) ? null : workKind(normalized);
  const runs = s.runs + 1;
  // A grep at the end of a pipe that matched nothing exits 1 for itself (summary-commands.ts).
  const unfound = grepMatchedNothing(command, r);
  let failed = (r.isError || (r.exitCode !== null && r.exitCode !== 0)) && !/\bnothing to commit\b/.test(r.text) && !unfound;
  // A pipe hides the status of what runs before its last step (an editor reports the pipe's `0`), as `;` does
  // of all but the last command: a check's printed totals decide.
  // A pipe (not `||`, not one quoted): the status is its last step's.
  const piped = commandSteps(command, { pipes: true }).length > commandSteps(command).length;
  const statusHidden = r.exitCode === null || unfound || (r.exitCode === 0 && piped);
  if (!failed && kind && statusHidden && /\||;\s*\S/.test(command)) failed = outputShowsFailure(r.tail, kind === 'test' ? 'test' : 'build');
  const acted = p.sidechain || isInspection(normalized) ? s.acted : p;
  let next: CaptureState = { ...s, runs, acted };
  // A pipe or a fallback can hide that a tool was missing (`tsc … | head`): what the output says is met all the same,
  // and a check whose program or script was not there did not pass, whatever status the pipe reported.
  if (!failed && !isInspection(normalized)) {
    const printed = `${r.text}\n${r.tail}`;
    const hidden = MISSING_TOOL.exec(printed) ?? SHELL_NOT_FOUND.exec(printed);
    // A module named by its path (`Cannot find module '../../x'`) is the code's own import gone, no tool missing;
    // one under node_modules (`node_modules/.pnpm/typescript@5.8.3/…/bin/tsc`) is a package the install left out.
    const ownImport = hidden !== null && isModuleByPath(hidden[0]) && !/node_modules[/\\]/.test(hidden[0]);
    const error = hidden && !ownImport ? signatureOf(hidden[0], root, true) : null;
    if (error) next = noteError(next, error, family, false, command);
    if (error && kind && statusHidden && piped && !MASKED.test(command)) failed = true;
  }
  // `… || echo failed`, `… || true`: a run that cannot fail says nothing of whether it worked.
  if (!failed && MASKED.test(command)) return next;
  const error = failed ? commandFailure(`${r.text}\n${r.tail}`, normalized, root, r.further, command) : null;
  // A hook of the user's that blocked the call is what met it, whatever the command (`sleep 2 && rm -rf …`), a
  // look too; the command did not run, so it says nothing of how the project is worked.
  const hook = error && r.isError ? hookOfKey(error.key) : null;
  if (kind && !hook) next = { ...next, works: noteWork(next.works, { kind, command: workCommand(normalized), dir: where }, !failed, runs) };
  const key = `${family}@${where}`;
  if (failed) {
    // The shell could not read the command as written (an unclosed quote): the model's slip with the tool, never
    // an obstacle of the project, but counted with the tools' errors, so that one met again and again is named.
    const slipLine = SHELL_SLIP_LINE.exec(r.text)?.[0];
    const slip = slipLine ? signatureOf(slipLine, root, true) : null;
    if (slip) next = { ...next, toolErrors: noteToolError(next.toolErrors ?? [], slip, p.tool) };
    // A look that failed (`gh pr checks` listing a failing check, `ls` of a missing file) is no trouble met,
    // unless the program itself is not there (`gh: command not found`): that one is met whatever it was asked.
    if (isInspection(normalized) && !hook && !(PROGRAM_NOT_FOUND.test(r.text) || SHELL_NOT_FOUND.test(r.text))) return next;
    if (!error) return next;
    const timedOut = timedOutCommand(error.key);
    const own = runsOwnCode(normalized);
    const checks = (kind !== null && kind !== 'install' && kind !== 'run') || /^git\b/.test(normalized) || own;
    // What timed out is named in its key (`command timed out: bash scripts/e2e.sh`).
    // A program that only failed is known by its name: what it was asked (`curl -s http://127.0.0.1:9222/…`) says where.
    const what =
      timedOut ?? (hook ? `hook ${hook}` : isSilentExit(error.line) ? clip(withoutRedirections(mainStep(normalized)), 80) : family);
    next = noteError(next, error, what, checks, command);
    // A later run that ended in time fixed nothing: it ran shorter, or in the background. What a hook blocked
    // waits for no fix: another command that passed says nothing of the next one the hook will block.
    if (timedOut === null && hook === null && !next.open.some((f) => f.key === key))
      next = {
        ...next,
        open: pushBounded(
          next.open,
          {
            key,
            command: shown,
            error,
            edits: [],
            steps: [],
            flags: flagsOf(normalized),
            rest: restOf(normalized),
            ...(own ? { own: true } : {}),
            program,
            lead: normalized.split(' ')[0] ?? '',
            // The program itself was not there (or, an interpreter, failed printing nothing but its status): another
            // that does the same job may stand in for it.
            ...(missingProgram(error.line) === program && (!isSilentExit(error.line) || runsOwnCode(normalized))
              ? { purpose: purposeOf(command) }
              : {}),
          },
          CAPTURE_CAPS.open,
        ),
      };
    return next;
  }
  // A run settles a failure of its family and folder when it checks at least as much: the same targets,
  // or the whole (`mix test` after `mix test a_test.exs`), never another target (`mix test b_test.exs`).
  const covers = (f: FailureSeen) => f.key === key && (targetsOf(shown) === '' || targetsOf(shown) === targetsOf(f.command));
  // A command that was wrong here (a script or program not there, an option it does not know) is settled by
  // another command for the same purpose that worked, wherever it ran: that one is how it is done here.
  // Nothing edited in between: a code change that made another check pass fixed the code, not the command.
  const replaces = (f: FailureSeen) =>
    kind !== null &&
    f.key !== key &&
    f.edits.length === 0 &&
    (WRONG_COMMAND.test(f.error.line) || SHELL_NOT_FOUND.test(f.error.line)) &&
    !pointsIntoCode(f.error.line) &&
    workKind(f.command.replace(/^cd \S+ && /, '')) === kind;
  // A program that was not there, or failed printing nothing but its status (the Windows Store's `python3`), is
  // settled by another program that did the same job: one naming the same file or package (`node -e …` reading the
  // `.xlsx` a `python3 -c …` was after). That one is how it is done on this machine.
  const purpose = next.open.some((f) => f.purpose?.length) && doesAJob(normalized) ? purposeOf(command) : [];
  const standsIn = (f: FailureSeen) =>
    f.edits.length === 0 && f.purpose !== undefined && f.program !== program && f.purpose.some((t) => purpose.includes(t));
  // Asking the program for its help or version (`claude --help`) runs nothing it failed at.
  const settles = (f: FailureSeen) => !isInspection(normalized) && (covers(f) || replaces(f) || standsIn(f));
  const settled = next.open.filter(settles);
  let open = next.open.filter((f) => !settles(f));
  let fixes = next.fixes;
  for (const f of settled) {
    // A narrower run passing (`npm test -- one.test.ts` after `npm test` failed) fixed nothing.
    const narrower = shown.startsWith(f.command) && shown !== f.command;
    const was = f.flags ?? flagsOf(f.command);
    const now = flagsOf(normalized);
    const flags = { added: now.filter((x) => !was.includes(x)), removed: was.filter((x) => !now.includes(x)) };
    // Another family or folder (`yarn test:web` → `cd web && yarn test`), another program in front (`timeout 60 npx
    // astro check` → `npx astro check`), or other flags: another command.
    const sameProgram = (f.program ?? programOf(f.command.replace(/^cd \S+ && /, ''))) === program;
    const sameLead = (f.lead ?? f.command.replace(/^cd \S+ && /, '').split(' ')[0]) === normalized.split(' ')[0];
    const stoodIn = !covers(f) && !replaces(f);
    const otherCommand = flags.added.length + flags.removed.length > 0 || f.key !== key || !sameProgram || !sameLead;
    // Only settings edited in between (a workflow, a tool's config, the manifest): how the project is set up changed.
    const settings = f.edits.length > 0 && f.edits.every(isConfigFile);
    // Another program that did the job is the fix, whatever was run before it (shown beside it).
    const change: FixSeen['change'] = stoodIn
      ? 'command'
      : narrower
        ? 'edits'
        : f.steps.length > 0
          ? 'steps'
          : otherCommand
            ? 'command'
            : settings
              ? 'config'
              : 'edits';
    fixes = pushBounded(
      fixes.filter((x) => x.error.key !== f.error.key),
      {
        failed: f.command,
        passed: shown,
        error: f.error,
        edits: f.edits,
        ...(f.elsewhere ? { elsewhere: f.elsewhere } : {}),
        steps: f.steps,
        change,
        ...(f.changes ? { changes: f.changes } : {}),
        ...(f.own ? { own: true } : {}),
        // Said as flags gained and lost only when nothing else of the command changed (`--user nodejs` → `--user 1001`
        // is no flag dropped).
        ...(change === 'command' &&
        sameProgram &&
        flags.added.length + flags.removed.length > 0 &&
        (f.rest === undefined || f.rest === restOf(normalized))
          ? { flags }
          : {}),
        ...(stoodIn ? { instead: { program, on: (f.purpose ?? []).filter((t) => purpose.includes(t)).slice(0, 3) } } : {}),
      },
      CAPTURE_CAPS.fixes,
    );
  }
  // Any other command that changed something (not a check, which only looks, nor a request that only fetches) is a step
  // taken before whatever still fails passes.
  if (
    !isInspection(normalized) &&
    !onlyFetches(normalized) &&
    !/^git\b/.test(normalized) &&
    (kind === null || kind === 'install' || kind === 'format')
  )
    open = open.map((f) => ({ ...f, steps: addUnique(f.steps, clip(oneLine(shown), 100), CAPTURE_CAPS.steps) }));
  // An install after the user pasted an error (a missing dependency in CI): a step that may be its fix.
  const pasted =
    next.pasted && (kind === 'install' || isPackageOperation(family))
      ? { ...next.pasted, steps: addUnique(next.pasted.steps, clip(oneLine(shown), 100), CAPTURE_CAPS.steps) }
      : next.pasted;
  return { ...next, open, fixes, pasted };
}

// The program a failure's line says was not there, in each shell's words, or that failed printing nothing but its status.
const MISSING_PROGRAM = [
  /command not found: (\S+)/,
  /([^\s:]+): command not found/,
  /([^\s:]+): not found$/,
  /'([^']+)' is not recognized as an internal or external command/,
  /The term '([^']+)' is not recognized as (?:the )?name of a cmdlet/,
  /^(\S+) exited with code -?\d+ and printed nothing$/,
];

/** The program a failure's line says was not there (`pip` of `bash: line 1: pip: command not found`), or null. */
function missingProgram(line: string): string | null {
  for (const re of MISSING_PROGRAM) {
    const m = re.exec(line);
    if (m) return programBase(m[1]!).toLowerCase();
  }
  return null;
}

function noteWork(works: WorkSeen[], run: { kind: WorkKind; command: string; dir: string }, ok: boolean, order: number): WorkSeen[] {
  const i = works.findIndex((w) => w.kind === run.kind && w.command === run.command && w.dir === run.dir);
  if (i >= 0)
    return works.map((w, k) => (k === i ? { ...w, ok: w.ok + (ok ? 1 : 0), failed: w.failed + (ok ? 0 : 1), last: order, lastOk: ok } : w));
  return pushBounded(works, { ...run, ok: ok ? 1 : 0, failed: ok ? 0 : 1, last: order, lastOk: ok }, CAPTURE_CAPS.works);
}
