// Bundles every hook and the CLI into self-contained ESM files under dist/.
// The bundles are committed: a marketplace install has no node_modules.
import { build } from 'esbuild';
import { rmSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const hookDir = join(root, 'src/hooks');
// One bundle per hook event, so each loads only its own code path.
const hooks = ['session-start', 'pre-compact', 'stop', 'subagent-stop', 'session-end'];

const entryPoints = {
  cli: join(root, 'src/cli/main.ts'),
  ...Object.fromEntries(hooks.map((h) => [h, join(hookDir, `${h}.ts`)])),
};

rmSync(join(root, 'dist'), { recursive: true, force: true });
mkdirSync(join(root, 'dist'));
await build({
  entryPoints,
  outdir: join(root, 'dist'),
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minify: true,
  legalComments: 'none',
  // Deterministic output: CI rebuilds and diffs dist/ against the commit.
  sourcemap: false,
  // Shared code goes into chunks and dynamic imports stay lazy, so a hook
  // loads only what its path needs (yaml, say, only when a config exists).
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  // CommonJS dependencies (picomatch) call require() for node builtins.
  banner: { js: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);" },
  logLevel: 'warning',
});
