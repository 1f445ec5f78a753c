// Files a prompt names (SPEC §8 UserPromptSubmit): a file earlier sessions worked on, named by its name
// in any spelling, is given by its path; a name many files share stands for the one whose folder is named;
// short names, common words and numbers never match; what the session holds is not given again.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { filesThePromptNames, MAX_FILES, nameKey, promptNames } from '../../src/core/recall/file-recall.ts';
import { renderRecall } from '../../src/core/recall/recall-render.ts';
import { emptyWorkedFiles, updateWorkedFiles, type WorkedFiles } from '../../src/core/recall/worked-files.ts';

const none = () => false;

function ledgerOf(...sessions: string[][]): WorkedFiles {
  let ledger = emptyWorkedFiles();
  sessions.forEach((files, i) => {
    ledger = updateWorkedFiles(ledger, files, `s${i}`);
  });
  return ledger;
}

test('a name is one key in any spelling: kebab, snake, camel case and words', () => {
  assert.equal(nameKey('landing-page'), 'landingpage');
  assert.equal(nameKey('LandingPage'), 'landingpage');
  assert.equal(nameKey('landing_page'), 'landingpage');
  const names = promptNames('Make the Landing Page load faster');
  assert.ok(names.has('landingpage'));
  assert.ok(names.has('landing'));
  assert.ok(!names.has('the'), 'a common word alone is no name');
});

test('a file named by its name, in words or as written, is given by its path; one no prompt word names is not', () => {
  const ledger = ledgerOf(
    ['src/widgets/landing-page/ui/landing-page.tsx', 'services/twin_service.py', 'src/lib/ai/providers.ts'],
    ['README.md'],
  );
  assert.deepEqual(filesThePromptNames('the landing page is too slow on mobile', ledger, none), [
    'src/widgets/landing-page/ui/landing-page.tsx',
  ]);
  assert.deepEqual(filesThePromptNames('add a retry to the twin service', ledger, none), ['services/twin_service.py']);
  assert.deepEqual(filesThePromptNames('what does providers.ts export?', ledger, none), ['src/lib/ai/providers.ts']);
  assert.deepEqual(filesThePromptNames('Twin_Service: log the call', ledger, none), ['services/twin_service.py']);
  assert.deepEqual(filesThePromptNames('rename the service layer', ledger, none), [], 'one word of a longer name is not the name');
  assert.deepEqual(filesThePromptNames('привет, как дела?', ledger, none), []);
  assert.deepEqual(filesThePromptNames('see services/twin_service.py', ledger, none), [], 'the prompt spells the path out');
  assert.deepEqual(filesThePromptNames('see /home/me/app/services/twin_service.py', ledger, none), []);
});

test('a name many files share is matched by its folder; a folder many of them share matches none', () => {
  const ledger = ledgerOf([
    'src/app/api/chat/route.ts',
    'src/app/api/users/route.ts',
    'src/app/api/billing/route.ts',
    '.claude/skills/bug-analysis/SKILL.md',
    '.claude/skills/code-review/SKILL.md',
    '.claude/skills/deps-sync/SKILL.md',
    'packages/a/src/index.ts',
    'packages/b/src/index.ts',
    'packages/c/src/index.ts',
  ]);
  assert.deepEqual(filesThePromptNames('the chat route returns 500', ledger, none), ['src/app/api/chat/route.ts']);
  assert.deepEqual(filesThePromptNames('run the bug-analysis skill on this crash', ledger, none), ['.claude/skills/bug-analysis/SKILL.md']);
  assert.deepEqual(filesThePromptNames('improve this skill', ledger, none), [], '`skill` stands for none of three');
  assert.deepEqual(filesThePromptNames('the route for users', ledger, none), ['src/app/api/users/route.ts']);
  assert.deepEqual(filesThePromptNames('export it from the src index', ledger, none), [], 'a folder all of them share names none');
});

test('short names, numbers, the plugin’s memory and Claude Code’s own files are never named', () => {
  const ledger = ledgerOf(['src/api.ts', 'data/2024.csv', 'CLAUDE.md', '.claude/echoes/team/MEMORY.md', '/tmp/scratch-notes.md']);
  assert.deepEqual(filesThePromptNames('call the api for 2024 data', ledger, none), []);
  assert.deepEqual(filesThePromptNames('update claude md and the team memory', ledger, none), []);
  assert.deepEqual(filesThePromptNames('read the scratch notes', ledger, none), []);
});

test('what the session holds is not given again; at most MAX_FILES, the heaviest first', () => {
  const names = ['alpha-one.ts', 'alpha-two.ts', 'alpha-three.ts', 'alpha-four.ts', 'alpha-five.ts'].map((n) => `src/${n}`);
  const ledger = ledgerOf(names, ['src/alpha-five.ts'], ['src/alpha-five.ts']);
  const prompt = 'alpha one, alpha two, alpha three, alpha four and alpha five';
  const got = filesThePromptNames(prompt, ledger, none);
  assert.equal(got.length, MAX_FILES);
  assert.equal(got[0], 'src/alpha-five.ts', 'touched in three sessions: first');
  assert.deepEqual(
    filesThePromptNames(prompt, ledger, (p) => p !== 'src/alpha-two.ts'),
    ['src/alpha-two.ts'],
  );
});

test('the files line comes after the items, whole paths, and alone when no item clears the bar', () => {
  const alone = renderRecall([], 300, undefined, ['services/twin_service.py', 'src/lib/ai/providers.ts'])!;
  assert.equal(alone.shown, 0);
  assert.equal(alone.files, 2);
  assert.match(
    alone.text,
    /^<rune-echoes note="[^"]+">\n- Files earlier sessions here worked on that this prompt names: services\/twin_service\.py, src\/lib\/ai\/providers\.ts\n<\/rune-echoes>$/,
  );
  const item = {
    source: 'memory',
    title: 'Retry cap',
    role: 'team',
    id: 'retry-cap',
    path: '.claude/echoes/team/MEMORY.md',
    line: 3,
    text: 'Retries stop at five.',
  };
  const both = renderRecall([item], 300, undefined, ['services/twin_service.py'])!;
  assert.equal(both.shown, 1);
  const lines = both.text.split('\n');
  assert.match(lines[1]!, /Retry cap/);
  assert.match(lines[2]!, /twin_service\.py$/);
  assert.equal(renderRecall([], 300, undefined, []), null);
  assert.match(renderRecall([], 300, undefined, ['docs/<system>.md'])!.text, /: docs\/‹system›\.md\n/, 'a tag in a path is neutralised');
});
