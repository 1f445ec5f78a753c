// The markdown (slash command, agents, skills, README) must not promise a
// subcommand the CLI does not have. Names a later issue adds are listed with
// that issue; the test for each is skipped with the reason, and fails once
// the CLI has the command, so the skip cannot outlive its reason.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { COMMANDS } from '../../src/cli/cli.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** Subcommands the markdown already describes and the issue that brings them to the CLI. */
const PROMISED_BY_LATER_ISSUES: Record<string, string> = {};

function markdownFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...markdownFiles(p));
    else if (name.endsWith('.md')) out.push(p);
  }
  return out;
}

/** Every subcommand a markdown text names. */
function namedSubcommands(text: string, file: string): string[] {
  const names = new Set<string>();
  for (const m of text.matchAll(/(?:rune-echoes|\/rune:echoes|dist\/cli\.mjs)[ \t]+([a-z][a-z-]*)/g)) names.add(m[1]!);
  // The slash command's argument hint: '[show|search|…] [args]'.
  const hint = /^argument-hint:\s*['"]?\[([a-z|-]+)\]/m.exec(text);
  if (hint) for (const n of hint[1]!.split('|')) names.add(n);
  // The slash command's per-subcommand guidance: `- **show**: …`.
  if (file.includes('/commands/')) for (const m of text.matchAll(/^- \*\*([a-z][a-z-]*)\*\*[:,]/gm)) names.add(m[1]!);
  // Command reference tables: a first cell like `record` or `promote <echo-ref> --category C`.
  // (A cell such as `record needs --role` is an error message, not a command.)
  for (const m of text.matchAll(/^\| `([a-z][a-z-]*)(?: (?:<|\[|--)[^`|]*)?` \|/gm)) names.add(m[1]!);
  return [...names];
}

const sources = [join(REPO, 'README.md'), ...['commands', 'agents', 'skills'].flatMap((d) => markdownFiles(join(REPO, d)))];
const named = new Map<string, string[]>();
for (const file of sources) {
  for (const name of namedSubcommands(readFileSync(file, 'utf8'), file))
    named.set(name, [...(named.get(name) ?? []), relative(REPO, file)]);
}
const cliNames = new Set(COMMANDS.map((c) => c.name));

test('the markdown names subcommands at all (the scan works)', () => {
  for (const expected of ['record', 'show', 'search', 'status']) assert.ok(named.has(expected), expected);
});

for (const [name, files] of [...named].sort(([a], [b]) => (a < b ? -1 : 1))) {
  const later = PROMISED_BY_LATER_ISSUES[name];
  if (later && !cliNames.has(name)) {
    test(`the CLI has "${name}" (named in ${files.join(', ')})`, { skip: `promised until ${later} lands` }, () => {});
    continue;
  }
  test(`the CLI has "${name}" (named in ${files.join(', ')})`, () => {
    assert.ok(cliNames.has(name), `rune-echoes has no "${name}" subcommand`);
    assert.ok(!later, `"${name}" is in the CLI now: remove it from PROMISED_BY_LATER_ISSUES`);
  });
}
