// A local smart-HTTP git server (git http-backend behind node:http), so a
// test can add a marketplace by URL the way users add one from GitHub.
// Claude Code reads a marketplace added as a local folder straight from that
// folder; only a cloned marketplace is copied into the plugin cache. Its clone
// is shallow, which git's static "dumb" HTTP cannot serve, hence the CGI.

import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GitServer {
  /** Base URL; a bare repository <root>/name.git is at `${url}/name.git`. */
  url: string;
  /** "METHOD path" of every request, for assertions and debugging. */
  requests: string[];
  close(): Promise<void>;
}

/** Serves the bare repositories under root, read-only. */
export async function serveGitRepos(root: string): Promise<GitServer> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const [path = '/', query = ''] = (req.url ?? '/').split('?', 2);
    requests.push(`${req.method ?? 'GET'} ${path}`);
    const header = (name: string) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(', ') : (value ?? '');
    };
    const cgi = spawn('git', ['http-backend'], {
      env: {
        PATH: process.env.PATH ?? '',
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        REQUEST_METHOD: req.method ?? 'GET',
        PATH_INFO: decodeURIComponent(path),
        QUERY_STRING: query,
        CONTENT_TYPE: header('content-type'),
        HTTP_CONTENT_ENCODING: header('content-encoding'),
        HTTP_GIT_PROTOCOL: header('git-protocol'),
        REMOTE_ADDR: '127.0.0.1',
      },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    req.pipe(cgi.stdin);
    const chunks: Buffer[] = [];
    cgi.stdout.on('data', (c: Buffer) => chunks.push(c));
    cgi.on('close', () => {
      const out = Buffer.concat(chunks);
      let split = out.indexOf('\r\n\r\n');
      let gap = 4;
      if (split < 0) {
        split = out.indexOf('\n\n');
        gap = 2;
      }
      if (split < 0) {
        res.writeHead(500);
        res.end();
        return;
      }
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of out.subarray(0, split).toString('latin1').split(/\r?\n/)) {
        const at = line.indexOf(':');
        if (at < 0) continue;
        const name = line.slice(0, at).trim();
        const value = line.slice(at + 1).trim();
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10) || 500;
        else headers[name] = value;
      }
      res.writeHead(status, headers);
      res.end(out.subarray(split + gap));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
