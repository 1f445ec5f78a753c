// Installed as users do: a fresh `git clone` of the committed HEAD is served
// over (local) HTTP like a GitHub repository, `claude plugin marketplace add
// <url>` clones it as a marketplace, `claude plugin install rune@<name>`
// copies the plugin into the cache under HOME, and scenario 1 then runs
// without --plugin-dir. A marketplace added as a local folder would not do:
// Claude Code 2.1.330 then reads the plugin straight from that folder
// (`readFromFolder`), never from its cache copy. The served repository and the
// clone are deleted before the sessions, and a `node` shim on PATH logs every
// script node runs, so the test knows the hooks and the CLI ran from the cache.
//
// Claude Code also runs `npm ci --ignore-scripts` in the installed copy when
// the plugin folder has package.json plus a lockfile, which here would
// download every devDependency (hundreds of MB, a second claude binary among
// them). The install runs with npm_config_offline=true: that npm ci fails
// (quietly; the install still succeeds), no registry is contacted, and the
// cache holds no node_modules, the case the committed bundles must handle.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type ClaudeRun, makeClaudeHome, makeTempDir, removeDirs, repoRoot, runClaude } from './claude-harness.ts';
import { collectToolResults, type FakeAnthropic, startFakeAnthropic } from './fake-anthropic-server.ts';
import { type GitServer, serveGitRepos } from './scenario-git-server.ts';
import { type HandoffOutcome, handoffChecks, playHandoff } from './scenario-handoff.ts';
import {
  describeRun,
  ensureBundles,
  hookBundles,
  makeScenarioProject,
  type RuneRun,
  runRune,
  type ScenarioProject,
  walkFiles,
  writeNodeShim,
} from './scenario-kit.ts';
import { defaultRules } from './script-rules.ts';

const testTimeout = 900_000;

let server: FakeAnthropic;
let home: string;
let work: string;
let project: ScenarioProject;
let clone: string;
let marketplaceName: string;
let gitServer: GitServer;
let distCommitted: boolean;
let installPath: string;
let outcome: HandoffOutcome;
let shimLog: string;
let agentCli: RuneRun;
let slashCommand: RuneRun;
const setup: Record<string, ClaudeRun> = {};

/** `claude plugin …` with the temporary HOME; must exit 0. */
async function pluginCommand(label: string, args: string[], env: Record<string, string> = {}): Promise<ClaudeRun> {
  const run = await runClaude({ args: ['plugin', ...args], cwd: project.dir, home, server, env, timeoutMs: 300_000 });
  setup[label] = run;
  assert.equal(run.timedOut, false, `claude plugin ${args.join(' ')} timed out`);
  assert.equal(run.code, 0, `claude plugin ${args.join(' ')}: ${run.stdout}\n${describeRun(run)}`);
  return run;
}

