// Replays a project's recorded Claude Code sessions through the built hooks,
// session by session in time order, as Claude Code would have called them
// (issue 17): SessionStart; per human prompt, Stop for the turn before it and
// UserPromptSubmit with the transcript so far; PreCompact where the
// transcript was compacted (then SessionStart with source compact); Stop and
// SessionEnd at the end; background workers waited for between sessions. Every
// hook is a real process (`node dist/<hook>.cjs`, JSON on stdin; from a copy
// of dist/ taken at the start, so that a build meanwhile cannot pull a bundle
// away mid-replay) in a temporary project with a temporary HOME. The transcript the hooks see is a growing copy
// (under the temporary HOME) of the recorded one, with the recorded project
// folder spelled as the temporary one. The realdata is read in place.
//
// It gathers what the measures need (replay-metrics.ts): what each session
// used and when, what was injected and when, the entries capture wrote.
import { spawn } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, isAbsolute, join, relative, resolve, win32 } from 'node:path';
import { errorSignature } from '../../src/core/capture/error-signature.ts';
import { defaultConfig } from '../../src/core/config/config-defaults.ts';
import { parseEchoDocument } from '../../src/core/entry/echo-document.ts';
import { splitUsageKey } from '../../src/core/lifecycle/usage-events.ts';
import { filesOfLine } from '../../src/core/recall/files-line.ts';
import { didWork } from '../../src/core/session/session-work.ts';
import { commandFamily, isInspection, mainStep, normalizeCommand, unwrapCommand } from '../../src/core/session/summary-commands.ts';
import { estimateTokens } from '../../src/core/text.ts';
import { parseTranscriptLine } from '../../src/core/transcript/transcript-events.ts';
import { TranscriptGuard } from '../../src/core/transcript/transcript-guard.ts';
import { echoPaths } from '../../src/store/fs/echo-paths.ts';
import { readAllEntries } from '../../src/store/memory/memory-files.ts';
import { foldTranscript } from '../../src/store/session/session-lifecycle.ts';
import type { InjectedEntry, Injection, SessionTrace, Use } from './replay-metrics.ts';
import { DIST, waitForWorkersAsync } from './run-bundle.ts';

export const DEFAULT_HISTORIES = resolve(DIST, '..', '..', 'shared', 'realdata', 'histories');

// ---------------------------------------------------------------- reading a history

export interface HistorySession {
  id: string;
  file: string;
  /** When the session itself began (its own first line; a resume's copied lines come earlier). */
  start: string;
  lines: string[];
  /** Lines an earlier session of the history already wrote (a resumed session's copy of its past). */
  copied: boolean[];
}

