import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { DEFAULT_IGNORE_GLOBS, evidencePaths, isIgnoredPath, normalizeCitedPath } from '../../src/core/security/path-ignore.ts';

test('the default globs are the ones the spec lists', () => {
  assert.deepEqual(DEFAULT_IGNORE_GLOBS, ['**/.env*', '**/*.pem', '**/id_rsa*', '**/secrets/**']);
});

test('default globs ignore env files, keys and secrets folders, relative or absolute', () => {
  for (const p of [
    '.env',
    '.env.local',
    './.env',
    'config/.env.production',
    '/home/me/app/.env',
    'src/.env:3',
    'certs/server.pem',
    '/etc/ssl/private/site.pem',
    '~/.ssh/id_rsa',
    'id_rsa.pub',
    '/root/.ssh/id_rsa',
    'secrets/db.yml',
    'deploy/secrets/db.yml',
    '/srv/app/secrets/prod/api.json',
    'C:\\app\\secrets\\x.json',
    '`deploy/secrets/db.yml:4-9`',
    '.ENV',
    'keys/Server.PEM',
    'secrets',
  ]) {
    assert.equal(isIgnoredPath(p, DEFAULT_IGNORE_GLOBS), true, p);
  }
});

test('default globs leave ordinary source files alone', () => {
  for (const p of [
    'src/env.ts',
    'src/environment.ts',
    'docs/secrets.md',
    'src/core/secret-filter.ts',
    'pem.ts',
    'test/fixtures/secrets.json',
    '/home/me/app/src/auth.py',
    'README.md',
    'env/.gitkeep.md',
  ]) {
    assert.equal(isIgnoredPath(p, DEFAULT_IGNORE_GLOBS), false, p);
  }
});

test('the globs default to the spec list when none are given', () => {
  assert.equal(isIgnoredPath('.env'), true);
  assert.equal(isIgnoredPath('src/a.ts'), false);
});

test('project-relative globs also match absolute paths through their tail', () => {
  const globs = ['config/*.yml'];
  assert.equal(isIgnoredPath('config/prod.yml', globs), true);
  assert.equal(isIgnoredPath('/home/me/project/config/prod.yml', globs), true);
  assert.equal(isIgnoredPath('config/nested/prod.yml', globs), false);
});

test('an empty glob list ignores nothing', () => {
  assert.equal(isIgnoredPath('.env', []), false);
});

test('any file under a secrets folder is ignored, whatever the prefix', () => {
  const segment = fc.stringMatching(/^[a-z0-9_.-]{1,8}$/).filter((s) => s !== '.' && s !== '..');
  fc.assert(
    fc.property(fc.array(segment, { maxLength: 4 }), fc.array(segment, { minLength: 1, maxLength: 3 }), fc.boolean(), (pre, post, abs) => {
      const path = `${abs ? '/' : ''}${[...pre, 'secrets', ...post].join('/')}`;
      return isIgnoredPath(path, DEFAULT_IGNORE_GLOBS);
    }),
  );
});

test('cited paths lose their line ranges and wrapping', () => {
  assert.equal(normalizeCitedPath('`src/auth.py:1-5`'), 'src/auth.py');
  assert.equal(normalizeCitedPath('./lib/x.ts#L3-L9'), 'lib/x.ts');
  assert.equal(normalizeCitedPath('src\\win\\path.ts:4:2'), 'src/win/path.ts');
  assert.equal(normalizeCitedPath('file:///home/me/a.ts'), '/home/me/a.ts');
});

test('evidence paths are found in the spec example', () => {
  assert.deepEqual(evidencePaths('`src/auth.py:1-5` — 3 unused imports found'), ['src/auth.py']);
});

test('evidence paths are found in mixed evidence, in order, once each', () => {
  const evidence =
    'src/api/client.ts:40-52, `lib/retry.ts#L10` and (src/api/client.ts:60); also .env.local, ~/.ssh/id_rsa, id_ed25519 and package.json.';
  assert.deepEqual(evidencePaths(evidence), [
    'src/api/client.ts',
    'lib/retry.ts',
    '.env.local',
    '~/.ssh/id_rsa',
    'id_ed25519',
    'package.json',
  ]);
});

test('URLs, e-mails, versions, dates and prose abbreviations are not paths', () => {
  assert.deepEqual(
    evidencePaths('see https://example.com/a/b.html, mail ops@corp.io, v1.2.3, 2026/02/11, 3/5 tests, e.g. retries i.e. jitter'),
    [],
  );
});

test('an absolute path in evidence is found and can be ignored', () => {
  const [p] = evidencePaths('read /srv/app/secrets/db.yml:2 at startup');
  assert.equal(p, '/srv/app/secrets/db.yml');
  assert.equal(isIgnoredPath(p!, DEFAULT_IGNORE_GLOBS), true);
});
