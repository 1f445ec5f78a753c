// Bundles the hooks and the CLI into self-contained ESM files under dist/.
// The bundles are committed: a marketplace install has no node_modules.
//
// Hooks run thousands of times a day, so each is one file holding only the
// code its usual path needs; every `await import()` in the sources becomes a
// separate self-contained bundle in dist/lazy/, loaded only when that path
// runs (YAML when a config exists, the parser on a cache miss, the transcript
// reader when there is transcript to read). One file instead of a graph of
// chunks saves the ESM loader a resolution per module.
// The CLI is not on a hot path: it is one entry with shared chunks.
import { build } from 'esbuild';
import { mkdirSync, rmSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const dist = join(root, 'dist');
const hooks = ['session-start', 'pre-compact', 'stop', 'subagent-stop', 'session-end'];

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minify: true,
  legalComments: 'none',
  // Deterministic output: CI rebuilds and diffs dist/ against the commit.
  sourcemap: false,
  logLevel: 'warning',
  outExtension: { '.js': '.mjs' },
  // CommonJS dependencies (picomatch) call require() for node builtins.
  banner: { js: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);" },
};

/** Turns each dynamic import into an external `lazy/<name>.mjs`, relative to where the importer lands. */
function lazyImports(prefix, found) {
  return {
    name: 'lazy-imports',
    setup(b) {
      b.onResolve({ filter: /\.ts$/ }, (args) => {
        if (args.kind !== 'dynamic-import') return undefined;
        const source = resolve(args.resolveDir, args.path);
        const name = basename(source, '.ts');
        found.set(name, source);
        return { path: `${prefix}${name}.mjs`, external: true };
      });
    },
  };
}

rmSync(dist, { recursive: true, force: true });
mkdirSync(join(dist, 'lazy'), { recursive: true });

const lazy = new Map();
await build({
  ...common,
  entryPoints: Object.fromEntries(hooks.map((h) => [h, join(root, 'src/hooks', `${h}.ts`)])),
  outdir: dist,
  plugins: [lazyImports('./lazy/', lazy)],
});

// Lazy bundles may import further lazy bundles: build until none is new.
const built = new Set();
while ([...lazy.keys()].some((n) => !built.has(n))) {
  const batch = [...lazy].filter(([n]) => !built.has(n));
  for (const [n] of batch) built.add(n);
  await build({ ...common, entryPoints: Object.fromEntries(batch), outdir: join(dist, 'lazy'), plugins: [lazyImports('./', lazy)] });
}

await build({
  ...common,
  entryPoints: { cli: join(root, 'src/cli/main.ts') },
  outdir: dist,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
});