export interface History {
  name: string;
  dir: string;
  /** The project folder the sessions ran in (the most common `cwd`), spelled as the temporary project in the replay. */
  cwd: string | null;
  sessions: HistorySession[];
  /** Files not replayed, and why. */
  skipped: Array<{ file: string; why: string }>;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function parseLine(line: string): Json | null {
  try {
    const v = JSON.parse(line);
    return isObject(v) ? v : null;
  } catch {
    return null;
  }
}

/** The sessions of one history folder in time order; subagent transcripts and files without a conversation are skipped. */
export function loadHistory(dir: string): History {
  const skipped: History['skipped'] = [];
  const found: Array<HistorySession & { parsed: Array<Json | null> }> = [];
  const cwds = new Map<string, number>();
  for (const file of readdirSync(dir).sort()) {
    if (!file.endsWith('.jsonl')) continue;
    if (file.startsWith('agent-')) {
      skipped.push({ file, why: 'subagent transcript' });
      continue;
    }
    const id = file.slice(0, -'.jsonl'.length);
    const lines = readFileSync(join(dir, file), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
    const parsed = lines.map(parseLine);
    const stamps = parsed.filter((v) => typeof v?.timestamp === 'string' && typeof v.uuid === 'string');
    if (stamps.length === 0) {
      skipped.push({ file, why: lines.length === 0 ? 'empty' : 'no conversation' });
      continue;
    }
    const own = stamps.find((v) => v!.sessionId === id) ?? stamps[0]!;
    for (const v of parsed) if (typeof v?.cwd === 'string') cwds.set(v.cwd, (cwds.get(v.cwd) ?? 0) + 1);
    found.push({ id, file: join(dir, file), start: own.timestamp as string, lines, copied: [], parsed });
  }
  found.sort((a, b) => a.start.localeCompare(b.start) || a.lines.length - b.lines.length || a.id.localeCompare(b.id));
  const seen = new Set<string>();
  for (const s of found) {
    s.copied = s.parsed.map((v) => typeof v?.uuid === 'string' && seen.has(v.uuid));
    for (const v of s.parsed) if (typeof v?.uuid === 'string') seen.add(v.uuid);
  }
  const cwd = [...cwds.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
  return {
    name: basename(dir),
    dir,
    cwd,
    sessions: found.map(({ parsed: _, ...s }) => s),
    skipped,
  };
}

/** The history folders under `root` (a folder holding session transcripts is itself one). */
export function historyFolders(root: string): string[] {
  if (!existsSync(root)) return [];
  const entries = readdirSync(root, { withFileTypes: true });
  if (entries.some((e) => e.isFile() && e.name.endsWith('.jsonl'))) return [root];
  return entries
    .filter((e) => e.isDirectory())
    .map((e) => join(root, e.name))
    .sort();
}

// ---------------------------------------------------------------- running a hook

export interface HookRun {
  hook: string;
  session: string;
  code: number | null;
  stdout: string;
  stderr: string;
  /** Exit 0, and stdout is one JSON object and nothing else. */
  protocolOk: boolean;
  ms: number;
}

function runHookProcess(dist: string, hook: string, input: Json, cwd: string, env: NodeJS.ProcessEnv): Promise<Omit<HookRun, 'session'>> {
  const t0 = Date.now();
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(dist, `${hook}.cjs`)], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', (err) => (stderr += String(err)));
    child.stdin.on('error', () => undefined);
    child.stdin.end(JSON.stringify(input));
    child.on('close', (code) => {
      const lines = stdout.trim().split('\n');
      let protocolOk = code === 0 && lines.length === 1;
      if (protocolOk) protocolOk = parseLine(lines[0]!) !== null;
      done({ hook, code, stdout, stderr, protocolOk, ms: Date.now() - t0 });
    });
  });
}

const HOOK_BUNDLES = ['session-start', 'user-prompt-submit', 'tool-failure', 'stop', 'pre-compact', 'session-end'].map((h) => `${h}.cjs`);

/**
 * A copy of the built hooks for this replay: a build run meanwhile (by someone working in the same
 * checkout) then cannot remove a bundle under a running replay. Retried while the build is half done.
 */
function snapshotDist(to: string): string {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let attempt = 0; ; attempt++) {
    rmSync(to, { recursive: true, force: true });
    cpSync(DIST, to, { recursive: true });
    if (HOOK_BUNDLES.every((f) => existsSync(join(to, f))) && existsSync(join(to, 'lazy'))) return to;
    if (attempt >= 30) throw new Error(`${DIST} has no complete build of the hooks: run npm run build`);
    Atomics.wait(pause, 0, 0, 500);
  }
}

/** The text a hook's answer adds to the model's context ('' when none). */
export function injectedText(stdout: string): string {
  const out = parseLine(stdout.trim());
  const specific = out && isObject(out.hookSpecificOutput) ? out.hookSpecificOutput : null;
  return specific && typeof specific.additionalContext === 'string' ? specific.additionalContext : '';
}

// ---------------------------------------------------------------- what a session did

