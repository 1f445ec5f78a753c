// Entries moved to the archive take the `---` separator next to them, so the
// file they leave has no stray rule (issue 12: five were left behind).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { moveOutEntries } from '../../src/core/entry/document-edits.ts';
import { parseEchoDocument, serializeEchoDocument } from '../../src/core/entry/echo-document.ts';

const legacy = (title: string) =>
  `## Inscribed — ${title} (2026-03-01)\n\n**Source**: \`rune:devise\`\n**Confidence**: LOW\n\n1. A lesson about ${title}.\n\n`;
const file = `# Planner Echoes\n\n${legacy('One')}---\n\n${legacy('Two')}---\n\n${legacy('Three')}`;

function moveOut(ids: string[]): { rest: string; moved: string[] } {
  const { doc, moved } = moveOutEntries(parseEchoDocument(file), ids);
  return { rest: serializeEchoDocument(doc), moved: moved.map((m) => m.text) };
}

test('an entry in the middle leaves with the separator after it', () => {
  const { rest, moved } = moveOut(['two']);
  assert.equal(rest, `# Planner Echoes\n\n${legacy('One')}---\n\n${legacy('Three')}`);
  assert.deepEqual(moved, [`${legacy('Two')}---\n\n`]);
});

test('the last entry leaves with the separator before it, so the file does not end with a rule', () => {
  const { rest, moved } = moveOut(['three']);
  assert.equal(rest, `# Planner Echoes\n\n${legacy('One')}---\n\n${legacy('Two')}`);
  assert.deepEqual(moved, [`${legacy('Three')}---\n\n`]);
});

test('moving every entry leaves only the title, and every entry keeps its bytes (Confidence: LOW included)', () => {
  const { rest, moved } = moveOut(['one', 'two', 'three']);
  assert.equal(rest, '# Planner Echoes\n\n');
  assert.equal(moved.join('').length + rest.length, file.length);
  for (const t of ['One', 'Two', 'Three']) assert.ok(moved.some((m) => m.startsWith(legacy(t))));
});

test('text that is not only a separator stays where it is', () => {
  const entry = (t: string) => `### [2026-03-01] Pattern: ${t}\n- **layer**: inscribed\n- **confidence**: 0.5\n- ${t}.\n\n`;
  const text = `${entry('One')}---\nA note the user wrote.\n\n${entry('Two')}`;
  const { doc, moved } = moveOutEntries(parseEchoDocument(text), ['one']);
  assert.equal(serializeEchoDocument(doc), `---\nA note the user wrote.\n\n${entry('Two')}`);
  assert.deepEqual(
    moved.map((m) => m.text),
    [entry('One')],
  );
});
