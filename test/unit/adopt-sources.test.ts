// Where Claude Code keeps a project's files under ~/.claude/projects/: the
// folder name it derives from the project's path, long paths included.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { claudeProjectSlug } from '../../src/store/adopt/memory-sources.ts';

test('a project folder name is its path with every other character a dash; past 200 characters it is cut and given the hash Claude Code adds', () => {
  assert.equal(claudeProjectSlug('/home/dev/my proj_v2'), '-home-dev-my-proj-v2');
  // Seen on Claude Code 2.1.330: the transcript folder of this 271-character path.
  const long = `/tmp/work/long/${Array.from({ length: 7 }, (_, i) => `very-long-directory-name-segment-0${i + 1}`).join('/')}/proj`;
  const slug = claudeProjectSlug(long);
  assert.equal(slug.length, 207);
  assert.ok(slug.endsWith('-very--saotdk'), slug);
  // Two long paths that share the first 200 characters stay apart.
  assert.notEqual(claudeProjectSlug(`${long}-a`), claudeProjectSlug(`${long}-b`));
});