/** The text of a tool result block, whole (errors are looked for in all of it). */
function resultBlockText(block: Json): string {
  const c = block.content;
  if (typeof c === 'string') return c;
  if (!Array.isArray(c)) return '';
  return c
    .filter((b): b is Json => isObject(b) && b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string)
    .join('\n');
}

/** The tool_result blocks of a line (a progress line carries a subagent's message inside). */
function resultBlocks(v: Json): Map<string, string> {
  const out = new Map<string, string>();
  const data = isObject(v.data) && isObject(v.data.message) ? v.data.message : null;
  for (const m of [v.message, data?.message]) {
    const content = isObject(m) ? m.content : null;
    if (!Array.isArray(content)) continue;
    for (const b of content)
      if (isObject(b) && b.type === 'tool_result' && typeof b.tool_use_id === 'string')
        out.set(b.tool_use_id, resultBlockText(b).slice(0, 20_000));
  }
  return out;
}

const WINDOWS_PATH = /^(?:[A-Za-z]:[\\/]|\\\\)/;

/**
 * The project-relative spelling of a path a tool was given (absolute outside the project). A history
 * recorded on Windows is read with Windows' own path rules, whatever this machine is, with forward slashes.
 */
export function projectPath(path: string, cwd: string | null, project: string): string {
  if (WINDOWS_PATH.test(project)) {
    const abs = win32.resolve(cwd && WINDOWS_PATH.test(cwd) ? cwd : project, path);
    const rel = win32.relative(project, abs);
    return (rel && !rel.startsWith('..') && !win32.isAbsolute(rel) ? rel : abs).replace(/\\/g, '/');
  }
  const abs = isAbsolute(path) ? path : resolve(cwd ?? project, path);
  const rel = relative(project, abs);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : abs;
}

/** Files no session needs again: a background task's output, anything in a temporary folder. */
const SCRATCH = /^(?:\/private)?\/(?:tmp|var\/folders)\//;

// Shell utilities that move, make or remove files or processes: any project uses them, no hand-off need name them.
const FILE_UTILITY = /^(?:cd|mv|cp|rm|rmdir|mkdir|touch|chmod|chown|ln|kill|pkill|killall|open|clear|source|export)\b/;

/** The family a command counts under, or '' for one that only looks (ls, cat, git status) or moves files (mv, rm, mkdir). */
export function neededCommand(command: string, cwd: string | null, project: string): string {
  const normalized = normalizeCommand(command, cwd, project);
  if (!normalized) return '';
  const step = unwrapCommand(mainStep(normalized));
  if (!step || isInspection(step) || FILE_UTILITY.test(step)) return '';
  return commandFamily(normalized);
}

export interface SessionActivityTrace {
  uses: Use[];
  said: SessionTrace['said'];
  /** Human prompts: line index and the text typed. */
  prompts: Array<{ at: number; text: string }>;
  /** Lines where the conversation was compacted (boundary, or a compaction summary without one), with the trigger. */
  compactions: Array<{ at: number; trigger: string }>;
  /** Shell commands of the main conversation that failed: line index of the result, the tool and what it printed. */
  failures: Array<{ at: number; tool: string; command: string; error: string }>;
}

