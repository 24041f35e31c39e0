/**
 * The front door's (`POST /v1/chat/completions`) bounds, on the app over a scripted threads port:
 * a non-streamed request holds a stream lease while it waits (the limit reached by held requests
 * refuses the next one with 429 TOO_MANY_STREAMS before its message is sent, and the lease comes
 * back when it ends); a fractional or huge client timeout is answered, never a 500; a streamed
 * answer whose client falls MAX_QUEUED_FRAMES chunks behind stops queuing and ends with
 * `cairn.failure` CLIENT_TOO_SLOW, then `[DONE]`.
 */
import type { AgentsPort } from '../../client/agents/agents-port';
import { createApp } from '../../client/http/create-app';
import type { ThreadsPort } from '../../client/threads/threads-port';
import { MAX_QUEUED_FRAMES } from '../../client/http/stream-limiter';
import type { LiveHub, LiveListener } from '../../client/live/live-hub';
import type { ThreadView, TurnStatus } from '../../workflows/model/thread/thread-schemas';

/** A threads port whose one message is recorded at once; routed (and settled) only when `settled`. */
function scriptedThreads() {
  const script = { settled: false, opened: 0, reply: 'Hello.' };
  let onOpened = () => undefined as void;
  const firstOpened = new Promise<void>((resolve) => (onOpened = resolve));
  const view = (id: string, status: TurnStatus): ThreadView => ({
    id,
    title: 'hi',
    status: 'open',
    turns: [
      {
        messageId: 'msg-1',
        text: 'hi',
        status,
        kind: 'chat',
        ...(status === 'completed' ? { reply: script.reply } : {}),
      },
    ],
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
  });
  const unused = () => Promise.reject(new Error('not called by these tests'));
  const threads: ThreadsPort = {
    open: (_first, options = {}) => {
      script.opened += 1;
      const id = `thread-${script.opened}`;
      options.accepted?.(id, 'msg-1');
      onOpened();
      // Not settled: the message waits to be routed for as long as the request is held.
      return script.settled ? Promise.resolve({ id, messageId: 'msg-1' }) : new Promise(() => undefined);
    },
    get: (id) => Promise.resolve(view(id, script.settled ? 'completed' : 'routing')),
    send: unused,
    message: unused,
    list: unused,
    newId: () => 'thread-new',
  };
  return { threads, script, firstOpened };
}

const agents = { state: () => Promise.reject(new Error('no agent in these tests')) } as unknown as AgentsPort;

function chat(headers: Record<string, string> = {}, stream = false, signal?: AbortSignal): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({
      model: 'cairn',
      messages: [{ role: 'user', content: 'hi' }],
      ...(stream ? { stream } : {}),
    }),
    ...(signal ? { signal } : {}),
  };
}

const codeOf = async (res: Response) => ((await res.json()) as { error: { code: string } }).error.code;

test('held non-streamed requests count as streams: at the limit the next request is 429 TOO_MANY_STREAMS before its message is sent', async () => {
  const { threads, script, firstOpened } = scriptedThreads();
  const app = createApp({
    version: 'test',
    temporalHealthy: () => Promise.resolve(true),
    agents,
    threads,
    streamLimits: { perPrincipal: 1, total: 10 },
  });
  const held = new AbortController();
  const first = app.request('/v1/chat/completions', chat({}, false, held.signal));
  await firstOpened;

  // A short client timeout: without a lease this one would be answered, not refused.
  const notStreamed = await app.request('/v1/chat/completions', chat({ 'x-stainless-timeout': '1' }));
  expect([notStreamed.status, await codeOf(notStreamed), notStreamed.headers.get('retry-after')]).toEqual([
    429,
    'TOO_MANY_STREAMS',
    '5',
  ]);
  const streamed = await app.request('/v1/chat/completions', chat({}, true));
  expect([streamed.status, await codeOf(streamed)]).toEqual([429, 'TOO_MANY_STREAMS']);
  expect(script.opened).toBe(1);

  // The held request ends (its client went away): its place is given back.
  held.abort();
  expect((await first).status).toBe(200);
  script.settled = true;
  const next = await app.request('/v1/chat/completions', chat());
  expect(next.status).toBe(200);
  expect(script.opened).toBe(2);
});

test.each(['1.2345', '0.0001', '1e10', '2160000', 'Infinity'])(
  'a client timeout of %s seconds is answered, not a 500',
  async (seconds) => {
    const { threads, script } = scriptedThreads();
    script.settled = true;
    const app = createApp({ version: 'test', temporalHealthy: () => Promise.resolve(true), agents, threads });
    const res = await app.request('/v1/chat/completions', chat({ 'x-stainless-timeout': seconds }));
    const body = (await res.json()) as { choices?: { message: { content: string } }[] };
    expect([res.status, body.choices?.[0]?.message.content]).toEqual([200, 'Hello.']);
  },
);

test('a streamed answer whose client falls MAX_QUEUED_FRAMES chunks behind ends with cairn.failure CLIENT_TOO_SLOW, then [DONE]', async () => {
  const { threads, script } = scriptedThreads();
  const deltas = MAX_QUEUED_FRAMES + 100;
  script.settled = true;
  script.reply = 'x'.repeat(deltas);
  // The thread's live stream: the reply's deltas, all at once, faster than any client reads.
  const live = {
    follow: (_id: string, _lastSeen: number | undefined, listener: LiveListener) => {
      for (let offset = 1; offset <= deltas; offset++)
        listener.event({
          offset,
          type: 'delta',
          data: { messageId: 'msg-1', purpose: 'chat', modelCallId: 'call-1', channel: 'text', text: 'x' },
        });
      return () => undefined;
    },
  } as unknown as LiveHub;
  const app = createApp({ version: 'test', temporalHealthy: () => Promise.resolve(true), agents, threads, live });
  const res = await app.request('/v1/chat/completions', chat({}, true));
  expect(res.status).toBe(200);
  const data = (await res.text())
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => line.slice('data: '.length));
  expect(data.at(-1)).toBe('[DONE]');
  const last = JSON.parse(data.at(-2) ?? '{}') as {
    choices: { finish_reason: string | null }[];
    cairn?: { failure?: { code: string } };
  };
  expect([last.choices[0]?.finish_reason, last.cairn?.failure?.code]).toEqual(['stop', 'CLIENT_TOO_SLOW']);
  // No more than the cap was ever queued: the chunks past it were never written.
  expect(data.length).toBeLessThanOrEqual(MAX_QUEUED_FRAMES + 2);
});
