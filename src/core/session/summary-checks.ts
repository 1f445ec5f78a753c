// Checks (tests, builds, linters, commits, pushes) and which are still failing
// when a session ends. A check is what a command verifies: its family
// ("mix test", "npm run build", "git commit"), the project directory it ran in
// and the files it named. A passing run settles every earlier failure it
// covers — the same files or fewer, or the whole directory — so a commit that
// failed and was made again, one test file fixed and then the whole suite
// passing, or `node assets/build.js` failing from the root and `node build.js`
// passing inside assets/ all leave nothing open. What is left is what failed
// last, and that is what "Open" reports.
//
// Parts of a transcript are summarised one after another and merged: each part
// keeps its failures and the passing runs that may settle earlier parts'
// failures, so merging gives what reading the whole would.

import { isAbsolutePath, normalizePath } from '../transcript/path-spelling.ts';
import { commandFamily, isVerification, mainStep, PACKAGE_INSTALL, unwrapCommand, withoutRedirections } from './summary-commands.ts';

export type CheckKind = 'test' | 'build' | 'lint' | 'install' | 'commit' | 'push' | 'other';

export interface CheckRun {
  /** Family, directory and files in one string: runs of one check share it. */
  key: string;
  family: string;
  /** Project-relative directory the command ran in ('' for the project root). */
  dir: string;
  /** Project-relative files or folders the command named; none means the whole directory. */
  paths: string[];
  /** The command as the summary shows it. */
  command: string;
  kind: CheckKind;
  /** Tests picked by name (`-k x`, `cargo test parse_iso`, `-run X`): such a run checks only those. */
  filter?: string;
  /**
   * A failing check: the latest run of another check of its kind (a test, a build, a lint), in its folder or
   * above, that passed after it without covering it (`make test-backend` after `make test` failed). Whether it
   * settles it is not known.
   */
  laterPass?: string;
}

export interface CheckState {
  /** Checks whose latest run failed and that no later run covered, oldest first. */
  failing: CheckRun[];
  /** Passing runs (latest last), kept so that a later merge can settle earlier failures. */
  passed: CheckRun[];
}

const FAILING_CAP = 20;
const PASSED_CAP = 40;

/** What kind of check a command is; the claims a summary tests against it depend on the kind. */
export function checkKind(command: string): CheckKind {
  // Before the words below: `bundle install` builds nothing, `pnpm add -D vitest` tests nothing.
  if (PACKAGE_INSTALL.test(command)) return 'install';
  if (/\bgit\b(?:\s+-\S+)*\s+commit\b/.test(command)) return 'commit';
  if (/\bgit\b(?:\s+-\S+)*\s+push\b/.test(command)) return 'push';
  if (/\b(?:test|tests|spec|specs|pytest|jest|vitest|mocha|rspec|phpunit|playwright|cypress|llvm-cov|coverage)\b/.test(command)) {
    return 'test';
  }
  if (/\b(?:build|compile|tsc|make|webpack|esbuild|rollup|vite|bundle)\b/.test(command)) return 'build';
  if (/\b(?:lint|credo|dialyzer|clippy|eslint|ruff|flake8|mypy|pyright|format|fmt|prettier|biome|check|typecheck)\b/.test(command)) {
    return 'lint';
  }
  return 'other';
}