/** What a session's own lines (not a resume's copied past) used, said and asked, by line index. */
export function sessionActivity(lines: readonly string[], copied: readonly boolean[], project: string): SessionActivityTrace {
  const guard = new TranscriptGuard();
  const uses: Use[] = [];
  const seen = new Set<string>();
  const said: SessionTrace['said'] = [];
  const prompts: SessionActivityTrace['prompts'] = [];
  const compactions: SessionActivityTrace['compactions'] = [];
  const failures: SessionActivityTrace['failures'] = [];
  const shellCalls = new Map<string, { tool: string; command: string }>();
  const add = (u: Use) => {
    const k = `${u.kind}:${u.key}`;
    if (!u.key || seen.has(k)) return;
    seen.add(k);
    uses.push(u);
  };
  let boundary = false;
  lines.forEach((line, at) => {
    const events = parseTranscriptLine(line, guard);
    if (copied[at]) return;
    const raw = parseLine(line);
    const results = raw ? resultBlocks(raw) : new Map<string, string>();
    for (const e of events) {
      if (e.kind === 'compact') {
        compactions.push({ at, trigger: e.trigger ?? 'auto' });
        boundary = true;
      } else if (e.kind === 'recap' && !e.sidechain && raw?.isCompactSummary === true) {
        if (!boundary) compactions.push({ at, trigger: 'auto' });
        boundary = false;
      } else if (e.kind === 'prompt' && !e.sidechain) {
        prompts.push({ at, text: typedPrompt(raw, e.text, e.slash) });
      } else if (e.kind === 'assistant-text') {
        said.push({ at, text: e.text });
      } else if (e.kind === 'tool-use' && !e.hidden) {
        const { call } = e;
        if (call.file) {
          const path = projectPath(call.file.path, e.cwd, project);
          if (!SCRATCH.test(path)) add({ kind: 'file', key: path, at });
        }
        if (call.command) {
          if (!e.sidechain) shellCalls.set(call.id, { tool: call.name, command: call.command });
          said.push({ at, text: call.command });
          add({ kind: 'command', key: neededCommand(call.command, e.cwd, project), at });
        }
      } else if (e.kind === 'tool-result') {
        const r = e.result;
        if (!r.isError && (r.exitCode ?? 0) === 0) continue;
        const output = results.get(r.toolUseId) ?? `${r.text}\n${r.tail}`;
        const sig = errorSignature(output, true);
        if (sig) add({ kind: 'error', key: sig.key, line: sig.line, at });
        // Claude Code runs PostToolUseFailure for a result it marked as an error, as every failed shell command is.
        const shell = shellCalls.get(r.toolUseId);
        if (shell && !e.sidechain && r.isError) failures.push({ at, ...shell, error: output });
      }
    }
  });
  return { uses, said, prompts, compactions, failures };
}

/** The prompt as the user typed it (what UserPromptSubmit receives). */
function typedPrompt(raw: Json | null, text: string, slash: boolean): string {
  if (slash || !raw || !isObject(raw.message)) return text;
  const c = raw.message.content;
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) {
    const texts = c.filter((b): b is Json => isObject(b) && b.type === 'text' && typeof b.text === 'string').map((b) => b.text as string);
    if (texts.length) return texts.join('\n');
  }
  return text;
}

// ---------------------------------------------------------------- the replay

export interface CapturedEntry {
  session: string;
  role: string;
  id: string;
  /** The `captured` field: commands, fix, correction, obstacle. */
  kind: string;
  signature: string;
  /** Heading, fields and learning as written. */
  text: string;
  /** What the entry says, as labels are matched against it: title, learning, evidence, symptom, root cause, solution. */
  lesson: string;
}

export interface SessionResult {
  id: string;
  start: string;
  resumed: boolean;
  prompts: number;
  compactions: number;
  /** Shell commands of the main conversation that failed (each a PostToolUseFailure). */
  failures: number;
  trace: SessionTrace;
  /** Tokens injected: SessionStart (and after compaction), each prompt's recall and each failure's that gave anything. */
  tokens: { start: number[]; prompts: number[]; failures: number[] };
  captured: CapturedEntry[];
}

export interface HistoryResult {
  history: History;
  sessions: SessionResult[];
  hooks: HookRun[];
  /** Captured entries as they stand at the end (latest text of each), with the session that first wrote them. */
  captured: CapturedEntry[];
  /** Text in `<private>` spans of the transcripts: none of it may reach memory. */
  privateTexts: string[];
  ms: number;
}

const CAPTURED = /^- \*\*captured\*\*:\s*(.+)$/m;
const SIGNATURE = /^- \*\*signature\*\*:\s*(.+)$/m;
const CAPTURE_SOURCE = /^- \*\*source\*\*:\s*capture\b/m;

