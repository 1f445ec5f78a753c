// Issue 18, items 11, 17 and 20: secrets that still got through the filter in
// some shape (markdown around a key's name, a Twilio call broken over lines, a
// service-account key quoted another way), and prose the filter took for a
// credential. Each shape comes in several spellings, not only the reported one.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { plainText, titleFrom } from '../../src/core/adopt/source-reading.ts';
import { filterSecrets } from '../../src/core/security/secret-filter.ts';

/** Every 12-character piece of a secret. */
const pieces = (secret: string) => Array.from({ length: secret.length - 11 }, (_, i) => secret.slice(i, i + 12));
const leaked = (out: string, secret: string) => pieces(secret).some((p) => out.toLowerCase().includes(p.toLowerCase()));

const AWS = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYzzAMPLEKEY';

test('item 11: an AWS secret key whose name markdown emphasises or escapes is still found, and never reaches a title', () => {
  const shapes = [
    `[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLQ\naws_secret_access_key = ${AWS}\n`,
    `**aws_secret_access_key** = ${AWS}`,
    `**aws_secret_access_key** ${AWS}`,
    `- *aws_secret_access_key*: ${AWS}`,
    `- __aws_secret_access_key__ ${AWS}`,
    `- aws\\_secret\\_access\\_key = ${AWS}`,
    `- \`aws_secret_access_key\` ${AWS}`,
    `**aws_secret_access_key = ${AWS}**`,
    `AWS_SECRET_ACCESS_KEY=${AWS}`,
  ];
  for (const text of shapes) {
    assert.ok(!leaked(filterSecrets(text).text, AWS), `filter: ${text}`);
    // A title is made from the text: the filter runs first, so neither markup taken off nor a cut hides the key.
    assert.ok(!leaked(titleFrom(text), AWS), `title: ${titleFrom(text)}`);
    assert.ok(!leaked(plainText(text), AWS), `plain: ${plainText(text)}`);
  }
  // Another secret by name behind a markdown escape.
  const pw = 'Zq8WmT4vKx2NpL7r';
  assert.ok(!leaked(filterSecrets(`db\\_password: ${pw}`).text, pw));
});

const SID = 'AC0fa1b2c3d4e5f60718293a4b5c6d7e8f';
const TOKEN = '9f8e7d6c5b4a39281716a5b4c3d2e1f0';

test('item 17: a Twilio auth token beside its account SID, however the call is written', () => {
  for (const text of [
    `client = Client("${SID}", "${TOKEN}")`,
    `Client(\n    "${SID}",\n    "${TOKEN}",\n)`,
    `Client(account_sid="${SID}", auth_token="${TOKEN}")`,
    `new twilio.Twilio(\`${SID}\`, \`${TOKEN}\`)`,
    `Client(\\"${SID}\\", \\"${TOKEN}\\")`,
    `sid ${SID} token ${TOKEN}`,
    `${SID}|${TOKEN}`,
    `${SID}:${TOKEN}`,
    `Client("${SID.toUpperCase().replace(/^AC/, 'AC')}", "${TOKEN.toUpperCase()}")`,
  ]) {
    const out = filterSecrets(text).text;
    assert.ok(!leaked(out, TOKEN), out);
    assert.match(out, /\[REDACTED:twilio-auth-token\]/, out);
  }
});

const KEY_ID = '4f2a9c1e7b3d5f60718293a4b5c6d7e8f9012345';
const PEM_BODY = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7FAKE';

test('item 17: a Google service-account key, as JSON, escaped JSON, Python, YAML or env', () => {
  const key = {
    type: 'service_account',
    project_id: 'fake-project',
    private_key_id: KEY_ID,
    private_key: `-----BEGIN PRIVATE KEY-----\n${PEM_BODY}\nFAKEexample0000==\n-----END PRIVATE KEY-----\n`,
    client_email: 'bot@fake-project.iam.gserviceaccount.com',
  };
  const json = JSON.stringify(key);
  for (const text of [
    json,
    JSON.stringify(key, null, 2),
    JSON.stringify(json), // the key as a string inside JSON (an env value, a transcript)
    `GOOGLE_CREDENTIALS='${json}'`,
    json.replace(/"/g, "'"),
    `type: service_account\nproject_id: fake-project\nprivate_key_id: ${KEY_ID}\n`,
    `PRIVATE_KEY_ID=${KEY_ID}`,
  ]) {
    const out = filterSecrets(text).text;
    assert.ok(!leaked(out, KEY_ID), out);
    assert.ok(!leaked(out, PEM_BODY), out);
  }
});

test('item 20: prose that quotes a message naming a field keeps its words; a credential in the same place does not', () => {
  for (const text of [
    "The login page shows the message 'password: incorrect'",
    'The login page shows the message "Password: Incorrect" after three tries',
    'The form shows “password: required” under the field',
    'The API returns `token: expired` when the session ends',
    "The log says 'secret: missing' at startup",
  ]) {
    assert.equal(filterSecrets(text).text, text);
  }
  for (const text of [
    'password: incorrect',
    "config has 'password: letmein' in it",
    "log in with 'password: letmein'",
    'DB_PASSWORD=letmein',
    "The page shows 'password: hunter2x'",
  ]) {
    assert.notEqual(filterSecrets(text).text, text, text);
  }
});
