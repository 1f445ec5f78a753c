// The CLI bundle's entry: the only place that touches process.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cli, cliFromSlash } from './cli.ts';
import type { CliIO } from './cli-context.ts';

const io: CliIO = {
  argv: process.argv.slice(2),
  cwd: process.cwd(),
  env: process.env,
  now: new Date(),
  readStdin: () => readFileSync(0, 'utf8'),
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  // This file is the CLI bundle (dist/cli.mjs) once built.
  self: { node: process.execPath, cli: fileURLToPath(import.meta.url) },
};

// `--slash-args <session>`: the /rune:echoes command's call (see store/session/slash-args.ts).
const run = process.argv[2] === '--slash-args' ? cliFromSlash(io, process.argv[3] ?? '') : cli(io);
run.then((code) => {
  process.exitCode = code;
});
