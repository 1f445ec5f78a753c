// Loads a page in Debian's headless Chromium and reports what a person's
// browser would have met: console errors, uncaught exceptions, refused loads,
// the title and body as the page left them, the key figures in the DOM, and a
// screenshot. Chromium is driven over the DevTools protocol on a pipe
// (--remote-debugging-pipe: file descriptors 3 and 4), so no port is opened.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { Readable, Writable } from 'node:stream';

/** The chromium binary on PATH, or null. */
export function findChromium(): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    for (const name of ['chromium', 'chromium-browser']) {
      const p = join(dir, name);
      if (dir && existsSync(p)) return p;
    }
  }
  return null;
}

/** Chromium's version line, to say in the test output what ran. */
export function chromiumVersion(bin: string): string {
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 20_000 });
  return (r.stdout ?? '').trim().split('\n').at(-1) ?? '';
}

export interface PageReport {
  title: string;
  /** Console errors, uncaught exceptions and browser log errors (refused loads, CSP violations), one line each. */
  errors: string[];
  /** Attributes of <body> as the page left it. */
  bodyAttributes: Record<string, string>;
  /** `data-figure` name → text. */
  figures: Record<string, string>;
  /** Elements that could run something: script elements, on* attributes, javascript: links, iframes, objects. */
  active: { scripts: number; handlers: number; jsLinks: number; frames: number };
  /** The DOM as serialised after load. */
  dom: string;
  /** Present when asked for: the page (or the part asked for) as PNG. */
  screenshot?: Buffer;
}

interface Message {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { message: string };
  sessionId?: string;
}

/** What the page reports about itself, evaluated through the protocol (which the page's CSP does not govern). */
const INSPECT = `(() => {
  const all = [...document.querySelectorAll('*')];
  return JSON.stringify({
    title: document.title,
    bodyAttributes: Object.fromEntries([...document.body.attributes].map((a) => [a.name, a.value])),
    figures: Object.fromEntries([...document.querySelectorAll('[data-figure]')].map((e) => [e.getAttribute('data-figure'), e.textContent])),
    active: {
      scripts: document.scripts.length,
      handlers: all.filter((e) => [...e.attributes].some((a) => /^on/i.test(a.name))).length,
      jsLinks: all.filter((e) => [...e.attributes].some((a) => /^\\s*javascript:/i.test(a.value))).length,
      frames: document.querySelectorAll('iframe,frame,object,embed').length,
    },
    dom: document.documentElement.outerHTML,
  });
})()`;

/**
 * Opens `url` in a fresh headless Chromium, waits for the load event and a
 * moment after it, and reports. Bounded by `timeoutMs`: past it the browser
 * is killed and the promise rejects.
 */