describe('8. installed from a marketplace clone, scenario 1 runs from the plugin cache', () => {
  before(async () => {
    server = await startFakeAnthropic({ rules: defaultRules() });
    home = await makeClaudeHome();
    work = await makeTempDir('install');
    project = await makeScenarioProject('installed-project');
    clone = join(work, 'clone');
    execFileSync('git', ['clone', '--quiet', repoRoot, clone], { stdio: 'pipe' });
    distCommitted = existsSync(join(clone, 'dist', 'session-start.cjs'));
    if (!distCommitted) {
      // Users would get no bundles at all; commit the working tree's build in the
      // clone so that the rest can still be checked (the first test fails).
      ensureBundles();
      await cp(join(repoRoot, 'dist'), join(clone, 'dist'), { recursive: true });
      const author = {
        GIT_AUTHOR_NAME: 'e2e',
        GIT_AUTHOR_EMAIL: 'e2e@example.invalid',
        GIT_COMMITTER_NAME: 'e2e',
        GIT_COMMITTER_EMAIL: 'e2e@example.invalid',
      };
      execFileSync('git', ['add', '-f', 'dist'], { cwd: clone, stdio: 'pipe' });
      execFileSync('git', ['commit', '--quiet', '-m', 'dist from the working tree'], {
        cwd: clone,
        stdio: 'pipe',
        env: { ...process.env, ...author },
      });
    }
    marketplaceName = (JSON.parse(readFileSync(join(clone, '.claude-plugin', 'marketplace.json'), 'utf8')) as { name: string }).name;
    const served = join(work, 'served');
    execFileSync('git', ['clone', '--quiet', '--bare', clone, join(served, 'rune-echoes.git')], { stdio: 'pipe' });
    gitServer = await serveGitRepos(served);

    await pluginCommand('validate', ['validate', clone]);
    await pluginCommand('marketplace add', ['marketplace', 'add', `${gitServer.url}/rune-echoes.git`]);
    await pluginCommand('install', ['install', `rune@${marketplaceName}`], { npm_config_offline: 'true' });
    const list = await pluginCommand('list', ['list', '--json']);
    await pluginCommand('details', ['details', `rune@${marketplaceName}`]);
    const installed = (JSON.parse(list.stdout) as Array<{ id: string; installPath: string; enabled: boolean }>).find(
      (p) => p.id === `rune@${marketplaceName}`,
    );
    assert.ok(installed?.enabled, `rune@${marketplaceName} is installed and enabled: ${list.stdout}`);
    installPath = installed.installPath;

    // Nothing may run from the clone or the served repository from here on.
    await gitServer.close();
    await removeDirs(clone, served);
    const shimDir = join(work, 'shim');
    await mkdir(shimDir, { recursive: true });
    await writeNodeShim(shimDir);
    shimLog = join(work, 'node-shim.log');
    const env = { PATH: `${shimDir}:${process.env.PATH ?? ''}`, NODE_SHIM_LOG: shimLog };
    outcome = await playHandoff({ project, home, server, pluginDir: null, env });
    // The CLI as agents reach it (plugin bin/ on the Bash PATH) and as users do (/rune:echoes).
    agentCli = await runRune({
      project,
      home,
      server,
      pluginDir: null,
      env,
      args: ['-p', 'RUN: rune-echoes status', '--allowedTools', 'Bash(rune-echoes:*)'],
    });
    slashCommand = await runRune({ project, home, server, pluginDir: null, env, args: ['-p', '/rune:echoes status'] });
  });

  after(async () => {
    await server.close();
    await removeDirs(home, work, project.dir);
  });

  test('the committed HEAD carries the bundles a marketplace install needs', { timeout: testTimeout }, (t) => {
    if (!distCommitted) t.diagnostic('dist/ is not in HEAD: the working-tree build was copied into the clone');
    assert.ok(distCommitted, 'dist/ is committed');
  });

  test('claude plugin details puts the always-on cost (agents, skills, the command) at 250 tokens or less', {
    timeout: testTimeout,
  }, (t) => {
    const details = setup.details!.stdout;
    const m = /Always-on:\s+~?([\d.,]+)(k?)\s*tok/.exec(details);
    assert.ok(m, `no always-on figure in:\n${details}`);
    const tokens = Number(m[1]!.replace(/,/g, '')) * (m[2] ? 1000 : 1);
    assert.ok(tokens <= 250, `always-on cost ${tokens} tokens:\n${details}`);
    t.diagnostic(`claude plugin details: always-on ~${tokens} tokens`);
  });

  test('the plugin is copied into the cache under HOME, with no node_modules', { timeout: testTimeout }, () => {
    assert.ok(
      gitServer.requests.some((r) => r.endsWith('/git-upload-pack')),
      'the marketplace was cloned over HTTP',
    );
    assert.ok(installPath.startsWith(`${join(home, '.claude', 'plugins', 'cache')}/`), installPath);
    const files = walkFiles(installPath);
    for (const hook of hookBundles) assert.ok(files.includes(`dist/${hook}.cjs`), `dist/${hook}.cjs is installed`);
    assert.ok(files.includes('bin/rune-echoes') && files.includes('commands/echoes.md') && files.includes('hooks/hooks.json'));
    assert.ok(!files.some((f) => f.startsWith('node_modules/')), 'no node_modules in the cache');
  });

  test('every hook and CLI run came from the cached copy', { timeout: testTimeout }, () => {
    const scripts = readFileSync(shimLog, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
    const bundleRuns = scripts.filter((l) => /\/dist\/[a-z-]+\.(?:mjs|cjs)\b/.test(l));
    assert.ok(bundleRuns.length > 0, `node ran no bundle: ${scripts.join('\n')}`);
    for (const line of bundleRuns) assert.ok(line.startsWith(`${installPath}/dist/`), line);
    const ran = new Set(bundleRuns.map((l) => /\/dist\/([a-z-]+)\.(?:mjs|cjs)/.exec(l)![1]));
    for (const hook of ['session-start', 'stop', 'session-end']) assert.ok(ran.has(hook), `${hook} ran (saw ${[...ran].join(', ')})`);
    assert.ok(!scripts.some((l) => l.includes(repoRoot) || l.includes(work)), scripts.join('\n'));
  });

  test('agents run rune-echoes from the cached bin/, and /rune:echoes runs the cached CLI', { timeout: testTimeout }, () => {
    assert.equal(agentCli.code, 0, describeRun(agentCli));
    const [result] = collectToolResults(agentCli.calls);
    assert.equal(result?.isError, false, result?.text);
    assert.ok(result!.text.startsWith(`Rune Echoes — ${project.echoes}`), result!.text);
    assert.equal(slashCommand.code, 0, describeRun(slashCommand));
    assert.ok(
      slashCommand.calls[0]?.promptText.includes(`Rune Echoes — ${project.echoes}`),
      slashCommand.calls[0]?.promptText.slice(0, 500),
    );
    const scripts = readFileSync(shimLog, 'utf8').split('\n');
    assert.ok(
      scripts.some((l) => l.startsWith(`${installPath}/bin/rune-echoes status`)),
      scripts.join('\n'),
    );
    assert.ok(
      scripts.some((l) => l.startsWith(`${installPath}/dist/cli.mjs`)),
      scripts.join('\n'),
    );
  });

  for (const [name, check] of handoffChecks) test(`scenario 1: ${name}`, { timeout: testTimeout }, () => check(outcome));
});
