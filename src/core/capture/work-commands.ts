// "How this project is worked": which commands build, test, lint, type-check,
// format, install and run it. A command counts by what it is for, read from
// its program and subcommand (`npm run test:run`, `cargo clippy`, `python -m
// pytest`), never from its arguments: `pytest tests/unit/test_x.py -k name`
// tests one thing, `pytest` is how the project is tested. Pure.

import { commandFamily, mainStep, unwrapCommand } from '../session/summary-commands.ts';

export const WORK_KINDS = ['install', 'build', 'typecheck', 'lint', 'format', 'test', 'run', 'apply'] as const;
export type WorkKind = (typeof WORK_KINDS)[number];

// By the family's words (program and subcommand, or an npm script's name). The order matters:
// `npm run test:coverage` is a test, `npm run typecheck` a type check before a check.
const KIND_RULES: ReadonlyArray<[WorkKind, RegExp]> = [
  ['typecheck', /\b(?:tsc|typecheck|type-check|types|mypy|pyright|check-types|vue-tsc|svelte-check)\b|^cargo check\b|\bastro check\b/],
  ['format', /\b(?:format|fmt|prettier|black|gofmt|isort)\b/],
  ['lint', /\b(?:lint|eslint|ruff|flake8|pylint|clippy|biome|credo|rubocop|golangci-lint|stylelint|shellcheck|hadolint|dialyzer)\b/],
  [
    'test',
    /\b(?:test|tests|spec|pytest|jest|vitest|mocha|rspec|phpunit|tox|nox|ctest|coverage|e2e)\b|\bcypress (?:run|open)\b|test:|:test\b|^(?:npm|pnpm|yarn|bun)(?: run)? test[\w.-]+/,
  ],
  [
    'build',
    /\b(?:build|compile|make|webpack|esbuild|rollup|tsup|bundle|nixos-rebuild|darwin-rebuild|home-manager switch|assemble|package|gradle|gradlew|mvn)\b/,
  ],
  [
    'run',
    /^(?:npm|pnpm|yarn|bun) (?:run )?(?:dev|start|serve|preview|watch)\b|\b(?:runserver|flask run|cargo run|go run|mix phx\.server|rails s(?:erver)?|uvicorn|docker compose up)\b/,
  ],
  // Configuration projects (dotfiles, system config) are worked by applying and reloading.
  ['apply', /\b(?:source-file|reload|reload-config|load-config|switch|restart|apply|stow)\b/],
  ['install', /install/],
];

// Package managers, of a language and of the machine, and what they do to packages: add or remove one
// (`npm uninstall x`, `brew install jq`, `apt-get install -y zip`), and also install, sync or update what is declared.
const PACKAGE_MANAGERS =
  'npm|pnpm|yarn|bun|pip[0-9.]*|pipx|poetry|uv|cargo|gem|bundle|go|composer|dotnet|brew|apt|apt-get|pacman|dnf|yum|zypper|apk|choco|winget|scoop|port|snap|nix-env|flatpak';
const CHANGES = 'install|i|add|uninstall|un|remove|rm|r|unlink|purge|reinstall|-S|-R';
const PACKAGE_CHANGE = new RegExp(`^(?:${PACKAGE_MANAGERS}) (?:${CHANGES})(?=\\s|$)`);
const PACKAGE_OP = new RegExp(`^(?:${PACKAGE_MANAGERS}) (?:${CHANGES}|ci|get|sync|update|upgrade)(?=\\s|$)`);

// Installing the project's dependencies, as opposed to adding a package: no package named.
const INSTALL =
  /^(?:(?:npm|pnpm|bun) (?:install|i|ci)|yarn(?: install)?|pip[0-9.]* install (?:-r|--requirement|-e|--editable)\s+\S+|uv sync|poetry install|pipenv install|bundle(?: install)?|composer install|mix deps\.get|go mod (?:download|tidy)|cargo fetch|dotnet restore)(?:\s+--?[\w-]+(?:=\S+)?)*$/;

const INLINE_CODE = /^(?:python[0-9.]*|node|ruby|perl|php|bun|deno)\s+(?:-\S+\s+)*(?:-c|-e|--eval|-p|--print)\s/;