export async function loadPage(
  bin: string,
  url: string,
  opts: { screenshot?: boolean | { y?: number; height?: number; scale?: number }; width?: number; timeoutMs?: number } = {},
): Promise<PageReport> {
  const profile = mkdtempSync(join(tmpdir(), 'rune-chromium-'));
  const child = spawn(
    bin,
    [
      '--headless=new',
      '--disable-gpu',
      '--no-sandbox',
      // A container's /dev/shm is often too small for a long page's screenshot.
      '--disable-dev-shm-usage',
      '--no-first-run',
      '--no-default-browser-check',
      '--disable-extensions',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--hide-scrollbars',
      '--mute-audio',
      `--user-data-dir=${profile}`,
      '--remote-debugging-pipe',
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    if (stderr.length < 20_000) stderr += d.toString();
  });
  const toBrowser = child.stdio[3] as Writable;
  const fromBrowser = child.stdio[4] as Readable;
  const waiting = new Map<number, { resolve: (m: Message) => void; reject: (e: Error) => void }>();
  const listeners: Array<(m: Message) => void> = [];
  let nextId = 1;
  let buffer = '';
  fromBrowser.on('data', (d: Buffer) => {
    buffer += d.toString('utf8');
    for (let at = buffer.indexOf('\0'); at >= 0; at = buffer.indexOf('\0')) {
      const msg = JSON.parse(buffer.slice(0, at)) as Message;
      buffer = buffer.slice(at + 1);
      if (msg.id !== undefined && waiting.has(msg.id)) {
        const w = waiting.get(msg.id)!;
        waiting.delete(msg.id);
        if (msg.error) w.reject(new Error(msg.error.message));
        else w.resolve(msg);
      } else for (const l of listeners) l(msg);
    }
  });
  const send = (method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Message> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      toBrowser.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });

  let timer: NodeJS.Timeout | undefined;
  const exited = new Promise<never>((_, reject) => {
    child.once('exit', (code, signal) =>
      reject(new Error(`chromium exited (${code ?? signal}) before the page was read:\n${stderr.slice(-2000)}`)),
    );
    child.on('error', reject);
  });
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the page did not load within ${opts.timeoutMs ?? 60_000} ms`)), opts.timeoutMs ?? 60_000);
  });

  const work = async (): Promise<PageReport> => {
    const errors: string[] = [];
    const { result: created } = await send('Target.createTarget', { url: 'about:blank' });
    const { result: attached } = await send('Target.attachToTarget', { targetId: created!.targetId, flatten: true });
    const session = attached!.sessionId as string;
    let loaded!: () => void;
    const load = new Promise<void>((r) => {
      loaded = r;
    });
    listeners.push((m) => {
      if (m.sessionId !== session) return;
      const p = m.params ?? {};
      if (m.method === 'Page.loadEventFired') loaded();
      if (m.method === 'Runtime.consoleAPICalled' && (p.type === 'error' || p.type === 'assert'))
        errors.push(`console.${p.type}: ${JSON.stringify((p.args as Array<{ value?: unknown }>).map((a) => a.value))}`);
      if (m.method === 'Runtime.exceptionThrown') errors.push(`exception: ${JSON.stringify(p.exceptionDetails)}`);
      if (m.method === 'Log.entryAdded') {
        const entry = p.entry as { level: string; text: string; source: string; url?: string };
        if (entry.level === 'error') errors.push(`${entry.source}: ${entry.text}${entry.url ? ` (${entry.url})` : ''}`);
      }
    });
    await send('Page.enable', {}, session);
    await send('Runtime.enable', {}, session);
    await send('Log.enable', {}, session);
    const width = opts.width ?? 1200;
    await send('Emulation.setDeviceMetricsOverride', { width, height: 900, deviceScaleFactor: 1, mobile: false }, session);
    const nav = await send('Page.navigate', { url }, session);
    if (nav.result?.errorText) throw new Error(`navigation failed: ${nav.result.errorText}`);
    await load;
    // A moment for anything a hostile page might have scheduled (timers, image errors) to run.
    await send('Runtime.evaluate', { expression: 'new Promise((r) => setTimeout(r, 300))', awaitPromise: true }, session);
    const { result: inspected } = await send('Runtime.evaluate', { expression: INSPECT, returnByValue: true }, session);
    const seen = JSON.parse((inspected!.result as { value: string }).value) as Omit<PageReport, 'errors' | 'screenshot'>;
    let screenshot: Buffer | undefined;
    if (opts.screenshot) {
      const { result: metrics } = await send('Page.getLayoutMetrics', {}, session);
      const size = metrics!.cssContentSize as { width: number; height: number };
      const part = opts.screenshot === true ? {} : opts.screenshot;
      const y = part.y ?? 0;
      const height = Math.max(1, Math.min(Math.ceil(size.height) - y, part.height ?? Number.POSITIVE_INFINITY));
      const { result: shot } = await send(
        'Page.captureScreenshot',
        { format: 'png', captureBeyondViewport: true, clip: { x: 0, y, width, height, scale: part.scale ?? 1 } },
        session,
      );
      screenshot = Buffer.from(shot!.data as string, 'base64');
    }
    await send('Browser.close').catch(() => undefined);
    return { ...seen, errors, ...(screenshot ? { screenshot } : {}) };
  };

  try {
    return await Promise.race([work(), exited, timeout]);
  } finally {
    clearTimeout(timer);
    // Browser.close lets it exit by itself; give it a few seconds, then kill it, and remove its profile once it is gone.
    const gone = new Promise<void>((r) => {
      if (child.exitCode !== null || child.signalCode !== null) r();
      else child.once('exit', () => r());
    });
    const grace = setTimeout(() => child.kill('SIGKILL'), 5000);
    await gone;
    clearTimeout(grace);
    toBrowser.destroy();
    fromBrowser.destroy();
    try {
      rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    } catch {
      /* a temp folder left behind is not the page's fault */
    }
  }
}
