// Every field the table declares, set through every way an entry enters the
// store (record with flags, record --stdin, remember, a findings file written
// directly), consolidated: no part of a planted secret is anywhere on disk.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ENTRY_FIELDS } from '../../src/core/entry/entry-fields.ts';
import { cliOk } from '../helpers/cli-run.ts';
import { makeTempProject } from '../helpers/temp-project.ts';

const SECRETS = [
  'ghp_Zq8WmT4vKx2NpL7rYb3HcF9dJs6GaE1uQo5V',
  'AKIAZ7Q4MXR2WJ3K5N6P',
  'sk-ant-api03-Hx7Kq2Lm9Pn4Rt6Vw8Yz1Bc3Df5Gh7Jk9Lm2Np4',
  'xoxb-2048-4096-Zq8WmT4vKx2NpL7rYb3Hc',
];

/** Every 12-character piece of every planted secret. */
const fragments = SECRETS.flatMap((s) => Array.from({ length: s.length - 11 }, (_, i) => s.slice(i, i + 12)));

function leaks(dir: string, files: string[]): string[] {
  const found: string[] = [];
  for (const f of files) {
    const text = readFileSync(join(dir, f), 'utf8');
    for (const frag of fragments) if (text.includes(frag)) found.push(`${f}: ${frag}`);
  }
  return found;
}

test('a secret in any declared field, by any way in, never reaches disk in any part', async (t) => {
  const tp = makeTempProject(t);
  let n = 0;
  const secret = () => SECRETS[n++ % SECRETS.length]!;
  // record: every field that has a flag, each carrying a secret.
  const flags = ENTRY_FIELDS.filter((f) => f.cli && (f.type === 'text' || f.type === 'tags'));
  const args = flags.flatMap((f) => [`--${f.cli!.flag}`, `${f.key} ${secret()}`]);
  await cliOk(tp, ['record', '--role', 'reviewer', '--agent', 'scout', ...args, `learning ${secret()}`]);
  // record --stdin: every bullet of the table, plus an unknown one, each with a secret.
  const bullets = ENTRY_FIELDS.filter((f) => f.place === 'bullet' && f.type !== 'layer' && f.type !== 'confidence').map(
    (f) => `- **${f.key}**: ${f.key} ${secret()}`,
  );
  const stdin = [
    `### [2026-05-01] Pattern: Stdin title ${secret()}`,
    '- **layer**: inscribed',
    '- **confidence**: 0.8',
    ...bullets,
    `- **note**: ${secret()}`,
    `- body ${secret()}`,
  ].join('\n');
  await cliOk(tp, ['record', '--role', 'reviewer', '--agent', 'piped', '--stdin'], { stdin });
  // A findings file an agent wrote directly, with a secret in its title.
  tp.write(
    '.claude/echoes/planner/direct-findings.md',
    `### [2026-05-01] Pattern: Direct ${secret()}\n- **layer**: inscribed\n- **confidence**: 0.7\n- **evidence**: notes ${secret()}\n- body\n`,
  );
  await cliOk(tp, ['remember', '--role', 'team', '--pattern', `Remembered ${secret()}`, `the token is ${secret()} here`]);
  await cliOk(tp, ['consolidate']);
  const files = tp.files('.claude').map((f) => join('.claude', f));
  assert.ok(files.some((f) => f.endsWith('reviewer/MEMORY.md')) && files.some((f) => f.endsWith('planner/MEMORY.md')));
  assert.deepEqual(leaks(tp.dir, files), []);
  // And nothing the commands print shows one either.
  const shown = await cliOk(tp, ['show', '--json']);
  assert.ok(!fragments.some((f) => shown.includes(f)));
});
