// Files a prompt names (SPEC §8 UserPromptSubmit): a file earlier sessions worked on, named by its name
// in any spelling, is given by its path; a name many files share stands for the one whose folder is named;
// short names, common words and numbers never match; what the session holds is not given again.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { defaultConfig } from '../../src/core/config/config-defaults.ts';
import { holdsPath, ledgerNames, mayName, nameKey, promptNames, severalWords } from '../../src/core/recall/file-names.ts';
import { filesThePromptNames, MAX_FILES } from '../../src/core/recall/file-recall.ts';
import { filesOfLine, filesOnlyRecall } from '../../src/core/recall/files-line.ts';
import { renderRecall } from '../../src/core/recall/recall-render.ts';
import { emptyWorkedFiles, updateWorkedFiles, type WorkedFiles } from '../../src/core/recall/worked-files.ts';
import { echoPaths, workedNamesFile } from '../../src/store/fs/echo-paths.ts';
import { noteWorkedFiles } from '../../src/store/recall/worked-files-ledger.ts';

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
  assert.ok(names.plain.has('landingpage'));
  assert.ok(names.plain.has('landing'));
  assert.ok(!names.plain.has('the'), 'a common word alone is no name');
  const dotted = promptNames('see server.go, or the server go down').dotted;
  assert.ok(dotted.has('servergo'), 'written with a dot');
  assert.ok(![...dotted].some((k) => k.endsWith('servergo') && k !== 'servergo' && k !== 'seeservergo'), [...dotted].join(' '));
  assert.ok(!promptNames('the server go down').dotted.has('servergo'), 'words, not a file name');
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
  assert.deepEqual(
    filesThePromptNames('修复twin_service的事务问题', ledger, none),
    ['services/twin_service.py'],
    'a name typed among Han characters',
  );
  assert.deepEqual(filesThePromptNames('看一下providers.ts文件', ledger, none), ['src/lib/ai/providers.ts']);
  assert.deepEqual(filesThePromptNames('看一下providers文件', ledger, none), [], 'one word alone is a word, not a file');
  assert.deepEqual(filesThePromptNames('see services/twin_service.py', ledger, none), [], 'the prompt spells the path out');
  assert.deepEqual(filesThePromptNames('see /home/me/app/services/twin_service.py', ledger, none), []);
});

test('a name of one word counts only written with its extension; a name written so is that file, not its namesake', () => {
  const ledger = ledgerOf([
    'C:/Users/me/AppData/Roaming/Code/User/settings.json',
    'docs/DESIGN.md',
    'site/products.html',
    'scripts/launch_chrome.js',
    'tools/_launch_chrome.bat',
  ]);
  assert.deepEqual(filesThePromptNames('update the settings for the user', ledger, none), []);
  assert.deepEqual(filesThePromptNames('the design of the products page', ledger, none), []);
  assert.deepEqual(filesThePromptNames('see DESIGN.md first', ledger, none), ['docs/DESIGN.md']);
  assert.deepEqual(filesThePromptNames('run launch_chrome.js again', ledger, none), ['scripts/launch_chrome.js']);
  assert.deepEqual(filesThePromptNames('launch chrome with the profile', ledger, none).sort(), [
    'scripts/launch_chrome.js',
    'tools/_launch_chrome.bat',
  ]);
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
  assert.deepEqual(filesThePromptNames('the users route', ledger, none), ['src/app/api/users/route.ts']);
  assert.deepEqual(filesThePromptNames('see users/route.ts', ledger, none), ['src/app/api/users/route.ts']);
  assert.deepEqual(filesThePromptNames('the route for users', ledger, none), [], 'the folder, then the name');
  assert.deepEqual(filesThePromptNames('add the users to the billing report', ledger, none), [], 'a folder’s name alone is not its file');
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
    /^<rune-echoes note="[^"]+">\n- Files earlier sessions here worked on that this prompt names: `services\/twin_service\.py`, `src\/lib\/ai\/providers\.ts`\n<\/rune-echoes>$/,
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
  assert.match(lines[2]!, /`services\/twin_service\.py`$/);
  assert.equal(renderRecall([], 300, undefined, []), null);
  assert.match(renderRecall([], 300, undefined, ['docs/<system>.md'])!.text, /: `docs\/‹system›\.md`\n/, 'a tag in a path is neutralised');
});

test('names are read within a sentence, after the slash command a prompt opens with', () => {
  const ledger = ledgerOf(['src/user-profile.tsx', '.claude/commands/review-pr.md', 'docs/release-notes.md']);
  assert.deepEqual(filesThePromptNames('Check the user. Profile photos are blurry', ledger, none), [], 'not across a full stop');
  assert.deepEqual(filesThePromptNames('the user\nprofile', ledger, none), [], 'nor a line break');
  assert.deepEqual(filesThePromptNames('fix the user profile card', ledger, none), ['src/user-profile.tsx']);
  assert.deepEqual(filesThePromptNames('/review-pr 123', ledger, none), [], 'Claude Code expands the command itself');
  assert.deepEqual(filesThePromptNames('/loop update release-notes.md', ledger, none), ['docs/release-notes.md']);
  assert.ok(severalWords('PLXPPollingManager') && severalWords('v2-notes') && severalWords('notes2') && !severalWords('settings'));
});

test('a path is held or spelled out only whole, never as a piece of a longer name', () => {
  assert.ok(holdsPath('edited: src/app-settings.js, src/b.ts', 'src/app-settings.js'));
  assert.ok(!holdsPath('edited: src/app-settings.json', 'src/app-settings.js'));
  assert.ok(!holdsPath('edited: lib/src/app.ts', 'b/src/app.ts'));
  assert.ok(holdsPath('read /home/me/proj/src/app.ts.', 'src/app.ts'), 'an absolute path ends in it');
  const ledger = ledgerOf(['src/app-settings.js']);
  assert.deepEqual(filesThePromptNames('load app-settings.js from src/app-settings.json', ledger, none), ['src/app-settings.js']);
});

