// The fake API on its own, without the CLI: the wire shapes it sends and the
// prompt-driven steps. Cheap, so a broken fake shows up here and not as a
// puzzling CLI failure.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type FakeAnthropic, startFakeAnthropic } from './fake-anthropic-server.ts';
import { MessagesCall } from './messages-call.ts';
import { compactionSummary, defaultRules, parseSteps, scriptedSteps } from './script-rules.ts';

let server: FakeAnthropic;

before(async () => {
  server = await startFakeAnthropic({ rules: defaultRules() });
});

after(async () => {
  await server.close();
});

async function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

function sseEvents(text: string): { event: string; data: Record<string, unknown> }[] {
  return text
    .split('\n\n')
    .filter((chunk) => chunk.trim() !== '')
    .map((chunk) => {
      const event = /^event: (.*)$/m.exec(chunk)?.[1] ?? '';
      const data = JSON.parse(/^data: (.*)$/m.exec(chunk)?.[1] ?? '{}') as Record<string, unknown>;
      return { event, data };
    });
}

test('non-streaming request gets one message with a tool_use for a RUN step', async () => {
  const res = await post('/v1/messages?beta=true', {
    model: 'claude-test',
    max_tokens: 100,
    messages: [{ role: 'user', content: 'RUN: echo hi' }],
  });
  const message = (await res.json()) as Record<string, unknown>;
  assert.equal(message.type, 'message');
  assert.equal(message.role, 'assistant');
  assert.equal(message.stop_reason, 'tool_use');
  const [block] = message.content as Record<string, unknown>[];
  assert.equal(block?.type, 'tool_use');
  assert.equal(block?.name, 'Bash');
  assert.deepEqual(block?.input, { command: 'echo hi', description: 'Run scripted command' });
  assert.match(String(block?.id), /^toolu_/);
});

test('streaming request gets the SSE event sequence of the real API', async () => {
  const res = await post('/v1/messages', {
    model: 'claude-test',
    max_tokens: 100,
    stream: true,
    messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }],
  });
  assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
  const events = sseEvents(await res.text());
  assert.deepEqual(
    events.map((e) => e.event),
    [
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ],
  );
  for (const e of events) assert.equal(e.data.type, e.event);
  const text = events
    .filter((e) => e.event === 'content_block_delta')
    .map((e) => (e.data.delta as { text: string }).text)
    .join('');
  assert.match(text, /^OK \(fake reply to request \d+\)$/);
  assert.deepEqual((events[6]!.data.delta as Record<string, unknown>).stop_reason, 'end_turn');
});

test('streamed tool input arrives as partial JSON that joins to the full input', async () => {
  const res = await post('/v1/messages', {
    model: 'claude-test',
    max_tokens: 100,
    stream: true,
    tools: [{ name: 'Agent' }],
    messages: [{ role: 'user', content: 'TASK: look around' }],
  });
  const events = sseEvents(await res.text());
  const start = events.find((e) => e.event === 'content_block_start')!.data.content_block as Record<string, unknown>;
  assert.equal(start.name, 'Agent');
  const json = events
    .filter((e) => e.event === 'content_block_delta')
    .map((e) => (e.data.delta as { partial_json: string }).partial_json)
    .join('');
  assert.equal((JSON.parse(json) as { prompt: string }).prompt, 'look around');
});

test('count_tokens and unknown paths answer harmlessly and are recorded', async () => {
  const count = (await (await post('/v1/messages/count_tokens', { messages: [] })).json()) as { input_tokens: number };
  assert.ok(count.input_tokens > 0);
  const unknown = await fetch(`${server.url}/api/something`);
  assert.equal(unknown.status, 200);
  assert.ok(server.unknownPaths.includes('GET /api/something'));
  assert.ok(server.requests.some((r) => r.path === '/v1/messages/count_tokens'));
});

test('steps play in order and the final text quotes the last tool result', () => {
  const prompt = 'RUN: one\nWRITE: /tmp/x :: a\\nb';
  const turn = (messages: unknown[]) => new MessagesCall(1, { messages });
  const user = { role: 'user', content: [{ type: 'text', text: prompt }] };
  const useOne = { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: {} }] };
  const resultOne = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'out1' }] };
  const useTwo = { role: 'assistant', content: [{ type: 'tool_use', id: 't2', name: 'Write', input: {} }] };
  const resultTwo = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't2', content: [{ type: 'text', text: 'written' }] }] };

  assert.deepEqual(scriptedSteps(turn([user])), {
    content: [{ type: 'tool_use', name: 'Bash', input: { command: 'one', description: 'Run scripted command' } }],
  });
  assert.deepEqual(scriptedSteps(turn([user, useOne, resultOne])), {
    content: [{ type: 'tool_use', name: 'Write', input: { file_path: '/tmp/x', content: 'a\nb' } }],
  });
  const done = turn([user, useOne, resultOne, useTwo, resultTwo]);
  assert.equal(scriptedSteps(done), 'Done with 2 step(s). Last tool result: written');
  assert.equal(done.toolResults[0]?.toolName, 'Write');
});

test('a prompt without step lines is left to other rules', () => {
  assert.deepEqual(parseSteps('just chat\nnot RUN: this', []), []);
  assert.equal(scriptedSteps(new MessagesCall(1, { messages: [{ role: 'user', content: 'hi' }] })), undefined);
});

test('the compaction request is recognised even with a trailing system message', () => {
  const call = new MessagesCall(1, {
    messages: [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'CRITICAL: Respond with TEXT ONLY. Please provide your summary based on the conversation so far.' },
      { role: 'system', content: 'SessionStart hook additional context: x' },
    ],
  });
  assert.match(String(compactionSummary(call)), /<summary>[\s\S]*<\/summary>/);
});
