// Shell commands as a person would list them: one line, no cd prefix, no
// redirections, commit messages elided so twenty commits count as one row.

import { clip, oneLine, withoutEscapes } from '../text.ts';
import { relativeInCommand } from '../transcript/path-spelling.ts';
import { shellEffects, shellWords, withoutComments } from '../transcript/shell-effects.ts';
import type { SummaryCommand } from './summary-model.ts';

export const COMMAND_MAX = 100;

/**
 * The command on one line, without cd prefix, redirections or message bodies
 * (not cut to length). Absolute paths become relative to `dir`, the directory
 * it ran in (`../x` for the rest of the project under `root`).
 */
export function normalizeCommand(command: string, dir: string | null, root: string | null = dir, opts: { asTyped?: boolean } = {}): string {
  let c = command;
  // A heredoc body (commit messages, scripts) is content, not the command.
  c = c.replace(/"\$\(cat\s*<<[\s\S]*$/, '…').replace(/<<-?\s*['"]?\w+['"]?[\s\S]*$/, '<< …');
  c = c.replace(/-m\s+(?:"(?:[^"\\]|\\.)*"|'[^']*')/g, '-m …');
  // Comments say what a step is for; the command is what runs (`# restart the API` then `pkill uvicorn`).
  c = withoutComments(c);
  const firstLine = c.split('\n')[0] ?? '';
  c = firstLine.length < c.length ? `${firstLine} …` : firstLine;
  if (dir) c = relativeInCommand(c, dir, root ?? dir);
  c = c.replace(/^\s*cd\s+(?:"[^"]*"|'[^']*'|\S+)\s*(?:&&|;)\s*/, '');
  // As typed (what a hand-off shows): redirections and pipes stay, they are part of what was run.
  if (!opts.asTyped) c = withoutOutputPlumbing(c);
  c = oneLine(c);
  // A bare `cd` only moves the shell; it says nothing about the work.
  return /^cd(?:\s+\S+)?$/.test(c) ? '' : c;
}

/**
 * What runs of one command share, whatever was piped or redirected around it: a row of the hand-off counts
 * `mix test 2>&1 | tail -5` and `mix test` together and shows the latest as typed.
 */
export function commandRowKey(shown: string): string {
  return withoutOutputPlumbing(shown);
}

/** Without `2>&1` and a trailing `| tail -20` or `| head`: what only trims what a run prints. */
function withoutOutputPlumbing(command: string): string {
  return command
    .replace(/\s+2>&1\b/g, '')
    .replace(/\s*\|\s*(?:tail|head)(?:\s+-n)?\s+-?\d+\s*$/, '')
    .replace(/\s*\|\s*(?:tail|head)\s*$/, '');
}

/** The normalized command cut to a display length. */
export function displayCommand(normalized: string): string {
  return clip(normalized, COMMAND_MAX);
}

// What runs another command without changing what it checks: `FOO=1 …`, `timeout 300 …`, `uv run …`,
// `bundle exec …`, `python -m pytest` (the module is the program).
const WRAPPER =
  /^(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+|env\s+(?:-\S+\s+)*|timeout\s+(?:-\S+\s+)*\d+[smhd]?\s+|nice\s+(?:-n\s*-?\d+\s+|-\d+\s+)?|time\s+|command\s+|exec\s+|(?:uv|poetry|pipenv|pdm|hatch|rye)\s+run\s+|bundle\s+exec\s+|(?:pnpm|yarn)\s+exec\s+|python[0-9.]*\s+-m\s+)/;

// Steps after the real one that only hide or report its exit status: `|| true`, `; echo done`, `; exit 0`.
const TRIVIAL_STEP = /^(?:true|:|false|exit(?:\s+\d+)?|echo(?:\s.*)?|printf(?:\s.*)?)$/;

/** The step of a command line that does the work: the last one that is not `true`, `echo …` or the like. */
/**
 * The steps of a command line at `&&`, `||` and `;` outside quotes (`python3 -c "a; b"` is one step), and at
 * `|` and line breaks too when asked. A quote never closed (`echo can't; npm test`) was no quote.
 */
export function commandSteps(command: string, also: { pipes?: boolean; lines?: boolean } = {}): string[] {
  const steps: string[] = [];
  let quote: string | null = null;
  let from = 0;
  const cut = (at: number, width: number) => {
    steps.push(command.slice(from, at));
    from = at + width;
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = null;
    } else if (c === '\\') i++;
    else if (c === '"' || c === "'") quote = c;
    else if (c === ';' || (also.lines && c === '\n')) cut(i, 1);
    else if ((c === '&' || c === '|') && command[i + 1] === c) cut(i++, 2);
    else if (also.pipes && c === '|') cut(i, 1);
  }
  if (quote) {
    const separators = new RegExp(`\\s*(?:&&|\\|\\|${also.pipes ? '|\\|' : ''}|;${also.lines ? '|\\n' : ''})\\s*`);
    return command.split(separators).filter((s) => s.trim() !== '');
  }
  steps.push(command.slice(from));
  return steps.map((s) => s.trim()).filter((s) => s !== '');
}

export function mainStep(normalized: string): string {
  const steps = commandSteps(normalized);
  for (let i = steps.length - 1; i >= 0; i--) if (!TRIVIAL_STEP.test(steps[i]!.trim())) return steps[i]!;
  return steps.pop() ?? normalized;
}

/** A step without its redirections (`2>&1`, `> out.log`, `< in.json`): they say where text goes, not what runs. */
export function withoutRedirections(step: string): string {
  return step.replace(/\s*(?:\d*>&\d+|&>>?\s*\S+|\d*>>?\s*(?!&)\S+|\d*<\s*\S+)/g, '').trim();
}

/** The command without the wrappers that only run it (`CGO_ENABLED=0 go test` is `go test`). */
export function unwrapCommand(command: string): string {
  let c = command.trim();
  for (let k = 0; k < 8; k++) {
    const next = c.replace(WRAPPER, '');
    if (next === c) break;
    c = next;
  }
  return c;
}

// Build tools whose goal may follow flags: `mvn -q test` is the family `mvn test`.
const FLAGS_FIRST = /^(?:mvn|mvnw|\.\/mvnw|gradle|gradlew|\.\/gradlew|make|sbt|dotnet|mix|cargo|go|rake|just)$/;

/** "mix test", "git push", "npm run build": what a re-run of the same check shares. */
export function commandFamily(normalized: string): string {
  const last = unwrapCommand(withoutRedirections(mainStep(normalized).split(/\s*\|\s*/)[0] ?? ''));
  const words = last.split(/\s+/).filter(Boolean);
  const out: string[] = [];
  for (const w of words) {
    // `node --test` runs the test runner: the flag is its subcommand.
    if (out.length === 1 && w === '--test' && out[0] === 'node') return 'node --test';
    if (out.length === 1 && w.startsWith('-') && FLAGS_FIRST.test(out[0]!)) continue;
    if (out.length > 0 && (w.startsWith('-') || w.includes('/') || w.includes('.'))) break;
    out.push(w);
    if (out.length === (out[0] === 'npm' || out[0] === 'npx' || out[0] === 'pnpm' || out[0] === 'yarn' ? 3 : 2)) break;
  }
  return out.join(' ');
}

const INSPECTION =
  /^(?:ls|cat|head|tail|pwd|echo|which|find|grep|rg|wc|tree|file|stat|du|df|env|date|sleep|true|printf|sed -n|git (?:status|log|diff|show|branch|rev-parse|remote)|gh (?:pr|run|issue|release|workflow|repo) (?:checks|view|list|status|diff|watch)|bd (?:show|ready|list|stats))\b/;
const VERIFICATION =
  /\b(?:test|tests|build|lint|check|compile|credo|dialyzer|tsc|vitest|jest|pytest|unittest|rspec|mocha|phpunit|playwright|cypress|tox|nox|ctest|verify|cargo|make|just|format|clippy|commit|push|deploy|migrate|install)\b/;

// A run whose exit status a pipe hid (`mix test | tail`) can still say it failed: totals of most test
// runners (mocha's "2 failing", go's FAIL lines, phpunit's FAILURES!, node's TAP `# fail 1` and spec
// `ℹ fail 1`), and the errors of compilers and linters.
const FAILURE_TOTALS =
  /\b[1-9]\d*\s+(?:failures?|failed|failing|errors?)\b|^(?:#|ℹ) fail [1-9]\d*\s*$|\btest result: FAILED\b|^FAILED\b|^--- FAIL:|^FAIL(?:\s|$)|^(?:FAILURES|ERRORS)!$|^Tests:.*\b[1-9]\d* failed\b/m;
const BUILD_ERRORS =
  /^\S+\.\w+:\d+(?::\d+)?: (?!warning|note|info)|\berror(?:\[E\d+\])?:|\berror TS\d+:|^BUILD FAILED\b|^\[ERROR\] BUILD FAILURE|^npm (?:ERR!|error )|^Error: |^make(?:\[\d+\])?: \*\*\*|\bFound [1-9]\d* errors?\b/m;

/** True when a command's printed totals report failures (for runs whose exit status was not seen), coloured or not. */
export function outputShowsFailure(tail: string, kind: 'test' | 'build' | 'lint' = 'test'): boolean {
  const plain = withoutEscapes(tail);
  return FAILURE_TOTALS.test(plain) || (kind !== 'test' && BUILD_ERRORS.test(plain));
}

// PowerShell's own ways of only looking (its names are read without regard to case).
const POWERSHELL_INSPECTION =
  /^(?:Get-[A-Za-z]+|Select-String|Test-Path|Resolve-Path|Measure-Object|Format-[A-Za-z]+|Write-(?:Host|Output)|Out-Host|Start-Sleep|dir|type|where(?:\.exe)?)(?=\s|$)/i;

// Asking a program what it is (`claude --help`, `node -v`, `go version`) or what it has (`code --list-extensions`), or the
// machine what runs (`netstat -ano`, `ps aux`).
const LOOKUP =
  /^(?:ps|netstat|lsof|tasklist|whoami|uname|hostname|nproc|uptime|command -v)(?=\s|$)|^\S+(?: [\w:-]+)? (?:--help|--version|version|help)$|^\S+ -[hvV]$|^\S+ --list(?:-[\w-]+)?(?=\s|$)/;

// Showing a folder, a file or a page to the person at the machine (`cmd.exe /c start "D:\\out"`, `explorer D:\\x`,
// `open x.html`; not `open -a Docker` or `start /wait setup.exe`, which start programs), and
// listing what an archive or a device holds (`unzip -l`, `tar -tf`, `adb shell pm list packages`, `adb logcat`).
const SHOWS =
  /^(?:cmd(?:\.exe)?\s+\/c\s+"?)?(?:start|explorer(?:\.exe)?|open|xdg-open|Invoke-Item)\s+(?=["']|(?![-/])\S*[\\/.:])|^(?:unzip\s+-l|tar\s+-?t\w*|adb(?:\.exe)?(?:\s+-s\s+\S+)?\s+(?:devices|logcat|shell\s+(?:pm\s+list|ps|getprop|dumpsys)))(?=\s|$)/i;
// What a look may be piped into and stay one.
const FILTER = /^(?:grep|egrep|rg|head|tail|less|more|wc|sort|findstr|Select-String|jq)\b/i;

/** A program as its name: without quotes, its folder or `.exe` (`"C:/…/python3.exe"` is `python3`). */
export const programBase = (word: string): string =>
  word
    .replace(/["']/g, '')
    .replace(/^.*[\\/]/, '')
    .replace(/\.exe$/i, '');

// Asking a service manager, a container or a package manager what there is (`pm2 status`, `systemctl status nginx`,
// `docker logs api`, `npm view x versions`, `pip show x`, `gh auth status`): a look when it is all the command does
// (looksThroughout: `pm2 status && pm2 restart all`, `pip freeze > requirements.txt` act). A log followed (`-f`,
// `pm2 logs` without `--nostream`) never ends: no look.
const SERVICE_LOOK =
  /^(?:pm2 (?:status|list|ls|jlist|show|describe|info)|pm2 logs(?=.*\s--nostream\b)|systemctl (?:status|is-active|is-enabled|list-units|list-unit-files)|journalctl(?!.*\s(?:-f|--follow|--vacuum\S*|--rotate|--flush)\b)|docker (?:ps|images|inspect|info|version)|docker logs(?!.*\s(?:-f|--follow)\b)|kubectl (?:get|describe)|kubectl logs(?!.*\s(?:-f|--follow)\b)|gh label list|gh auth status|(?:npm|pnpm|yarn) (?:view|info|show|ls|list|outdated|why|explain|search)|pip[0-9.]* (?:show|list|freeze))(?=\s|$)/;

// A web request with no method or body that could change the server (`-X`, `-d`, `--data…`, `-F`, `-T`, `--json`) and
// no file written (`-o`, `-O`), read up to the first pipe or separator.
const CURL_LOOK =
  /^curl(?=\s)(?![^;&|]*\s(?:-[a-zA-Z]*[oOXdFTK]|--(?:output|remote-name\S*|request|data\S*|form\S*|upload-file|json|config)\b))/;

/** Commands that only look (`ls`, `cat`, `git log`, `find`, `Get-ChildItem`, `node -v`): they change and check nothing. */
export function isInspection(command: string): boolean {
  // A program named by its quoted path (`"…/platform-tools/adb.exe" shell ps`) is read by its name.
  const named = command.replace(/^"[^"]*"|^'[^']*'/, programBase);
  return (
    INSPECTION.test(command) ||
    POWERSHELL_INSPECTION.test(command) ||
    LOOKUP.test(command) ||
    (SHOWS.test(named) && looksThroughout(named, (part) => SHOWS.test(part))) ||
    (SERVICE_LOOK.test(command) && looksThroughout(command, (part) => SERVICE_LOOK.test(part)))
  );
}

/**
 * A web request that only fetches: a look at a server, which a session may well keep running (a health check is
 * worth naming to the next one), but no step that could have fixed anything.
 */
export const onlyFetches = (command: string): boolean =>
  CURL_LOOK.test(command) && commandSteps(command).length === 1 && looksThroughout(command, (first) => CURL_LOOK.test(first));

/**
 * A command that shows, lists or asks is a look when it is all the command does: every step chained to it looks too
 * (`adb logcat -c && adb logcat -d | grep app`; chained to an action, `… && adb install …`, it is none), each is piped
 * only into filters, and none writes a file by the project's reading of the shell (`> requirements.txt` writes;
 * `2>&1` and `> /dev/null` do not). `first`: the kind of look the command opens with, tried before looks of any kind.
 */
function looksThroughout(command: string, first: (part: string) => boolean): boolean {
  return commandSteps(command).every((step) => {
    const [head = '', ...after] = commandSteps(step, { pipes: true }).map((part) => part.trim());
    return (first(head) || isInspection(head)) && after.every((f) => FILTER.test(f)) && shellEffects(step).writes.length === 0;
  });
}

/**
 * A package manager putting dependencies in place (`pnpm add -D vitest`, `npm ci`, `pip install -r …`,
 * `bundle install`): judged by the program and subcommand, never by the packages named.
 */
export const PACKAGE_INSTALL =
  /^(?:(?:npm|pnpm|yarn|bun)\s+(?:install|i|add|ci)|pip[0-9.]*\s+install|uv\s+(?:sync|add|pip\s+install)|(?:poetry|bundle|composer|gem|brew|apt|apt-get|dnf|pacman)\s+(?:install|add|require)|cargo\s+(?:add|install)|go\s+(?:get|install))(?=\s|$)/;

/**
 * A pipe that ends in grep exits 1 when grep matched nothing, and prints nothing (or grep -c's `0`): that says
 * nothing of what ran before it (`npm run typecheck | grep route` with no error in route files).
 */
export function grepMatchedNothing(command: string, r: { exitCode: number | null; text: string; tail: string }): boolean {
  if (r.exitCode !== 1) return false;
  const words = shellWords(withoutComments(command).split('\n')[0] ?? '');
  let pipe = -1;
  words.forEach((w, i) => {
    if (w.op && w.text === '|') pipe = i;
  });
  const after = words.slice(pipe + 1);
  if (pipe < 0 || after.some((w) => w.op && w.text !== '2>&1')) return false;
  // The head and the end of the output (the same text when it is short): nothing, or grep -c's `0`.
  const empty = (part: string) => /^(?:0)?$/.test(part.replace(/(?:Error: )?Exit code 1/g, '').trim());
  return /^(?:grep|egrep|fgrep|rg)$/.test(after[0]?.text ?? '') && empty(r.text) && empty(r.tail);
}

/** Tests, builds, linters, commits, pushes, installs: commands whose failure leaves work open. */
export function isVerification(command: string): boolean {
  return (VERIFICATION.test(command) || PACKAGE_INSTALL.test(command)) && !isInspection(command);
}

/**
 * How much a command row matters when only a few fit (higher = keep). With
 * `family` known: a failure that a later run of the same check fixed matters
 * less than one still failing, and the run that fixed it matters more.
 */
export function commandWeight(
  row: { command: string; count: number; failures: number; failed: boolean },
  family?: { stillFailing: boolean; latest: boolean; hadFailure: boolean },
): number {
  let w = Math.min(row.count - 1, 3);
  if (family) {
    if (row.failed && family.stillFailing) w += 5;
    else if (row.failures > 0) w += 2;
    // The run that finally passed after failures is the one that tells how it was fixed.
    if (family.latest) w += family.hadFailure && !family.stillFailing ? 3 : 1;
  } else {
    if (row.failures > 0) w += 3;
    if (row.failed) w += 2;
  }
  if (VERIFICATION.test(row.command)) w += 3;
  if (isInspection(row.command)) w -= 3;
  return w;
}

/** Failed runs of a row (a draft without the count: one when its last run failed). */
export const runsFailed = (c: SummaryCommand): number => c.failures ?? (c.failed ? 1 : 0);

/** When a row last ran, as an order within the session (a draft written before it was kept: its place). */
const lastRun = (c: SummaryCommand, place: number): number => c.last ?? place;

/**
 * The rows a hand-off shows when there are more than `cap`: by weight — a check still failing, the run
 * that fixed one, a commit before a look — and of rows weighing the same, the latest run; listed in the
 * order they were first run. The draft keeps more rows than a hand-off shows (DRAFT_COMMANDS), so
 * whichever way the hooks cut the transcript, the same rows are chosen from.
 */
export function keptCommands(rows: readonly SummaryCommand[], cap: number): SummaryCommand[] {
  if (rows.length <= cap) return [...rows];
  const families = rows.map((r) => commandFamily(r.command));
  const latest = new Map<string, number>();
  const hadFailure = new Set<string>();
  rows.forEach((r, i) => {
    const f = families[i]!;
    const was = latest.get(f);
    if (was === undefined || lastRun(rows[was]!, was) < lastRun(r, i)) latest.set(f, i);
    if (runsFailed(r) > 0) hadFailure.add(f);
  });
  const weight = rows.map((r, i) => {
    const f = families[i]!;
    const latestOfFamily = rows[latest.get(f)!]!;
    return commandWeight(
      { command: r.command, count: r.count, failures: runsFailed(r), failed: r.failed },
      { stillFailing: latestOfFamily.failed, latest: latest.get(f) === i, hadFailure: hadFailure.has(f) },
    );
  });
  return rows
    .map((_, i) => i)
    .sort((x, y) => weight[y]! - weight[x]! || lastRun(rows[y]!, y) - lastRun(rows[x]!, x))
    .slice(0, cap)
    .sort((x, y) => x - y)
    .map((i) => rows[i]!);
}
