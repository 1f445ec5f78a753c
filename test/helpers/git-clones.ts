// Real git for team-memory tests: a bare "origin" and clones of it in a temp
// folder, git run with a fixed identity and without the machine's global or
// system settings, and pulls that report what git said.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface GitRun {
  code: number | null;
  out: string;
}

export interface Clone {
  name: string;
  dir: string;
  git(...args: string[]): string;
  tryGit(...args: string[]): GitRun;
  write(rel: string, text: string): void;
}

export interface Origin {
  root: string;
  remote: string;
  /** Environment every git call uses (also what a test passes to processes that run git). */
  env: NodeJS.ProcessEnv;
  clone(name: string): Clone;
  cleanup(): void;
}

export function makeOrigin(prefix = 'rune-echoes-team-'): Origin {
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const home = join(root, 'home');
  mkdirSync(home);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Test',
    GIT_AUTHOR_EMAIL: 'test@example.invalid',
    GIT_COMMITTER_NAME: 'Test',
    GIT_COMMITTER_EMAIL: 'test@example.invalid',
    LC_ALL: 'C',
  };
  const run = (cwd: string, args: string[]): GitRun => {
    const r = spawnSync('git', args, { cwd, env, encoding: 'utf8' });
    return { code: r.status, out: `${r.stdout}${r.stderr}` };
  };
  const must = (cwd: string, args: string[]): string => {
    const r = run(cwd, args);
    if (r.code !== 0) throw new Error(`git ${args.join(' ')} failed in ${cwd}: ${r.out}`);
    return r.out;
  };
  const remote = join(root, 'origin.git');
  must(root, ['init', '--quiet', '--bare', '--initial-branch=main', remote]);
  return {
    root,
    remote,
    env,
    clone(name) {
      const dir = join(root, name);
      must(root, ['clone', '--quiet', remote, dir]);
      // An empty origin leaves the clone on an unborn default branch: make it main.
      must(dir, ['symbolic-ref', 'HEAD', 'refs/heads/main']);
      must(dir, ['config', 'pull.rebase', 'false']);
      return {
        name,
        dir,
        git: (...args) => must(dir, args),
        tryGit: (...args) => run(dir, args),
        write(rel, text) {
          const abs = join(dir, rel);
          mkdirSync(dirname(abs), { recursive: true });
          writeFileSync(abs, text);
        },
      };
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** Runs git in `dir` with a fixed identity (and, given `date`, that author and commit date); fails the test when git fails. */
export function gitIn(dir: string, args: string[], date?: string): void {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@example.invalid',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@example.invalid',
    ...(date ? { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } : {}),
  };
  const r = spawnSync('git', ['-C', dir, ...args], { env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr}`);
}