// What runs tools but says nothing about the project's own commands: the plugin's CLI, git, package lookups,
// code given inline (`python3 -c "…"`, `node -e`), the shell's own `test`.
const NOT_WORK =
  /^(?:rune-echoes|git|gh|(?:npm|npx|pnpm|yarn|bun) (?:view|info|ls|list|why|explain|outdated|audit|link|pack|publish|login|whoami|config)|cd|ls|cat|echo|test|\[)(?:\s|$)/;

// An interpreter running a script or code of the session's own (`node scraper.mjs`, `python3 -c "…"`, `npx tsx x.ts`).
const OWN_CODE =
  /^(?:node|nodejs|python[0-9.]*|py|ruby|perl|php|deno|bun|tsx|ts-node|(?:npx|pnpm exec|bunx) (?:tsx|ts-node)|(?:uv|poetry|pipenv) run python[0-9.]*)(?:\s|$)/;

// A script of the project's or the user's own, run by its path or by a shell (`./build.sh`, `scripts/deploy.sh`,
// `bash tools/migrate.sh`, `sh -e ./x.sh`, `.\build.ps1`; not `bash -lc '…'`, which runs the command given): what it prints when it fails is that script's say, not the machine's.
const SCRIPT =
  /^(?:(?:ba|z|da|k)?sh(?:\s+-(?![a-z]*c)[a-z]+)*\s+[^\s-]|source\s+\S|\.{1,2}[\\/](?!(?:gradlew|mvnw|node_modules[\\/]|vendor[\\/]bin[\\/]))\S|~\/\S+\.(?:sh|bash|zsh|py|js|mjs|rb|pl)(?:\s|$)|[\w.-]+\/[\w./-]+\.(?:sh|bash|zsh|py|js|mjs|cjs|ts|rb|pl|ps1)(?:\s|$))/;

/** The command without `sudo`: run as root or not, it is the same command (`sudo ./build.sh`). */
const asRun = (normalized: string): string => normalized.replace(/^sudo\s+(?:-[ugCDhpRrTU]\s+\S+\s+|-[A-Za-z]+\s+)*/, '');

// Programs that run a file given next (`bash scripts/e2e.sh`, `python train.py`): the file is what runs.
const RUNS_A_FILE = /^(?:(?:ba|z|da|k)?sh|python[0-9.]*|py|node|nodejs|ruby|perl|php|deno|bun|tsx|ts-node|pwsh|powershell)$/;

/**
 * What a command runs, for telling one long command from another: the family (`npm run e2e`, `make image`),
 * or, for an interpreter or a shell, the file it runs (`bash scripts/e2e.sh`), sudo aside.
 */
export function commandTarget(normalized: string): string {
  const step = workStep(asRun(normalized));
  const [program = '', ...rest] = step.split(/\s+/);
  const name = programName(program);
  const file = RUNS_A_FILE.test(name) ? rest.find((w) => !w.startsWith('-')) : undefined;
  // A script by its name, as before its path was kept in the family: the keys stored with it stay the same.
  return file ? `${name} ${file}` : withoutFolder(workFamily(asRun(normalized)));
}

/**
 * The command runs code of the project's or the session's own through its interpreter: what it throws
 * (`TypeError: d.filter is not a function`) is that code's error, not the machine's.
 */
export function runsOwnCode(normalized: string): boolean {
  const step = workStep(asRun(normalized));
  const [program = '', ...rest] = step.split(' ');
  return OWN_CODE.test([programName(program), ...rest].join(' ')) || SCRIPT.test(step);
}

/** The command family is a package manager's own operation (`npm install -D x`, `npm uninstall x`, `brew upgrade`). */
export const isPackageOperation = (family: string): boolean => PACKAGE_OP.test(family);

/** The main step of a command line, unwrapped, without output redirections (`2>/dev/null`, `> build.log`). */
function workStep(normalized: string): string {
  return unwrapCommand(mainStep(normalized))
    .replace(/\s+(?:\d|&)?>>?&?\s*\S+/g, '')
    .trim();
}

// Where installed tools live (`node_modules/.bin`, a virtualenv's `bin`, Composer's `vendor/bin`, Gradle's and
// Maven's wrappers): the tool is named by itself, wherever it was installed.
const TOOL_HOME = /(?:^|[/\\])(?:node_modules|\.?venv|env|vendor[/\\]bin|site-packages)[/\\]|(?:^|[/\\])(?:gradlew|mvnw)(?:\.bat|\.cmd)?$/;

/** The command with its first word's folder left out: `scripts/build.sh --all` is `build.sh --all`. */
const withoutFolder = (command: string): string => command.replace(/^\S*[/\\]/, '');

/**
 * Program as its file name: `~/.venv/bin/pip` and `./node_modules/.bin/jest` are `pip` and `jest`. A script of the
 * project's own, given by its path from the project (`script/test`, `./bin/lint`), keeps that path: `test` alone
 * would name the shell's builtin, and the path is how it is run.
 */
function programName(word: string): string {
  const bare = word.replace(/^\.[/\\]/, '');
  if (/^[\w.-]+[/\\][\w./\\-]+$/.test(bare) && !bare.startsWith('.') && !TOOL_HOME.test(bare)) return bare;
  return word.replace(/^.*[/\\]/, '');
}

// Programs whose next word is a subcommand (`cargo test`, `mix format`); for any other the next word is
// what it acts on (`jest src`, `pytest tests`).
const WITH_SUBCOMMANDS =
  /^(?:npm|pnpm|yarn|bun|npx|deno|cargo|go|git|gh|mix|dotnet|poetry|uv|pdm|hatch|docker|docker-compose|kubectl|make|just|rake|gradle|gradlew|mvn|mvnw|sbt|tmux|nix|home-manager|nixos-rebuild|darwin-rebuild|systemctl|brew|apt|apt-get|pacman|dnf|yum|zypper|apk|choco|winget|scoop|port|snap|nix-env|flatpak|pipx|gem|bundle|rails|php|composer|swift|flutter|dart|terraform|helm|pip[0-9.]*|python[0-9.]*|node|tsc|ng|nx|turbo|lerna|stack|cabal|zig|elixir|rebar3)$/;

/** The family a person would repeat: the wrapped command's program and subcommand, programs by name. */
export function workFamily(normalized: string): string {
  const fam = commandFamily(workStep(normalized));
  const [first, ...rest] = fam.split(' ');
  const program = programName(first ?? '');
  return (WITH_SUBCOMMANDS.test(withoutFolder(program)) ? [program, ...rest] : [program]).join(' ').trim();
}

/** What the command is for in this project, or null when it is none of the kinds (or names what it acts on). */
export function workKind(normalized: string): WorkKind | null {
  const step = workStep(normalized);
  // Inline code (`python3 -c "a; b"`, one step: its own `;` are inside quotes) is not how the project is worked;
  // nor is a dry run of anything.
  if (!step || NOT_WORK.test(step) || INLINE_CODE.test(step)) return null;
  if (/(?:^|\s)--dry-run\b/.test(step)) return null;
  if (INSTALL.test(step)) return 'install';
  const family = workFamily(normalized);
  if (!family) return null;
  // `npm install lodash`, `pip install x`, `brew install jq`: adding or removing a package is a change to the project
  // or the machine, not how the project is worked.
  if (PACKAGE_CHANGE.test(family)) return null;
  // What a script is for is its name's, not its folder's: `build/bin/server` runs the program a build made.
  const named = withoutFolder(family);
  // A tool's own install step (`npx playwright install`, `npx husky install`) sets the project up.
  if (/ install$/.test(named)) return 'install';
  for (const [kind, pattern] of KIND_RULES) if (pattern.test(named)) return kind;
  return null;
}

/** The command as the project runs it: the family, with a script's arguments and file arguments left out. */
export function workCommand(normalized: string): string {
  const step = workStep(normalized);
  if (INSTALL.test(step)) return step.replace(/^\S*[/\\]/, '');
  // Applying a configuration or running a project's own script: what it is applied to is the point
  // (`tmux source-file ~/.tmux.conf`, `~/.tmux/plugins/tpm/bin/install_plugins`).
  const kind = workKind(normalized);
  if ((kind === 'apply' || kind === 'install') && step.length <= 100) return step;
  return workFamily(normalized);
}
