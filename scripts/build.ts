// Bundles the hooks and the CLI into self-contained files under dist/.
// The bundles are committed: a marketplace install has no node_modules.
//
// Hooks run thousands of times a day, so each is one CommonJS file holding
// only the code its usual path needs (CommonJS: Node's ESM loader alone costs
// a hook about a fifth of a bare `node` start). Every `await import()` in the
// sources becomes its own self-contained bundle in dist/lazy/, required only
// when that path runs: YAML when a config exists, the parser on a cache miss,
// the transcript reader when there is transcript to read.
// The CLI is not on a hot path: one ESM entry with shared chunks.
// hooks/hooks.json is written from the hook registry here too.

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BuildOptions, build, type Plugin } from 'esbuild';
import { HOOKS, renderHooksJson } from '../src/hooks/hook-registry.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
// RUNE_BUILD_PROFILE=<dir>: an unminified build elsewhere, for profiling with readable names.
const profileDir = process.env.RUNE_BUILD_PROFILE;
const dist = profileDir ? resolve(profileDir) : join(root, 'dist');
const hooks = HOOKS.map((h) => h.name);

const common: BuildOptions = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  minify: !profileDir,
  legalComments: 'none',
  // Deterministic output: CI rebuilds and diffs dist/ against the commit.
  sourcemap: false,
  logLevel: 'warning',
};

/** Turns each dynamic import into an external `lazy/<name>.cjs`, relative to where the importer lands. */
function lazyImports(prefix: string, found: Map<string, string>): Plugin {
  return {
    name: 'lazy-imports',
    setup(b) {
      b.onResolve({ filter: /\.ts$/ }, (args) => {
        if (args.kind !== 'dynamic-import') return undefined;
        const source = resolve(args.resolveDir, args.path);
        const name = basename(source, '.ts');
        // Lazy bundles are named by file name alone: two sources with one name would overwrite each other.
        const known = found.get(name);
        if (known !== undefined && known !== source)
          throw new Error(`two lazily imported files are both named ${name}.ts: ${known} and ${source}; rename one`);
        found.set(name, source);
        return { path: `${prefix}${name}.cjs`, external: true };
      });
    },
  };
}

/** Builds CommonJS bundles and loads their lazy parts with require() instead of the ESM loader. */
async function buildCjs(entryPoints: Record<string, string>, outdir: string, prefix: string, found: Map<string, string>): Promise<void> {
  const result = await build({
    ...common,
    format: 'cjs',
    entryPoints,
    outdir,
    outExtension: { '.js': '.cjs' },
    write: false,
    plugins: [lazyImports(prefix, found)],
  });
  for (const file of result.outputFiles) {
    // Lazy parts and node built-ins loaded late (`await import('node:child_process')`) come through require(), not the ESM loader.
    const text = file.text.replace(/import\(("(?:\.\/[\w./-]+\.cjs|node:[\w/]+)")\)/g, 'Promise.resolve().then(()=>require($1))');
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(file.path, text);
  }
}

rmSync(dist, { recursive: true, force: true });

const lazy = new Map<string, string>();
await buildCjs(Object.fromEntries(hooks.map((h) => [h, join(root, 'src/hooks/entries', `${h}.ts`)])), dist, './lazy/', lazy);

// Lazy bundles may need further lazy bundles: build until none is new.
const built = new Set<string>();
while ([...lazy.keys()].some((n) => !built.has(n))) {
  const batch = [...lazy].filter(([n]) => !built.has(n));
  for (const [n] of batch) built.add(n);
  await buildCjs(Object.fromEntries(batch), join(dist, 'lazy'), './', lazy);
}

await build({
  ...common,
  format: 'esm',
  entryPoints: { cli: join(root, 'src/cli/main.ts') },
  outdir: dist,
  outExtension: { '.js': '.mjs' },
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  // CommonJS dependencies (picomatch) call require() for node builtins.
  banner: { js: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);" },
});

// Generated, committed, and checked fresh by CI like the bundles.
if (!profileDir) writeFileSync(join(root, 'hooks', 'hooks.json'), renderHooksJson());