test('the files line reads back whole paths, commas and spaces in them too', () => {
  const files = ['a, b/user_profile.py', 'docs/my notes.md'];
  const r = filesOnlyRecall(files, 300)!;
  assert.equal(r.files, 2);
  assert.deepEqual(filesOfLine(r.text.split('\n')[1]!), files);
  assert.equal(filesOnlyRecall([], 300), null);
  assert.ok(filesOnlyRecall(files, 300)!.tokens <= 300);
});

test('the files line takes a quarter of the room at most: the items that cleared the bar come first', () => {
  const item = (i: number) => ({
    source: 'memory',
    title: `Lesson ${i} about the importer`,
    role: 'team',
    id: `lesson-${i}`,
    path: '.claude/echoes/team/MEMORY.md',
    line: i,
    text: `The importer's step ${i} must run after the schema migration; running it first leaves orphaned rows behind.`,
  });
  const paths = [1, 2, 3, 4].map((i) => `packages/service-${i}/src/modules/importer/handlers/row-importer-step-${i}.ts`);
  const r = renderRecall([item(1), item(2), item(3)], 300, undefined, paths)!;
  assert.equal(r.shown, 3, 'every item that cleared the bar');
  assert.ok(r.files >= 1 && r.files < 4, `${r.files} files`);
  assert.ok(r.tokens <= 300);
});

test('most prompts stop before the ledger is parsed: none of their names is in its text', () => {
  const files = ledgerOf(['services/twin_service.py', 'src/Landing-Page.tsx', 'src/settings.ts']);
  const ledger = ledgerNames(Object.keys(files.files));
  assert.equal(ledger.includes('settings\t'), false, 'a one-word name is never a name the matcher takes');
  assert.equal(
    mayName(promptNames('see services/twin_service.py'), ledger, 'see services/twin_service.py'),
    false,
    'a path spelled out whole',
  );
  assert.equal(mayName(promptNames('add a dark mode toggle to the settings page'), ledger, ''), false);
  assert.equal(mayName(promptNames('the twin service drops events'), ledger, ''), true);
  assert.equal(mayName(promptNames('the landing page'), ledger, ''), true);
  assert.equal(mayName(promptNames('the weight of it'), ledger, ''), false, 'a common word never');
});

test('a whole name counts only written with its dot; a name may begin with a common word when joined; the opening slash command only', () => {
  const ledger = ledgerOf(['internal/server.go', 'requirements.in', 'src/about-page.tsx', 'src/with-auth.tsx', 'src/landing-page.tsx']);
  assert.deepEqual(filesThePromptNames('why does the server go down', ledger, none), []);
  assert.deepEqual(filesThePromptNames('list the requirements in the readme', ledger, none), []);
  assert.deepEqual(filesThePromptNames('see server.go', ledger, none), ['internal/server.go']);
  assert.deepEqual(filesThePromptNames('fix about-page.tsx', ledger, none), ['src/about-page.tsx']);
  assert.deepEqual(filesThePromptNames('the bug is in with_auth', ledger, none), ['src/with-auth.tsx']);
  assert.deepEqual(filesThePromptNames('/landing-page.tsx is wrong', ledger, none), ['src/landing-page.tsx'], 'a path, not a command');
});

test('the names file never misses a file the matcher would name (random ledgers and prompts)', () => {
  const words = ['twin', 'service', 'landing', 'page', 'route', 'chat', 'index', 'server', 'go', 'README', 'user', 'Profile', '报告', 'v2'];
  let seed = 7;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const pick = () => words[rand(words.length)]!;
  for (let round = 0; round < 300; round++) {
    const paths = Array.from({ length: 1 + rand(8) }, () => {
      const sep = ['-', '_', '', '.'][rand(4)]!;
      return `${pick()}/${pick()}${sep}${rand(2) ? pick() : ''}${['.ts', '.go', '', '.md'][rand(4)]}`;
    });
    const ledger = ledgerOf(paths);
    const prompt = Array.from({ length: 2 + rand(6) }, () => `${pick()}${[' ', '.', '-', '/', ', '][rand(5)]}`).join('');
    const got = filesThePromptNames(prompt, ledger, none);
    if (got.length > 0)
      assert.ok(mayName(promptNames(prompt), ledgerNames(Object.keys(ledger.files)), prompt), `${prompt} ${JSON.stringify(paths)}`);
  }
});

test('capture writes the names file beside the ledger: of the files that count, again when it is missing, never short of the ledger', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rune-names-'));
  try {
    const paths = echoPaths(dir, defaultConfig(), join(dir, 'home'));
    noteWorkedFiles(paths, 's1', { touched: ['services/twin_service.py', 'CLAUDE.md'], gone: [] });
    const names = () => readFileSync(workedNamesFile(paths), 'utf8');
    assert.equal(names(), ledgerNames(['services/twin_service.py']), 'a file Claude Code loads itself is no name');
    noteWorkedFiles(paths, 's2', { touched: ['src/landing-page.tsx'], gone: ['services/twin_service.py'] });
    assert.equal(names(), ledgerNames(['src/landing-page.tsx']), 'the exact names once the ledger is written');
    rmSync(workedNamesFile(paths));
    // A session that touched only what counts as no one's work leaves the ledger as it was.
    noteWorkedFiles(paths, 's3', { touched: ['CLAUDE.md'], gone: [] });
    assert.equal(names(), ledgerNames(['src/landing-page.tsx']), 'a ledger unchanged, its missing names written again');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