/** Every entry of role memory in the project, by `role#id`, with its text; `captured` set on the ones capture wrote. */
type StoredEntry = InjectedEntry & { role: string; captured: string | null; signature: string; lesson: string };

export function memoryEntries(project: string, home: string): Map<string, StoredEntry> {
  const paths = echoPaths(project, defaultConfig(), home);
  const out = new Map<string, StoredEntry>();
  for (const { role } of readAllEntries(paths).roles) {
    const file = join(paths.echoes, role, 'MEMORY.md');
    if (!existsSync(file)) continue;
    for (const b of parseEchoDocument(readFileSync(file, 'utf8')).blocks) {
      if (b.type !== 'entry') continue;
      const e = b.entry;
      const kind = CAPTURED.exec(b.text)?.[1]?.trim() ?? (CAPTURE_SOURCE.test(b.text) ? 'unknown' : null);
      const key = `${role}#${b.entry.id}`;
      out.set(key, {
        key,
        role,
        id: b.entry.id,
        title: b.entry.title,
        text: b.text,
        captured: kind,
        signature: SIGNATURE.exec(b.text)?.[1]?.trim() ?? '',
        lesson: [e.title, e.learning, e.evidence, e.symptom, e.rootCause, e.solution].filter(Boolean).join('\n'),
      });
    }
  }
  return out;
}

interface UsageLine {
  session?: string;
  event?: string;
  via?: string;
  ids?: string[];
}

/** The entry keys usage.jsonl says were injected into a session, in order. */
function injectedKeys(usageLog: string, session: string): string[][] {
  if (!existsSync(usageLog)) return [];
  const out: string[][] = [];
  for (const line of readFileSync(usageLog, 'utf8').split('\n')) {
    const v = parseLine(line) as UsageLine | null;
    if (v?.session === session && v.event === 'injected' && Array.isArray(v.ids)) out.push(v.ids);
  }
  return out;
}

/** The files a prompt's recall named by their paths (its last line, core/recall/file-recall.ts). */
export function namedFilesOf(text: string): string[] {
  return text.split('\n').flatMap(filesOfLine);
}

