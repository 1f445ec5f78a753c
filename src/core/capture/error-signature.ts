// An error's signature: the one line of a failed command's or tool's output
// that says what went wrong, and a key that stays the same when the same
// problem comes back with other numbers, paths or quoted names. Capture merges
// fixes and recurring obstacles by that key; the replay benchmark counts
// errors by it. Pure: text in, signature out.

import { clip, oneLine, withoutEscapes } from '../text.ts';
import { SEPARATORS, shellWords } from '../transcript/shell-effects.ts';

export interface ErrorSignature {
  /** The distinctive line as printed (colours stripped, one line, clipped). */
  line: string;
  /** The line reduced to what recurs: lower case, numbers, quoted names, paths and hex ids made generic. */
  key: string;
}

const LINE_MAX = 160;

// What says "this went wrong" in most tools' output and in text a person pastes from it, in the order a
// reader looks for it: a named error kind first (TS2322, E0425, ModuleNotFoundError), then the words.
const SAYS_WHAT = [
  /\b(?:error|err!?)\s*(?:TS|E|CS|C)?\d{2,5}\b/i,
  /\b[A-Z][A-Za-z]*(?:Error|Exception)\b/,
  /\bpanicked at\b/,
  /^\s*(?:fatal|error|err!?|failed|failure|exception)\b[\s:[(]/i,
  /\b(?:npm|yarn|pnpm)\s+err(?:or|!)/i,
  /\b(?:command not found|not found|no such file or directory|permission denied|(?:is|are) required|password|cannot find|could not find|unable to|is not defined|undefined reference|unknown (?:command|option|flag|key)|unrecognized|not recognized|invalid|refused|denied|timed? ?out|segmentation fault|traceback)\b/i,
  /(?:comando não encontrado|não encontrad|nenhum|nenhuma|no se encontr|nicht gefunden|introuvable|не найден|ошибка|не удалось)/i,
];

// In a failed command's output, also: what a policy or the system would not allow, said without the word
// "error" (`… is not mergeable: the base branch policy prohibits the merge`, `Operation not permitted`),
// which is never read as an error pasted in a message (a rule a person writes says "not allowed" as often);
// and last, a bare "error" or "failed".
const STRONG = [
  ...SAYS_WHAT,
  /\b(?:prohibit(?:s|ed)?|not (?:allowed|permitted|mergeable))\b/i,
  /\berror\b/i,
  /\b(?:fail|failed|failing)\b/i,
];

// Lines that look alarming and say nothing about this failure: deprecation notes, warnings,
// progress, totals, stack frames, separators, the shell's "Exit code", PowerShell's own record of
// where and of which category an error was (`At line:1 char:5`, `+ CategoryInfo : ParserError …`), a list cut short
// (npm's `75 more (@mdx-js/react, …)`), the dependency tree npm prints under `code ERESOLVE` (`react@"^19.0.0" from
// the root project`), a setting whose value the secret filter took (`password: '[REDACTED:password]'`), and where to read a program's usage (`Try 'timeout --help' for more
// information.`, taskkill's `Type "TASKKILL /?" for usage.`).
const NOISE =
  /^\s*(?:at\s+\S+.*\(.*\)|at\s+[\w.<>]+\s*$|File ".*", line \d+|\^+|[~─━⎯=\-_*#|>]{3,}.*|warn(?:ing)?\b.*|.*\bdeprecat\w*\b.*|(?:error: )?exit code -?\d+|\d+ (?:passing|passed|failing|failed|tests?)\b.*|tests?:\s+\d+.*|test files?\s+\d+.*|#\s*(?:fail|pass|tests)\s+\d+|npm err!? a complete log.*|.*\bcomplete log of this run\b.*|error: process completed with exit code.*|\+\s*(?:CategoryInfo|FullyQualifiedErrorId)\s*:.*|\+\s+~+\s*|\+ \.\.\. .*|at (?:line:\d+|\S.*:\d+) char:\d+.*|(?:npm (?:err!?|error)\s+)?\d+ more \(.*|try ['‘"]?[\w.-]+ --help['’"]? for more information\.?|type "[^"]*\/\?" for usage\.?|npm (?:err!?|error)\s+(?:(?:peer|dev|optional|peeroptional|overridden|bundled)\s+)?\S+@"[^"]*" from .*|npm (?:err!?|error)\s+node_modules\/\S+|npm (?:err!?|error)|[\w .-]+:\s*['"]?\[REDACTED:[\w-]+\]['"]?,?)$/i;

// A command's usage printed because it was given wrong (`Usage:`, `Flags:`), and its flags' lines under it
// (`  -p, --password string   Password to your remote Postgres database.`): its help says nothing of what was wrong.
// Flag lines count as such only below such a heading (CMake's `--   Package 'gtk+-3.0', … not found` is an error).
const USAGE_HEAD = /^(?:\S+\s*:\s*)?(?:usage|flags|global flags|options|commands|available commands):/i;
const FLAG_LINE = /^(?:-[A-Za-z0-9],\s+)?--?[A-Za-z0-9][\w-]*(?:[ =]<?[\w-]+>?)?\s{2,}\S/;

// Claude Code's own tool refusals, permission denials and interruptions are the user's choices, not errors of the project;
// nor is Claude Code losing the snapshot of the shell it runs commands in (`/tmp/claude-shell-snapshot-902b: No such file`).
const NOT_AN_ERROR =
  /\bdoesn't want to (?:proceed|take this action)\b|\[Request interrupted by user|\bwas rejected\b.*\btool use\b|^\s*Permission to use \w+ with command\b|\bTool use aborted\b|\bPermission for this action (?:was|has been) denied\b|\bdenied by the Claude Code\b|\/claude-shell-snapshot-\w+: No such file or directory/i;

// What stops an agent whatever code it writes: the machine, the network, permissions, missing tools.
const ENVIRONMENT =
  /\b(?:command timed out|permission denied|EACCES|EPERM|password|terminal is required|could not read username|authentication failed|unauthori[sz]ed|forbidden|externally-managed|command not found|not installed|no module named|cannot find module|ENOTFOUND|ECONNREFUSED|ETIMEDOUT|network|certificate|read-only file system|no space left|printed nothing)\b|não encontrad|senha|не найден|пароль/i;

// PowerShell's commands (`Get-ChildItem`, `Select-Object`, `Where-Object`) given to bash, which Claude Code's Bash tool
// runs on Windows too: one trouble, whichever cmdlet the shell did not find.
const CMDLET =
  '(?:Add|Clear|Compare|Compress|ConvertFrom|ConvertTo|Copy|Disable|Enable|Enter|Exit|Expand|Export|Find|ForEach|Format|Get|Group|Import|Install|Invoke|Join|Measure|Move|New|Out|Pop|Push|Read|Register|Remove|Rename|Resolve|Restart|Select|Send|Set|Show|Sort|Split|Start|Stop|Tee|Test|Uninstall|Unregister|Update|Wait|Where|Write)-[A-Z][A-Za-z]+';
const CMDLET_NOT_FOUND = new RegExp(`(?:^|[\\s:])${CMDLET}: command not found\\b|command not found: ${CMDLET}\\b`);
/** The key of every PowerShell command the shell did not find. */
export const CMDLET_KEY = 'powershell cmdlet: command not found';

// cmd.exe's syntax run by bash, which Claude Code's Bash tool is on Windows too (Git Bash): cmd's own commands and
// batch files, which are no programs bash can find (`move`, `copy`, `del`, `call`, `run.bat`); cmd's `/X` options,
// which Git Bash's path conversion turned into paths (`taskkill /F` → `'F:/'`, `/PID` → `'C:/Program Files/Git/PID'`; so
// it does a Unix path meant for a container or a device: `docker exec api ls /app` → `'C:/Program Files/Git/app'`)
// or which a unix tool took for files (`rmdir /S` → `failed to remove '/S'`); a Windows path whose backslashes bash
// ate (`cd E:\app\web` → `E:appweb`). One trouble, however it showed.
// Only bash's own words count (`bash: line 1: move: command not found`): zsh is no shell of Windows, and a word
// left alone by an empty variable (`$B goto` runs `goto`) is no cmd command.
const CMD_OWN = '(?:call|cls|copy|del|erase|move|ren|md|rd|mklink|[^\\s"\':]+\\.(?:bat|cmd))';
const CMD_NOT_FOUND = new RegExp(`(?:^|[\\s:"'])${CMD_OWN}["']?: command not found\\b`, 'i');
const PATH_CONVERTED = /(?:option|argument|switch)[^'\n]{0,20}'[A-Za-z]:\/'|\b[A-Za-z]:\/Program Files(?: \(x86\))?\/Git\/[\w.?-]{1,24}'/i;
// cmd's switches (`/S`, `/Q`, `/PID`), never a folder at the root of a Unix machine (`'/srv'`, `'/opt'`).
const SLASH_OPTION = /(?:cannot (?:access|stat|remove|open)|failed to remove) '\/(?:[A-Za-z?]|PID|IM|FI|MIR|NP)'/i;
const EATEN_PATH = /(?:^|[\s:'"])[A-Za-z]:(?![\\/])[^\s'":]{2,}['"]?: (?:no such file or directory|command not found)/i;
const CMD_SYNTAX = [CMD_NOT_FOUND, PATH_CONVERTED, SLASH_OPTION, EATEN_PATH];
/** The key of every command written for cmd.exe that bash ran. */
export const CMD_SYNTAX_KEY = 'windows cmd syntax given to bash';

/** The line shows a command written for another shell than the one that ran it: PowerShell's or cmd's, in bash. */
export const isOtherShellKey = (key: string): boolean => key === CMDLET_KEY || key === CMD_SYNTAX_KEY;

// A push the remote turned down because it holds commits the local branch lacks (`! [rejected] main -> main (fetch
// first)`): how the remote stood at that moment, settled by pulling, never a trouble of the project's.
const REMOTE_AHEAD = /!\s*\[rejected\][^\n]*\((?:fetch first|non-fast-forward)\)/;
/** The lines git prints about a push: where to, what was turned down and why, its hints. */
const PUSH_LINE =
  /^\s*(?:To \S+|!\s*\[(?:rejected|remote rejected)\].*|error: failed to push some refs.*|hint: .*|Everything up-to-date)\s*$/;

// A refused connection to this machine (`connect ECONNREFUSED 127.0.0.1:5432`, curl's `Failed to connect to localhost
// port 3000`): a server not up at that moment. With what started it, it is a fix; alone, it teaches nothing.
const LOCAL_REFUSAL =
  /\b(?:ECONNREFUSED|connection refused|failed to connect to|could(?:n't| not) connect to)\b.*(?:\blocalhost\b|\b127\.0\.0\.1\b|\b0\.0\.0\.0\b|\[?::1\]?)|(?:\blocalhost\b|\b127\.0\.0\.1\b).*\b(?:ECONNREFUSED|connection refused)\b/i;

/** A local server was not up: a moment's state, a lesson only with what fixed it. */
export const isLocalRefusal = (line: string): boolean => LOCAL_REFUSAL.test(line);

// A program given a flag it does not know, or too few arguments (`curl: option --timeout: is unknown`, `error: missing
// required argument 'type'`): the model's slip with that program. A lesson only with the way that worked.
// BSD's and GNU's tools differ (`grep: invalid option -- P`, `stat: illegal option -- c` on macOS): a fact of the machine, kept.
const USAGE_SLIP =
  /\b(?:unknown|unrecognized|unrecognised) (?:option|flag|switch)\b|\boption \S+: is unknown\b|\bmissing (?:required )?(?:argument|operand)\b|\brequires an argument\b|\bunexpected argument\b/i;

/** The program was given a wrong flag or too few arguments. */
export const isUsageSlip = (line: string): boolean => USAGE_SLIP.test(line);

/** Claude Code stopping a command at its time limit (`Command timed out after 2m 0.0s`). */
const TIMED_OUT = /^Command timed out after (?:\d+(?:\.\d+)?[hms] ?)+/;
/** The key such a line has, whatever the limit. */
export const TIMED_OUT_KEY = 'command timed out';

// A module named by its path (`Cannot find module './out/dbg.js'`, `'/c/Users/a/x'`) is a file the command got
// wrong, not a package the machine lacks (`'playwright'`, `'tesseract.js'`, `'@scope/pkg'`).
const MODULE_BY_PATH = /cannot find module '[^'@][^']*[/\\]/i;

/** A module named by its path: the code's own import, not a package the machine lacks. */
export const isModuleByPath = (line: string): boolean => MODULE_BY_PATH.test(line);

// A "program" not found that is a flag (`bash: line 52: -rf: command not found`): a line of the script broke in two;
// or a property left of a variable bash expanded (`powershell -Command "… $_.Name …"` makes `.Name: command not
// found`): the command was quoted for another shell.
const FLAG_RUN = /(?:^|[\s:])(?:-[\w-]*|\.[A-Za-z]\w*): command not found|command not found: (?:-|\.[A-Za-z])/;

/** The shell was told to run a flag or a stray property as a program: the command's own line broke, no tool is missing. */
export const runsAFlag = (line: string): boolean => FLAG_RUN.test(line);

/** The error lies in the environment (a missing tool, a permission, the network, the Bash tool's time limit), not in the code. */
export const isEnvironmentError = (line: string): boolean => ENVIRONMENT.test(line) && !MODULE_BY_PATH.test(line) && !FLAG_RUN.test(line);

// Who may get in (a login, a token, a key, the person at a phone who declined an install), and a remote host the
// network did not reach: settled outside the session as often as in it. A refused local connection is not one of them (starting the database fixes that).
const ACCESS =
  /\b(?:could not read (?:username|password)|authentication (?:failed|required)|unauthori[sz]ed|forbidden|permission denied \(publickey|bad credentials|invalid (?:token|credentials)|terminal prompts disabled|user rejected permissions|ENOTFOUND|EAI_AGAIN|could not resolve host|network is unreachable)\b|senha|пароль/i;

/** The error is about access: credentials, or reaching a remote host. */
export const isAccessError = (line: string): boolean => ACCESS.test(line);

// What the machine runs out of or holds already, whatever the code: a port taken, the disk or the file watchers full,
// memory, the developer tools or Java not where they should be, the Docker daemon down, a service's rate limit, and
// BSD's tools where GNU's were meant (`sed: 1: "x": invalid command code`, `illegal option`).
const MACHINE_LIMIT =
  /\b(?:EADDRINUSE|address already in use|ENOSPC|no space left|file watchers|inotify|heap out of memory|out of memory|xcrun: error|JAVA_HOME|docker daemon|rate limit(?:ed)?|too many requests|invalid command code|illegal option)\b/i;

/** The machine ran out of something, holds it already, or is another kind of machine than the command was written for. */
export const isMachineLimit = (line: string): boolean => MACHINE_LIMIT.test(line);

// A line that points into source code (`src/a.ts:3`, `a.ts(12,5)`; an extension has a letter, so an address
// and port, `127.0.0.1:5432`, is none), or a test's assertion (RSpec's `Failure/Error:`, Capybara's `Unable to find css …`).
const CODE_POINTER =
  /\S+\.(?=\w{0,4}[A-Za-z])\w{1,5}(?::\d+|\(\d+,\d+\))|\bassert\w*\b|\bexpected\b.*\b(?:to|but|got|received)\b|\btoBe|toEqual\b|^Failure\/Error:|\bunable to find (?:visible )?(?:css|xpath|field|button|link|link or button|select box|checkbox)\b/i;

/** The error points into the code or is a test's assertion: the fix is an edit of that code, not a lesson. */
export const pointsIntoCode = (line: string): boolean => CODE_POINTER.test(line);

// The shell itself complaining (`/usr/bin/bash: line 1: cd: …`, `zsh: …`, `(eval):1: …`), not the program it ran.
const SHELL_SAID = /^(?:\/\S*\/)?(?:ba|z|da|k)?sh(?:\.exe)?: |^\(eval\):\d+: /;

/** The line is the shell's own complaint (a `cd` that failed, a program not found), not the program's. */
export const isShellError = (line: string): boolean => SHELL_SAID.test(line);

/**
 * The signature of a failure's output, or null when no line says what failed. `failed`: the output is
 * known to be a failure's (a tool's error result), so its first telling line is the signature when no
 * line names an error.
 */
/**
 * `further`: what the output printed after the part read (see FAILURE_HEAD in result-window.ts), looked at only
 * when the part read says no more than that something failed.
 */
export function errorSignature(output: string, failed = false, further = ''): ErrorSignature | null {
  return signatureFrom(output, failed ? 'failed' : 'any', further);
}

// Claude Code's own messages a user may paste (its API or login failing): not the project's.
const HARNESS = /\bAPI Error: \d{3}\b|\bPlease run \/login\b/i;
// The patterns that tell output from prose: a bare "error" or "failed" in a sentence is someone talking.
const PRINTED = [
  ...SAYS_WHAT,
  // What a tool says of a config it could not read: `Unknown notify_on_cmd_finish value: 5`, `syntax error`.
  /\bunknown [\w.-]+ (?:value|option|setting|key|directive|command)\b/i,
  /\b(?:syntax|parse) error\b/i,
];

/**
 * The error a person's message reports by pasting what a tool printed (a CI log, a terminal's lines),
 * or null when no line of it looks printed by a tool ("the build failed again" is a sentence).
 */
export function reportedError(message: string): ErrorSignature | null {
  return HARNESS.test(message) ? null : signatureFrom(message, 'printed');
}

// What a build tool or runner prints around the real error, saying only that something failed: the same
// words for every failure (a lesson keyed by them would come back for any of them). Gradle's and Kotlin's
// (`BUILD FAILED in 3s`, `FAILURE: Build failed with an exception.`, `Execution failed for task ':app:x'.`,
// `> Compilation error. See log for more details`), Maven's (`[ERROR] BUILD FAILURE`), make's and cargo's
// summaries, npm's lifecycle line, a hosted build's `Build timed out`, systemd's `Job for nginx.service failed because the control process exited with
// error code.`, `An unexpected error occurred:`, git's `failed to push some refs` (the remote's reason is above it), and a Python traceback's header (its last line says what).
const GENERIC_FAILURE =
  /^(?:[>*]\s*)*(?:\[error\]\s*|e:\s*)?(?:(?:error|failure):?\s*)?(?:failed to compile|compil(?:ation|e) (?:failed|error)|build (?:failed|failure)(?: with (?:\d+ errors?|an exception))?(?: in (?:[\d.]+[hms]\s*)+)?|(?:error )?command failed with exit code \d+|process (?:completed|exited) with exit code \d+|tests? failed|(?:build|deploy(?:ment)?) timed out|job for \S+ failed because the control process exited with error code|an unexpected error (?:has )?occurred|failed to push some refs to '[^']*'|\d+ errors? found|(?:\w+ )?failed for task '[^']*'|a failure occurred while executing \S+|error occurred in \w+|task :\S+ failed|traceback \(most recent call last\)|failed examples|error: "[^"]*" exited with \d+|(?:×\s*)?failed to build `[^`]*`?|(?:[├╰│─▶×]\s*)*the build backend returned an error|could not compile `[^`]*`(?: \([^)]*\))?(?: due to .*)?|make(?:\[\d+\])?: \*\*\* \[[^\]]*\] error \d+|(?:npm (?:err!|error) )?lifecycle script `[^`]*` failed with error|npm (?:err!|error) code elifecycle)[.:,]?(?:\s*(?:see|check) (?:the )?logs? for (?:more )?details?\.?)?$/i;

/**
 * The line says only that something failed (`BUILD FAILED in 3s`, `Traceback (most recent call last):`), not
 * what: a lesson keyed by it would stand for every failure of that tool.
 */
export const saysOnlyThatItFailed = (line: string): boolean => GENERIC_FAILURE.test(line.trim());

function signatureFrom(output: string, mode: 'failed' | 'any' | 'printed', further = ''): ErrorSignature | null {
  if (!output || NOT_AN_ERROR.test(output)) return null;
  // The remote held commits the branch lacked: only what else the output says names an error (a later step's).
  if (REMOTE_AHEAD.test(output)) {
    const rest = output
      .split(/\r?\n/)
      .filter((l) => !PUSH_LINE.test(l))
      .join('\n');
    return rest.trim() ? signatureFrom(rest, mode === 'failed' ? 'any' : mode, further) : null;
  }
  // A hook that blocked the call: Claude Code's line says so first, whatever the hook printed after it.
  const hook = mode === 'printed' ? null : blockingHook(output);
  if (hook) return { line: clip(oneLine(hook.line), LINE_MAX), key: hook.key };
  // Claude Code stopped the command at its time limit and says so on the output's first line: that is what went wrong,
  // whatever the command had printed by then (a log it was tailing, with errors of its own in it), however long the line.
  const opening = mode === 'printed' ? '' : withoutEscapes(output.trimStart().split(/\r?\n/, 1)[0] ?? '');
  const stopped = TIMED_OUT.exec(opening)?.[0];
  if (stopped) return { line: clip(oneLine(stopped), LINE_MAX), key: TIMED_OUT_KEY };
  const failed = mode === 'failed';
  const patterns = mode === 'printed' ? PRINTED : STRONG;
  const lines = candidateLines(output);
  // A line that only says that something failed (`Failed to compile.`) is the signature only when no line says what.
  const pick = (from: string[]) => patterns.map((pattern) => from.find((l) => pattern.test(l))).find((l) => l !== undefined);
  const specific = lines.filter((l) => !GENERIC_FAILURE.test(l));
  const found = pick(specific) ?? pick(lines);
  const told =
    found === undefined || GENERIC_FAILURE.test(found) ? pick(candidateLines(further).filter((l) => !GENERIC_FAILURE.test(l))) : undefined;
  const hit = told ?? found ?? (failed ? (specific[0] ?? lines[0]) : undefined);
  if (!hit) return null;
  // Claude Code's Bash tool ran out of time: what the command printed meanwhile follows on the same line.
  const timedOut = TIMED_OUT.exec(hit)?.[0];
  const line = clip(oneLine(timedOut ?? hit), LINE_MAX);
  // Any limit, however written (`2m 0s`, `2m 0.0s`): the same trouble; so is any cmdlet bash did not find, and any of cmd's syntax.
  const key = timedOut
    ? TIMED_OUT_KEY
    : CMDLET_NOT_FOUND.test(line)
      ? CMDLET_KEY
      : CMD_SYNTAX.some((p) => p.test(line))
        ? CMD_SYNTAX_KEY
        : signatureKey(line);
  return key.length >= 6 ? { line, key } : null;
}

const HOOK_KEY = /^(?:pretooluse|permissionrequest):\S+ hook (\S+) blocked$/;

/** A key made of more than its line's words (Claude Code's time limit, a hook that blocked): cleaning the line keeps it. */
export const keyOutlivesLine = (key: string): boolean => key === TIMED_OUT_KEY || isOtherShellKey(key) || HOOK_KEY.test(key);

/** The hook a key says blocked the call (`block-dangerous.js`), or null. */
export const hookOfKey = (key: string): string | null => HOOK_KEY.exec(key)?.[1] ?? null;

// Claude Code's record of a hook that stopped a tool call (`PreToolUse:Bash hook error: [node .claude/hooks/guard.js]:
// blocked: rm -rf …`): the event and tool, the hook's command in brackets (which may hold brackets of its own), what it said.
const HOOK_BLOCKED = /^(PreToolUse|PermissionRequest):(\S+) hook error: \[((?:[^[\]]|\[[^[\]]*\])*)\]:/;
/** A name that is a script's or a program's and nothing else (no setting, no flag, no secret it was given). */
const HOOK_NAME = /^[\w.@+[\]-]{1,64}$/;

/**
 * The hook that stopped a tool call, by the first line of the call's result: its event and tool, and its
 * script's name (`block-dangerous.js`), which the key holds. Whatever it blocked, the user's hook is the one
 * trouble of that tool: the next call it blocks will say another command. Null when the line is no such
 * record, or the hook's command shows no plain name (a setting or a flag is never taken for one).
 */
export function blockingHook(output: string): { line: string; key: string } | null {
  // Every failed call's output passes here: most hold no such record, and are not read further.
  if (!output.includes(' hook error: [')) return null;
  const first =
    withoutEscapes(output)
      .replace(/<\/?tool_use_error>/g, '')
      .trimStart()
      .split(/\r?\n/)[0] ?? '';
  const m = HOOK_BLOCKED.exec(first);
  if (!m) return null;
  // The hook's command as the shell reads it (`"C:/Program Files/nodejs/node.exe" guard.js` is two words). One
  // written inline (`jq … | grep -q … && exit 2`, `if …; then …; fi`) has no name of its own.
  const all = shellWords(m[3]!);
  if (all.some((w) => w.op && SEPARATORS.has(w.text))) return null;
  // Settings and flags are not the hook.
  const words = all.filter((w) => !w.op && !w.text.includes('=') && !w.text.startsWith('-')).map((w) => w.text);
  // The script a program runs (`node …/guard.js`, `bash ~/.claude/hooks/check.sh`), or a program run alone;
  // else (`npx -y @acme/guard`, `python3 -m hooks.guard`) no name is sure, and the line is read as any other.
  const script = words.find((w, i) => i > 0 && /\.\w{1,4}$/.test(w)) ?? (words.length === 1 ? words[0]! : '');
  const name = script.split(/[\\/]/).pop() ?? '';
  if (!HOOK_NAME.test(name)) return null;
  return { line: first.trim(), key: `${m[1]}:${m[2]} hook ${name} blocked`.toLowerCase() };
}

/** The lines of an output that may say what went wrong: trimmed, not noise, not a lone word. */
function candidateLines(output: string): string[] {
  const lines = withoutEscapes(output)
    // Claude Code wraps its tools' own errors in a tag: the words inside are the error.
    .replace(/<\/?tool_use_error>/g, '')
    // Output quoted as a string (a hook's JSON, a logged message) keeps its line breaks as `\n`.
    .replace(/\\n/g, '\n')
    .split(/\r?\n/)
    .map((l) => l.trim());
  const usage = lines.some((l) => USAGE_HEAD.test(l));
  return (
    lines
      // A line of one word (`Password:`, a prompt the command waited at) says nothing of what went wrong.
      .filter(
        (l) =>
          l.length >= 6 &&
          l.length <= 2000 &&
          !NOISE.test(l) &&
          !(usage && (USAGE_HEAD.test(l) || FLAG_LINE.test(l))) &&
          /[\p{L}]{3}/u.test(l) &&
          (l.match(/\p{L}{2,}/gu) ?? []).length >= 2,
      )
  );
}

/** The part of an error line that recurs: numbers, quoted names, paths, hashes and addresses made generic. */
export function signatureKey(line: string): string {
  // The first sentence: tools go on with what they were given ("… not found in file. String: <the text>").
  const first = line.split(/(?<=[a-z)\]'"”’])\.\s+(?=[A-Z])/)[0] ?? line;
  return (
    first
      .toLowerCase()
      // A quoted phrase is the user's text; a quoted name ('matches', 'lodash') is what went wrong.
      .replace(/(["'`‘’“”])((?:(?!\1).){1,80})\1/g, (whole, _q, inner: string) => (/\s/.test(inner) ? '“…”' : whole))
      // A scoped package (`'@react-email/components'`) is a name, not a path: a different one is a different error.
      .replace(/(?:[a-z]:)?(?:[\w.@~-]*[/\\])+[\w.@-]+/g, (p) => (/^@[\w.-]+\/[\w.-]+$/.test(p) ? p : '<path>'))
      .replace(/\b0x[0-9a-f]+\b|\b[0-9a-f]{7,}\b/g, '<hex>')
      .replace(/(?<![a-z\d])\d+/g, '#')
      .replace(/[\s:;,.()[\]{}]+/g, ' ')
      .trim()
      .slice(0, 120)
  );
}
