// The memory report in a real browser: Debian's headless Chromium loads the
// page the built CLI wrote, from a file:// URL, for an empty store, a typical
// one, a large one (5 roles at their limits, 3,000 archive logs, 10,000 usage
// events) and a hostile one (markup and script in every text it shows). No
// console error, the key figures in the DOM, a screenshot; nothing runs.
//
// CI installs chromium (.ci/run), so there the test always runs; elsewhere it
// is skipped, with the reason, only when no chromium is installed.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { escapeHtml } from '../../src/core/report/report-html-text.ts';
import { REPORT_CSP } from '../../src/core/report/report-page.ts';
import { chromiumVersion, findChromium, loadPage, type PageReport } from '../helpers/headless-chromium.ts';
import {
  emptyReportStore,
  HOSTILE,
  hostileReportStore,
  largeReportStore,
  PWNED_ATTR,
  PWNED_TITLE,
  REPORT_ROLES,
  type StoreFacts,
  typicalReportStore,
} from '../helpers/report-stores.ts';
import { runCliSync } from '../helpers/run-bundle.ts';

const CHROMIUM = findChromium();
const IN_CI = process.env.CI === 'true' || process.env.CI === '1';
const skip = CHROMIUM || IN_CI ? false : 'chromium is not installed here (apt-get install -y chromium; .ci/run installs it in CI)';
const TITLE = 'Rune Echoes memory report';
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function bin(): string {
  assert.ok(CHROMIUM, 'chromium must be installed where CI runs: .ci/run installs it with apt-get when it is missing');
  return CHROMIUM;
}

