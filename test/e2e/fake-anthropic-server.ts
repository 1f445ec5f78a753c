// A scripted stand-in for the Anthropic Messages API, so the real Claude Code
// CLI can run end to end with no network. It records every request and asks a
// list of rules what to answer; the first rule that returns a reply wins.
// Replies are sent in the same shapes the real API uses: an SSE stream
// (message_start, ping, content_block_start/delta/stop, message_delta,
// message_stop) when the request says `stream: true`, else one JSON message.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { MessagesCall } from './messages-call.ts';

export { collectToolResults } from './messages-call.ts';
export { MessagesCall };

/** One content block the fake model answers with. */
export type ReplyBlock = { type: 'text'; text: string } | { type: 'tool_use'; name: string; input: Record<string, unknown>; id?: string };

export interface Reply {
  content: ReplyBlock[];
  /** Defaults to `tool_use` when a tool_use block is present, else `end_turn`. */
  stopReason?: 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence';
}

/** A rule looks at one /v1/messages request and answers, or passes (undefined). */
export type ScriptRule = (call: MessagesCall) => Reply | string | undefined;

export interface RecordedRequest {
  seq: number;
  method: string;
  /** Path without the query string, e.g. `/v1/messages`. */
  path: string;
  query: string;
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON body, or undefined when the body is empty or not JSON. */
  body: unknown;
  /** Set for POST /v1/messages: the request seen through helpers. */
  call?: MessagesCall;
  /** What the fake model answered, for /v1/messages. */
  reply?: Reply;
}

export interface FakeAnthropic {
  url: string;
  port: number;
  /** Every request in arrival order. */
  requests: RecordedRequest[];
  /** Only the POST /v1/messages requests, as MessagesCall views. */
  messageCalls(): MessagesCall[];
  /** Paths the server had no handler for (answered 200 `{}`). */
  unknownPaths: string[];
  /** Replace the script; takes effect for the next request. */
  setRules(rules: ScriptRule[]): void;
  close(): Promise<void>;
}

export interface FakeAnthropicOptions {
  rules?: ScriptRule[];
  /** Sent when no rule answers. */
  fallback?: ScriptRule;
  /** Gets one line per request, e.g. for debugging a scenario. */
  log?: (line: string) => void;
}

export const defaultFallback: ScriptRule = (call) => `OK (fake reply to request ${call.seq})`;

