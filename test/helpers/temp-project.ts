// A throw-away project folder for store and CLI tests: made under the OS temp
// dir, removed after the test, with a snapshot of the whole tree so a test can
// say "nothing was written" byte for byte.
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { defaultConfig, type EchoesConfig } from '../../src/core/config/config-defaults.ts';
import { type EchoPaths, echoPaths } from '../../src/store/fs/echo-paths.ts';

export interface TempProject {
  /** Real path of the project root (symlinks in the temp dir resolved). */
  dir: string;
  config: EchoesConfig;
  paths: EchoPaths;
  /** Writes a file relative to the project root, creating folders. */
  write(rel: string, text: string): string;
  /** Reads a file relative to the project root, or null when it is absent. */
  read(rel: string): string | null;
  /** Every folder, file (with its bytes) and symlink (with its target) under the root. */
  snapshot(): Map<string, string>;
  /** Relative paths of every file under `rel` (default the root), sorted. */
  files(rel?: string): string[];
  cleanup(): void;
}

interface CleanupHost {
  after(fn: () => void): void;
}

/** Makes a temp project; with a test context, cleanup runs after the test. */
export function makeTempProject(t?: CleanupHost, prefix = 'rune-echoes-test-'): TempProject {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const config = defaultConfig();
  // HOME points into the project so a user-scope mistake can never touch the real ~/.claude.
  const paths = echoPaths(dir, config, join(dir, 'home'));
  const project: TempProject = {
    dir,
    config,
    paths,
    write(rel, text) {
      const abs = join(dir, rel);
      mkdirSync(dirname(abs), { recursive: true });
      writeFileSync(abs, text);
      return abs;
    },
    read(rel) {
      try {
        return readFileSync(join(dir, rel), 'utf8');
      } catch {
        return null;
      }
    },
    snapshot: () => snapshotTree(dir),
    files(rel = '') {
      return [...snapshotTree(join(dir, rel)).entries()]
        .filter(([, v]) => v.startsWith('file:'))
        .map(([k]) => k)
        .sort();
    },
    cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
  t?.after(() => project.cleanup());
  return project;
}

/** A map from relative path to `dir`, `file:<base64 bytes>` or `link:<target>`; symlinks are not followed. */
export function snapshotTree(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string) => {
    const abs = rel ? join(root, rel) : root;
    let st: ReturnType<typeof lstatSync>;
    try {
      st = lstatSync(abs);
    } catch {
      return;
    }
    if (st.isSymbolicLink()) out.set(rel, `link:${readlinkSync(abs)}`);
    else if (st.isDirectory()) {
      if (rel) out.set(rel, 'dir');
      for (const name of readdirSync(abs).sort()) walk(rel ? join(rel, name) : name);
    } else out.set(rel, `file:${readFileSync(abs).toString('base64')}`);
  };
  walk('');
  return out;
}

/** Human-readable differences between two snapshots, for assertion messages. */
export function diffSnapshots(before: Map<string, string>, after: Map<string, string>): string[] {
  const diffs: string[] = [];
  for (const [k, v] of before) {
    if (!after.has(k)) diffs.push(`removed ${k}`);
    else if (after.get(k) !== v) diffs.push(`changed ${k}`);
  }
  for (const k of after.keys()) if (!before.has(k)) diffs.push(`added ${k}`);
  return diffs;
}