/** A store made by `make`, its report written by the built CLI; returns the page's path and the store's facts. */
function reportOf(t: { after(fn: () => void): void }, make: (dir: string, now: Date) => StoreFacts, name = 'project') {
  const root = mkdtempSync(join(tmpdir(), 'rune-report-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  const facts = make(dir, new Date());
  const out = join(root, 'report.html');
  const r = runCliSync(['report', '--out', out, '--project', dir], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), out);
  return { root, dir, out, facts };
}

function assertQuiet(page: PageReport): void {
  assert.deepEqual(page.errors, [], 'no console error, exception or refused load');
  assert.equal(page.title, TITLE);
  assert.deepEqual(page.active, { scripts: 0, handlers: 0, jsLinks: 0, frames: 0 });
  const shot = page.screenshot ?? Buffer.alloc(0);
  assert.ok(shot.subarray(0, 8).equals(PNG) && shot.length > 1000, 'a screenshot was taken');
}

test('chromium is there (the browser tests below use it)', { skip }, () => {
  console.log(`# browser: ${chromiumVersion(bin())}`);
});

test('an empty store: the page loads without errors and says there is nothing yet', { skip }, async (t) => {
  const { out } = reportOf(t, emptyReportStore);
  const page = await loadPage(bin(), pathToFileURL(out).href, { screenshot: true });
  assertQuiet(page);
  assert.equal(page.figures.roles, '0');
  assert.equal(page.figures.entries, '0');
  assert.equal(page.figures['archive-logs'], '0');
  assert.match(page.dom, /No roles yet/);
  console.log(`# empty: ${statSync(out).size} bytes, screenshot ${page.screenshot!.length} bytes`);
});

test('a typical store: every section with its key figures, and a screenshot', { skip }, async (t) => {
  const { out, facts } = reportOf(t, typicalReportStore);
  const page = await loadPage(bin(), pathToFileURL(out).href, { screenshot: true });
  assertQuiet(page);
  assert.equal(page.figures.roles, String(facts.roles));
  assert.equal(page.figures.entries, String(facts.entries));
  assert.equal(page.figures['archive-logs'], String(facts.archiveLogs));
  assert.equal(page.figures['usage-events'], String(facts.usageEvents));
  assert.equal(page.figures.captured, String(facts.captured));
  assert.equal(page.figures['window-sessions'], '20');
  assert.ok(Number(page.figures['idle-entries']) >= 0);
  for (const heading of [
    'Store health',
    'Entries per role',
    'What reached the model, and what was used',
    'Captured lessons over time',
    'Hand-off history',
  ])
    assert.ok(page.dom.includes(heading), heading);
  for (const role of ['planner', 'reviewer', 'workers', 'team']) assert.ok(page.dom.includes(`>${role}<`), role);
  for (const origin of ['captured (fix)', 'recorded', 'imported', 'remembered', 'teammate: alex@example.org'])
    assert.ok(page.dom.includes(origin), origin);
  // Charts are drawn: one per section that has data.
  assert.ok((page.dom.match(/<svg class="chart"/g) ?? []).length >= 4);
  const shot = join(tmpdir(), `rune-report-typical-${process.pid}.png`);
  writeFileSync(shot, page.screenshot!);
  t.after(() => rmSync(shot, { force: true }));
  console.log(`# typical: ${statSync(out).size} bytes, screenshot ${shot} (${page.screenshot!.length} bytes)`);
});

test('a large store: 5 roles at their limits, 3,000 archive logs, 10,000 usage events — under 2 MB, every figure there', {
  skip,
}, async (t) => {
  const { out, facts } = reportOf(t, largeReportStore);
  const size = statSync(out).size;
  assert.ok(size < 2 * 1024 * 1024, `${size} bytes`);
  const page = await loadPage(bin(), pathToFileURL(out).href, { screenshot: { height: 4000 }, timeoutMs: 120_000 });
  assertQuiet(page);
  assert.equal(page.figures.roles, String(REPORT_ROLES.length));
  assert.equal(page.figures.entries, String(facts.entries));
  assert.equal(page.figures['archive-logs'], '3000');
  assert.equal(page.figures['usage-events'], '10000');
  assert.equal(page.figures['over-limit'], '0');
  for (const role of REPORT_ROLES) assert.match(page.dom, /\d+\/150 lines/, role);
  assert.match(page.dom, /more logs not shown/);
  console.log(`# large: ${size} bytes, ${facts.entries} entries, screenshot ${page.screenshot!.length} bytes`);
});

function assertNothingRan(page: PageReport): void {
  assert.equal(page.title, TITLE, 'no payload changed the title');
  assert.equal(page.bodyAttributes[PWNED_ATTR], undefined, 'no payload marked the body');
  assert.deepEqual(page.active, { scripts: 0, handlers: 0, jsLinks: 0, frames: 0 });
  assert.deepEqual(page.errors, []);
}

test('a hostile store: <script>, onerror= and javascript: in entries, titles, sources, topics, session ids and the log run nothing', {
  skip,
}, async (t) => {
  // The project folder's own name is a payload too.
  const { out, facts } = reportOf(t, hostileReportStore, HOSTILE[1]!.replace(/\//g, ''));
  const text = readFileSync(out, 'utf8');
  const page = await loadPage(bin(), pathToFileURL(out).href, { screenshot: true });
  assertNothingRan(page);
  assert.equal(page.figures.entries, String(facts.entries));
  // Every payload is on the page as text.
  assert.ok(page.dom.includes('&lt;script&gt;'));
  assert.ok(page.dom.includes('&lt;img src=x onerror='));
  assert.ok(page.dom.includes('&lt;a href="javascript:'));

  // The policy is the second wall; the first is the escaping. Without the policy, still nothing runs.
  const meta = `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(REPORT_CSP)}">`;
  assert.ok(text.includes(meta));
  const bare = join(tmpdir(), `rune-report-hostile-nocsp-${process.pid}.html`);
  writeFileSync(bare, text.replace(meta, ''));
  t.after(() => rmSync(bare, { force: true }));
  const unguarded = await loadPage(bin(), pathToFileURL(bare).href, { screenshot: true });
  assertNothingRan(unguarded);
});

test('the check itself works: the same payloads unescaped, without the policy, do run', { skip }, async (t) => {
  const bare = join(tmpdir(), `rune-report-control-${process.pid}.html`);
  writeFileSync(
    bare,
    `<!DOCTYPE html><html><head><title>${TITLE}</title></head><body><p>${HOSTILE[0]}</p><p>${HOSTILE[1]}</p></body></html>`,
  );
  t.after(() => rmSync(bare, { force: true }));
  const page = await loadPage(bin(), pathToFileURL(bare).href);
  assert.equal(page.title, PWNED_TITLE);
  assert.equal(page.bodyAttributes[PWNED_ATTR], '1');
});