export async function startFakeAnthropic(options: FakeAnthropicOptions = {}): Promise<FakeAnthropic> {
  let rules = options.rules ?? [];
  const fallback = options.fallback ?? defaultFallback;
  const requests: RecordedRequest[] = [];
  const unknownPaths: string[] = [];
  let toolUseCounter = 0;

  const decide = (call: MessagesCall): Reply => {
    for (const rule of [...rules, fallback]) {
      const answer = rule(call);
      if (answer !== undefined) return normaliseReply(answer, () => `toolu_fake${String(++toolUseCounter).padStart(4, '0')}`);
    }
    return { content: [{ type: 'text', text: 'OK' }] };
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const [path = '/', query = ''] = (req.url ?? '/').split('?', 2);
      const recorded: RecordedRequest = {
        seq: requests.length + 1,
        method: req.method ?? 'GET',
        path,
        query,
        headers: req.headers,
        body: parseJson(raw),
      };
      requests.push(recorded);
      try {
        route(recorded, res);
      } catch (error) {
        options.log?.(`fake-anthropic: handler error ${String(error)}`);
        sendJson(res, 500, { type: 'error', error: { type: 'api_error', message: String(error) } });
      }
    });
  });

  const route = (rec: RecordedRequest, res: http.ServerResponse): void => {
    if (rec.method === 'POST' && rec.path === '/v1/messages/count_tokens') {
      // Rough estimate is enough: Claude Code only uses it for budgeting.
      const size = JSON.stringify(rec.body ?? '').length;
      options.log?.(`fake-anthropic: #${rec.seq} count_tokens`);
      sendJson(res, 200, { input_tokens: Math.max(1, Math.ceil(size / 4)) });
      return;
    }
    if (rec.method === 'POST' && rec.path === '/v1/messages') {
      const call = new MessagesCall(rec.seq, rec.body);
      rec.call = call;
      const reply = decide(call);
      rec.reply = reply;
      options.log?.(`fake-anthropic: #${rec.seq} messages model=${call.model} stream=${call.stream} → ${describeReply(reply)}`);
      if (call.stream) sendStream(res, call, reply);
      else sendJson(res, 200, buildMessage(call, reply));
      return;
    }
    if (rec.method === 'HEAD' || rec.path === '/api/hello') {
      // Connectivity probe at start-up.
      res.writeHead(200);
      res.end();
      return;
    }
    unknownPaths.push(`${rec.method} ${rec.path}`);
    options.log?.(`fake-anthropic: #${rec.seq} unknown ${rec.method} ${rec.path}`);
    sendJson(res, 200, {});
  };

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    unknownPaths,
    messageCalls: () => requests.flatMap((r) => (r.call ? [r.call] : [])),
    setRules: (next) => {
      rules = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function normaliseReply(answer: Reply | string, nextId: () => string): Reply {
  const reply: Reply = typeof answer === 'string' ? { content: [{ type: 'text', text: answer }] } : answer;
  return {
    ...reply,
    content: reply.content.map((b) => (b.type === 'tool_use' && !b.id ? { ...b, id: nextId() } : b)),
  };
}

function describeReply(reply: Reply): string {
  return reply.content.map((b) => (b.type === 'text' ? `text(${JSON.stringify(b.text.slice(0, 40))})` : `tool_use(${b.name})`)).join(' ');
}

function stopReasonOf(reply: Reply): string {
  if (reply.stopReason) return reply.stopReason;
  return reply.content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
}

function outputTokens(reply: Reply): number {
  return Math.max(1, Math.ceil(JSON.stringify(reply.content).length / 4));
}

function inputTokens(call: MessagesCall): number {
  return Math.max(1, Math.ceil(JSON.stringify(call.body).length / 4));
}

function wireBlock(block: ReplyBlock): Record<string, unknown> {
  if (block.type === 'text') return { type: 'text', text: block.text };
  return { type: 'tool_use', id: block.id, name: block.name, input: block.input };
}

function baseMessage(call: MessagesCall): Record<string, unknown> {
  return {
    id: `msg_fake${String(call.seq).padStart(6, '0')}`,
    type: 'message',
    role: 'assistant',
    model: call.model,
  };
}

function buildMessage(call: MessagesCall, reply: Reply): Record<string, unknown> {
  return {
    ...baseMessage(call),
    content: reply.content.map(wireBlock),
    stop_reason: stopReasonOf(reply),
    stop_sequence: null,
    usage: {
      input_tokens: inputTokens(call),
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: outputTokens(reply),
    },
  };
}

function sendStream(res: http.ServerResponse, call: MessagesCall, reply: Reply): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  const send = (type: string, data: Record<string, unknown>): void => {
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  };
  send('message_start', {
    message: {
      ...baseMessage(call),
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: inputTokens(call), cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 },
    },
  });
  send('ping', {});
  reply.content.forEach((block, index) => {
    if (block.type === 'text') {
      send('content_block_start', { index, content_block: { type: 'text', text: '' } });
      for (const piece of splitInTwo(block.text)) {
        send('content_block_delta', { index, delta: { type: 'text_delta', text: piece } });
      }
    } else {
      send('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
      // The real API streams tool input as partial JSON; two pieces exercise the client's joining.
      for (const piece of splitInTwo(JSON.stringify(block.input))) {
        send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } });
      }
    }
    send('content_block_stop', { index });
  });
  send('message_delta', {
    delta: { stop_reason: stopReasonOf(reply), stop_sequence: null },
    usage: { output_tokens: outputTokens(reply) },
  });
  send('message_stop', {});
  res.end();
}

function splitInTwo(text: string): string[] {
  if (text.length < 2) return [text];
  const mid = Math.floor(text.length / 2);
  return [text.slice(0, mid), text.slice(mid)];
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function parseJson(raw: string): unknown {
  if (raw === '') return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