function isPathArg(word: string): boolean {
  if (!word || word.startsWith('-') || /[=…$`]|:\/\//.test(word)) return false;
  return word.includes('/') || /\.[A-Za-z][A-Za-z0-9]{0,5}$/.test(word);
}

// A script run by an interpreter is named by the script: `node build.js` is a build, `python x.py` is not a test.
const INTERPRETERS = /^(?:node|python3?|ruby|bash|sh|zsh|deno|bun|tsx|ts-node|perl|php|elixir)$/;

/**
 * The check a command verifies, or null for commands that verify nothing
 * (inspection, navigation, `git add`). Judged by the program and subcommand,
 * never by the files named: `git add test/x` checks nothing. `normalized` is
 * the command without a leading `cd`; `dir` is where it ran, relative to the
 * project; `shown` is how the summary prints it.
 */
export function checkOf(normalized: string, dir: string, shown: string): CheckRun | null {
  const family = commandFamily(normalized);
  if (!family) return null;
  // The arguments of the last command, up to a pipe (`mix test x | grep failures`), wrappers aside.
  const last = unwrapCommand(withoutRedirections(mainStep(normalized).split(/\s*\|\s*/)[0] ?? ''));
  const words = last
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w.replace(/^['"]|['"]$/g, ''));
  const rest = words.slice(words.indexOf(family.split(' ').pop()!) + 1);
  const args = rest.filter(isPathArg);
  const script = INTERPRETERS.test(family) && args[0] ? (args[0].split('/').pop() ?? '') : '';
  const what = script ? `${family} ${script}` : family;
  if (!isVerification(what)) return null;
  const paths = [...new Set(args.map((p) => normalizePath(isAbsolutePath(p) || !dir ? p : `${dir}/${p}`)))].sort();
  const kind = checkKind(what);
  const filter = kind === 'test' ? testFilter(rest) : '';
  return {
    key: [family, dir, ...paths, ...(filter ? [`?${filter}`] : [])].join('\u0000'),
    family,
    dir,
    paths,
    command: shown,
    kind,
    ...(filter ? { filter } : {}),
  };
}

// Options that pick tests by name or mark, or a package: the run then checks only those.
const FILTER_FLAG = /^(?:-k|-t|-g|-m|-p|-run|--grep|--filter|--tests?|--testNamePattern|--only|--package|--match|-Dtest)(?:=.*)?$/;

/** The words that pick which tests ran (empty for a run of the whole suite or of named files). */
function testFilter(args: readonly string[]): string {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    if (FILTER_FLAG.test(w)) {
      out.push(w.includes('=') ? w : `${w} ${args[i + 1] ?? ''}`.trim());
      if (!w.includes('=')) i++;
      continue;
    }
    // A bare name right after the command or another name (`cargo test parse_iso`), not an option's value.
    const prev = i === 0 ? '' : args[i - 1]!;
    if (!w.startsWith('-') && w !== '--' && !isPathArg(w) && !/^\d+$/.test(w) && !(prev.startsWith('-') && prev !== '--')) out.push(w);
  }
  return out.join(' ');
}

/** A passing run settles a failure when it checked the same thing or more of it. */
export function covers(pass: CheckRun, fail: CheckRun): boolean {
  if (pass.family !== fail.family) return false;
  // Some tests passing, picked by name, say nothing of the rest of the suite.
  if (pass.filter && pass.filter !== fail.filter) return false;
  if (pass.paths.length === 0) return pass.dir === fail.dir;
  return fail.paths.length > 0 && fail.paths.every((f) => pass.paths.some((p) => f === p || f.startsWith(`${p}/`)));
}

// Kinds whose other checks passing says something of a failed one; a commit or a push is one act each.
const KIN: ReadonlySet<CheckKind> = new Set(['test', 'build', 'lint', 'install']);

/** A run in this folder or above it may check what failed here; one in a folder below checks less. */
const reaches = (pass: CheckRun, fail: CheckRun): boolean =>
  pass.dir === '' || pass.dir === fail.dir || fail.dir.startsWith(`${pass.dir}/`);

/** The failures, each with the latest of `passed` (latest last) of its kind that reaches its folder, when one is there. */
function withLaterPasses(failing: CheckRun[], passed: readonly CheckRun[]): CheckRun[] {
  return failing.map((f) => {
    const later = KIN.has(f.kind) ? [...passed].reverse().find((p) => p.kind === f.kind && reaches(p, f)) : undefined;
    return later ? { ...f, laterPass: later.command } : f;
  });
}

export function emptyCheckState(): CheckState {
  return { failing: [], passed: [] };
}

/** The state after one more run of a check. */
export function recordCheck(state: CheckState, run: CheckRun, failed: boolean): CheckState {
  if (failed) {
    const failing = [...state.failing.filter((f) => f.key !== run.key), run].slice(-FAILING_CAP);
    return { failing, passed: state.passed };
  }
  return {
    failing: withLaterPasses(
      state.failing.filter((f) => !covers(run, f)),
      [run],
    ),
    passed: [...state.passed.filter((p) => p.key !== run.key), run].slice(-PASSED_CAP),
  };
}

/** `b` happened after `a`: its passing runs settle `a`'s failures, and its own failures are the latest. */
export function mergeCheckStates(a: CheckState, b: CheckState): CheckState {
  const failing = withLaterPasses(
    a.failing.filter((f) => !b.passed.some((p) => covers(p, f)) && !b.failing.some((x) => x.key === f.key)),
    b.passed,
  );
  const passed = a.passed.filter((p) => !b.passed.some((x) => x.key === p.key));
  return { failing: [...failing, ...b.failing].slice(-FAILING_CAP), passed: [...passed, ...b.passed].slice(-PASSED_CAP) };
}

// Files whose change a build, test or run would check: code and the configuration programs read
// (a Nix module, a Dockerfile), not prose or data.
const CHECKED_FILE =
  /\.(?:[cm]?[jt]sx?|py|rb|rs|go|java|kts?|scala|swift|c|cc|cpp|h|hpp|cs|fs|php|ex|exs|erl|hs|ml|clj|lua|zig|dart|nix|sh|bash|zsh|ps1|sql|vue|svelte|tf|hcl|gradle|cmake)$|(?:^|\/)(?:Dockerfile|Makefile|Justfile|flake\.lock)$/i;

/** Whether an edit of this file is something a build, test or run would check. */
export function needsCheck(path: string): boolean {
  return CHECKED_FILE.test(path);
}

// Commands that run what was written: a script run by its interpreter, a project's run or start
// script, a system or container rebuilt from its configuration.
const RUNS =
  /^(?:node|deno|bun|tsx|ts-node|python[0-9.]*|ruby|perl|php|bash|sh|zsh|elixir|iex|go run|cargo run|dotnet run|mix run|npm (?:start|run)|pnpm (?:start|run)|yarn (?:start|run)|npx|make|just|nix|nix-build|nix-instantiate|nixos-rebuild|home-manager|darwin-rebuild|docker(?:-compose)? (?:build|run|compose)|terraform (?:plan|validate|apply)|kubectl apply|curl|java|gradle|mvn)\b/;

/** Whether a command built, tested or ran the project (then the edits before it were looked at). */
export function isCheckOrRun(normalized: string, check: CheckRun | null): boolean {
  if (check && (check.kind === 'test' || check.kind === 'build' || check.kind === 'lint')) return true;
  const step = unwrapCommand(withoutRedirections(mainStep(normalized).split(/\s*\|\s*/)[0] ?? '')).replace(/^sudo\s+/, '');
  return RUNS.test(step);
}
