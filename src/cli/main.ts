// The CLI bundle's entry: the only place that touches process.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cli } from './cli.ts';
import { splitArgs } from './split-args.ts';

// `--argv-stdin`: the arguments arrive as typed text on stdin (see split-args.ts).
const fromStdin = process.argv[2] === '--argv-stdin';

cli({
  argv: fromStdin ? splitArgs(readFileSync(0, 'utf8')) : process.argv.slice(2),
  cwd: process.cwd(),
  env: process.env,
  now: new Date(),
  readStdin: () => (fromStdin ? '' : readFileSync(0, 'utf8')),
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  // This file is the CLI bundle (dist/cli.mjs) once built.
  self: { node: process.execPath, cli: fileURLToPath(import.meta.url) },
}).then((code) => {
  process.exitCode = code;
});
