// The CLI bundle's entry: the only place that touches process.
import { readFileSync } from 'node:fs';
import { cli } from './cli.ts';

cli({
  argv: process.argv.slice(2),
  cwd: process.cwd(),
  env: process.env,
  now: new Date(),
  readStdin: () => readFileSync(0, 'utf8'),
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
}).then((code) => {
  process.exitCode = code;
});