/** The last session's hand-off inside a SessionStart text: from its title to the lessons or the footer ('' when none). */
export function handOffPart(text: string): string {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => /^(?:#+\s*)?(?:last|this) session\b/i.test(l));
  if (start < 0) return '';
  let end = lines.length;
  for (let i = start + 1; i < lines.length; i++) {
    if (/^(?:Etched \(|Lessons \(|In memory in all:|<\/rune-echoes>)/.test(lines[i]!)) {
      end = i;
      break;
    }
  }
  return lines.slice(start, end).join('\n');
}

const PRIVATE = /<private\b[^>]*>([\s\S]*?)<\/private>/gi;

/** The text inside `<private>` spans anywhere in a recorded line (prompts, tool inputs and results). */
export function privateSpans(line: string): string[] {
  if (!line.includes('private')) return [];
  const out: string[] = [];
  const walk = (v: unknown, depth: number): void => {
    if (typeof v === 'string') {
      for (const m of v.matchAll(PRIVATE)) if (m[1]!.trim()) out.push(m[1]!.trim());
    } else if (depth < 12 && typeof v === 'object' && v !== null) {
      for (const x of Object.values(v)) walk(x, depth + 1);
    }
  };
  walk(parseLine(line), 0);
  return out;
}

export interface ReplayOptions {
  /** Told when each session is done (progress). */
  onSession?: (history: string, session: SessionResult) => void;
  /** Keep the temporary project (its path is given to `onKept`). */
  keep?: boolean;
  onKept?: (dir: string) => void;
}

/** Replays one history folder; the built hooks (dist/) must be current. */
export async function replayHistory(dir: string, opts: ReplayOptions = {}): Promise<HistoryResult> {
  const t0 = Date.now();
  const history = loadHistory(dir);
  const root = mkdtempSync(join(tmpdir(), 'rune-replay-'));
  const project = join(root, 'proj');
  const home = join(root, 'home');
  mkdirSync(project);
  mkdirSync(home);
  const dist = snapshotDist(join(root, 'dist'));
  const transcripts = join(home, '.claude', 'projects', project.replace(/[^A-Za-z0-9]/g, '-'));
  mkdirSync(transcripts, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    CLAUDE_PROJECT_DIR: project,
    // The hooks' Claude Code is this process: the sessions it runs are alive until they end.
    RUNE_ECHOES_CLAUDE_PID: String(process.pid),
  };
  const paths = echoPaths(project, defaultConfig(), home);
  // A history recorded on Windows keeps its paths: they cannot name a folder here, and the hooks must read
  // them as Claude Code wrote them. What its sessions used is then spelled against the folder it recorded.
  const windows = history.cwd !== null && WINDOWS_PATH.test(history.cwd);
  const respell = windows ? (line: string) => line : respeller(history.cwd, project);
  const hooks: HookRun[] = [];
  const sessions: SessionResult[] = [];
  const firstSeen = new Map<string, string>();
  const privateTexts: string[] = [];
  try {
    for (const s of history.sessions) {
      for (const line of s.lines) privateTexts.push(...privateSpans(line));
      const lines = s.lines.map(respell);
      const transcript = join(transcripts, `${s.id}.jsonl`);
      const activity = sessionActivity(lines, s.copied, windows ? history.cwd! : project);
      const base = { session_id: s.id, transcript_path: transcript, cwd: project };
      const run = async (hook: string, input: Json): Promise<string> => {
        const r = await runHookProcess(dist, hook, { ...base, ...input }, project, env);
        hooks.push({ ...r, session: s.id });
        return injectedText(r.stdout);
      };
      const injections: Injection[] = [];
      const tokens = { start: [] as number[], prompts: [] as number[], failures: [] as number[] };
      let usageSeen = 0;
      const note = (at: number, via: Injection['via'], text: string) => {
        const keys = injectedKeys(paths.usageLog, s.id);
        const fresh = keys.slice(usageSeen).flat();
        usageSeen = keys.length;
        if (!text) return;
        const known = memoryEntries(project, home);
        const entries = fresh.flatMap((k) => {
          const { role, id } = splitUsageKey(k);
          const e = role ? known.get(k) : [...known.values()].find((x) => x.id === id);
          return e ? [{ key: e.key, id: e.id, title: e.title, text: e.text }] : [];
        });
        const recall = via === 'prompt' || via === 'failure';
        const files = via === 'prompt' ? namedFilesOf(text) : [];
        injections.push({ at, via, text, handOff: recall ? '' : handOffPart(text), entries, ...(files.length > 0 ? { files } : {}) });
        (via === 'prompt' ? tokens.prompts : via === 'failure' ? tokens.failures : tokens.start).push(estimateTokens(text));
      };
      // A resumed session opens with its copied past already in the transcript.
      let written = 0;
      while (written < lines.length && s.copied[written]) written++;
      writeFileSync(
        transcript,
        lines
          .slice(0, written)
          .map((l) => `${l}\n`)
          .join(''),
      );
      const prefixBytes = Buffer.byteLength(
        lines
          .slice(0, written)
          .map((l) => `${l}\n`)
          .join(''),
      );
      const resumed = written > 0;
      const writeTo = (end: number) => {
        if (end <= written) return;
        appendFileSync(
          transcript,
          lines
            .slice(written, end)
            .map((l) => `${l}\n`)
            .join(''),
        );
        written = end;
      };
      note(-1, 'session-start', await run('session-start', { hook_event_name: 'SessionStart', source: resumed ? 'resume' : 'startup' }));
      const promptAt = new Map(activity.prompts.map((p) => [p.at, p.text]));
      const compactAt = new Map(activity.compactions.map((c) => [c.at, c.trigger]));
      const failuresAt = new Map<number, SessionActivityTrace['failures']>();
      for (const f of activity.failures) failuresAt.set(f.at, [...(failuresAt.get(f.at) ?? []), f]);
      let turns = 0;
      for (let at = written; at < lines.length; at++) {
        const prompt = promptAt.get(at);
        const trigger = compactAt.get(at);
        const failed = failuresAt.get(at);
        if (failed !== undefined) {
          // Claude Code runs PostToolUseFailure once the failed result is written; what it gives follows it.
          writeTo(at + 1);
          for (const f of failed) {
            const input = { hook_event_name: 'PostToolUseFailure', tool_name: f.tool, tool_input: { command: f.command }, error: f.error };
            note(at, 'failure', await run('tool-failure', input));
          }
        } else if (prompt !== undefined) {
          writeTo(at);
          if (turns > 0) await run('stop', { hook_event_name: 'Stop', stop_hook_active: false });
          turns++;
          note(at, 'prompt', await run('user-prompt-submit', { hook_event_name: 'UserPromptSubmit', prompt }));
        } else if (trigger !== undefined) {
          writeTo(at);
          await run('pre-compact', { hook_event_name: 'PreCompact', trigger, custom_instructions: '' });
          // The compaction's summary follows its boundary: the session starts again after both.
          const next = at + 1 < lines.length && parseLine(lines[at + 1]!)?.isCompactSummary === true ? at + 2 : at + 1;
          writeTo(next);
          note(next - 1, 'compact', await run('session-start', { hook_event_name: 'SessionStart', source: 'compact' }));
          at = next - 1;
        }
      }
      writeTo(lines.length);
      await run('stop', { hook_event_name: 'Stop', stop_hook_active: false });
      await run('session-end', { hook_event_name: 'SessionEnd', reason: 'other' });
      await waitForWorkersAsync(project, 180_000);
      const fold = await foldTranscript(transcript, null, { fromOffset: prefixBytes, sessionId: s.id });
      const captured: CapturedEntry[] = [];
      for (const [key, e] of memoryEntries(project, home)) {
        if (e.captured === null || firstSeen.has(key)) continue;
        firstSeen.set(key, s.id);
        captured.push({ session: s.id, role: e.role, id: e.id, kind: e.captured, signature: e.signature, text: e.text, lesson: e.lesson });
      }
      const result: SessionResult = {
        id: s.id,
        start: s.start,
        resumed,
        prompts: activity.prompts.length,
        compactions: activity.compactions.length,
        failures: activity.failures.length,
        trace: { id: s.id, worked: didWork(fold.draft), uses: activity.uses, injections, said: activity.said },
        tokens,
        captured,
      };
      sessions.push(result);
      opts.onSession?.(history.name, result);
    }
    const captured: CapturedEntry[] = [];
    for (const [key, e] of memoryEntries(project, home)) {
      if (e.captured === null) continue;
      captured.push({
        session: firstSeen.get(key) ?? '',
        role: e.role,
        id: e.id,
        kind: e.captured,
        signature: e.signature,
        text: e.text,
        lesson: e.lesson,
      });
    }
    // Entries written and then merged away or pruned still count: they were captured.
    for (const s of sessions) for (const c of s.captured) if (!captured.some((x) => x.role === c.role && x.id === c.id)) captured.push(c);
    return { history, sessions, hooks, captured, privateTexts, ms: Date.now() - t0 };
  } finally {
    if (opts.keep) opts.onKept?.(root);
    else rmSync(root, { recursive: true, force: true });
  }
}

/** Rewrites a recorded line so that the recorded project folder reads as the temporary one. */
function respeller(from: string | null, to: string): (line: string) => string {
  if (!from || from === '/') return (line) => line;
  const re = new RegExp(`${from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=[/"\\\\]|$)`, 'g');
  return (line) => line.replace(re, to);
}
