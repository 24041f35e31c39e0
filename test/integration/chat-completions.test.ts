/**
 * The OpenAI-compatible front door (`POST /v1/chat/completions`) driven by the official `openai`
 * client against Cairn's app served on a loopback port, with token sign-in, a real Temporal and
 * the scripted fake as the model behind Cairn: a chat message and its reply, streamed and not,
 * the thread named by header and extension and continued by `X-Cairn-Thread`; a task turn whose
 * step asks (answered by the next user message) and wants an approval (open in `cairn`, answered
 * through the API), after which the conversation goes on; a thread closed under a turn ends its
 * request; 401 without a token, 404 `model_not_found` for a model no definition has, 429 past the stream limit.
 */
import OpenAI from 'openai';
import { z } from 'zod';
import { reply } from '../fake-llm/replies';
import { quirk } from '../fake-llm/quirks';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { finish, plan, planReply, step } from '../harness/plans';
import { serveOnLoopback } from '../harness/sse-client';
import { withWorker } from '../harness/test-env';
import { tokenApp } from '../harness/token-app';
import { ThreadClient } from '../../client/threads/thread-client';
import { ClientError } from '../../client/client-error';
import type { ThreadView } from '../../workflows/contract/thread-contract';
import { waitUntil } from '../../testkit/wait-until';
import { threadTurnWorkflowId } from '../../workflows/contract/thread-contract';
import type { AppDeps } from '../../client/http/create-app';

const bed = agentTestbed();

const TOKEN = 'ann-token';
const people = [{ principal: 'ann', roles: ['operator' as const, 'approver' as const], token: TOKEN }];

/** The `cairn` extension as the tests read it off a completion or a chunk. */
const cairnOf = (value: unknown) =>
  z
    .object({
      cairn: z
        .looseObject({
          thread: z.string().optional(),
          messageId: z.string().optional(),
          disposition: z.string().optional(),
          status: z.string().optional(),
          agentId: z.string().optional(),
          threadClosed: z.string().optional(),
          answered: z.object({ agentId: z.string(), interactionId: z.string() }).optional(),
          interactions: z
            .array(z.looseObject({ id: z.string(), kind: z.string(), agentId: z.string(), prompt: z.string() }))
            .optional(),
        })
        .optional(),
    })
    .parse(value).cairn;

/** A non-streamed answer's deadline that ends when the request does or when `test` aborts it. */
const deadlineOr = (test: AbortController) => (request: Request) => AbortSignal.any([request.signal, test.signal]);

/** Cairn's app with the thread client, served; the openai client on its /v1. */
async function serveCairn(extra: Partial<AppDeps> = {}) {
  const threads = new ThreadClient(bed.client, bed.config.taskQueue);
  const app = tokenApp(bed.client, bed.config.taskQueue, people, { threads, ...extra });
  const server = await serveOnLoopback(app);
  const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: TOKEN, maxRetries: 0 });
  return { threads, server, openai };
}

test('chat through the openai client: a reply, streamed and not; X-Cairn-Thread continues the thread; 401 and 400 are coded', async () => {
  bed.llm.respondWith(
    byRoute({
      'route-message': [
        reply.json({ kind: 'chat', reason: 'a greeting' }),
        reply.json({ kind: 'chat', reason: 'small talk' }),
      ],
      chat: [reply.text('Hello from Cairn.'), reply.text('Streams arrive in pieces, all of them.')],
    }),
  );
  await withWorker(bed.config, async () => {
    const { threads, server, openai } = await serveCairn();
    try {
      const { data, response } = await openai.chat.completions
        .create({
          model: 'cairn',
          messages: [
            { role: 'system', content: 'Answer briefly.' },
            { role: 'user', content: 'hi there' },
          ],
        })
        .withResponse();
      expect(data.choices[0]?.message.content).toBe('Hello from Cairn.');
      expect(data.choices[0]?.finish_reason).toBe('stop');
      // docs/contracts.md, "OpenAI-compatible front door" > No retries of a recorded message.
      expect(response.headers.get('x-should-retry')).toBe('false');
      const thread = response.headers.get('x-cairn-thread');
      expect(thread).toMatch(/^thread-/);
      expect(cairnOf(data)).toMatchObject({
        thread,
        messageId: 'msg-1',
        disposition: 'answered',
        kind: 'chat',
        status: 'completed',
      });
      // The earlier messages of a new thread travel as context after the message.
      const chatRequest = bed.llm.requestsFor('chat')[0]?.body.messages.at(-1)?.content;
      expect(chatRequest).toEqual(expect.stringMatching(/^hi there\n[\s\S]*system: Answer briefly\./));

      const { data: stream, response: streamed } = await openai.chat.completions
        .create(
          { model: 'cairn', messages: [{ role: 'user', content: 'tell me more' }], stream: true },
          { headers: { 'X-Cairn-Thread': thread ?? '' } },
        )
        .withResponse();
      expect(streamed.headers.get('x-cairn-thread')).toBe(thread);
      // Streamed too: a stream that ends early is retried by the SDKs as any failed request would be.
      expect(streamed.headers.get('x-should-retry')).toBe('false');
      let text = '';
      const extensions = [];
      const finishes = [];
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? '';
        finishes.push(chunk.choices[0]?.finish_reason ?? null);
        extensions.push(cairnOf(chunk));
      }
      expect(text).toBe('Streams arrive in pieces, all of them.');
      // The stream opens once the message is recorded: the ids first, what became of it once routed.
      expect(extensions[0]).toMatchObject({ thread, messageId: 'msg-2' });
      expect(extensions.find((e) => e?.disposition !== undefined)?.disposition).toBe('answered');
      expect(finishes.at(-1)).toBe('stop');
      expect(finishes.slice(0, -1).every((f) => f === null)).toBe(true);

      const view = await threads.get(thread ?? '');
      expect(view.turns.map((t) => [t.messageId, t.by, t.kind, t.status])).toEqual([
        ['msg-1', 'ann', 'chat', 'completed'],
        ['msg-2', 'ann', 'chat', 'completed'],
      ]);

      const anonymous = await fetch(`${server.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'cairn', messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(anonymous.status).toBe(401);
      expect(((await anonymous.json()) as { error: { code: string } }).error.code).toBe('UNAUTHORIZED');
      const stranger = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'not-a-token', maxRetries: 0 });
      const refused = await stranger.chat.completions
        .create({ model: 'cairn', messages: [{ role: 'user', content: 'hi' }] })
        .catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(OpenAI.AuthenticationError);
      expect(refused).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });

      const wrongModel = await openai.chat.completions
        .create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })
        .catch((err: unknown) => err);
      // A model no agent definition has: OpenAI's own refusal (docs/definitions.md).
      expect(wrongModel).toBeInstanceOf(OpenAI.NotFoundError);
      expect(wrongModel).toMatchObject({ status: 404, code: 'model_not_found', param: 'model' });
      // Nothing reached the model for the refused requests: two routes and two replies only
      // (besides the title call of the thread's first message).
      expect(bed.llm.requests.filter((r) => r.headers['x-cairn-purpose'] !== 'title')).toHaveLength(4);
    } finally {
      await server.close();
    }
  });
});

test('a streamed chat reply arrives as content chunks while the model writes it, joining to the recorded reply', async () => {
  let open = () => {};
  const seen = new Promise<void>((resolve) => (open = resolve));
  const answer = 'Obsidian keeps local Markdown files, Notion shares pages, and Bear is the simplest of the three.';
  // The reply streams in several chunks; its end waits until the client has had part of it.
  bed.llm.respondWith(
    byRoute({
      'route-message': [reply.json({ kind: 'chat', reason: 'a question' })],
      // Paced, as a model writes: the pieces cannot all merge into one batch on the way.
      chat: [reply.endAfter(reply.text(answer, { chunkDelayMs: 40 }), seen)],
    }),
  );
  await withWorker(bed.config, async () => {
    const { threads, server, openai } = await serveCairn();
    try {
      const { data: stream, response } = await openai.chat.completions
        .create({ model: 'cairn', messages: [{ role: 'user', content: 'compare notes apps' }], stream: true })
        .withResponse();
      const thread = response.headers.get('x-cairn-thread') ?? '';
      const pieces: string[] = [];
      let before: string | undefined;
      for await (const chunk of stream) {
        const content = chunk.choices[0]?.delta.content ?? '';
        if (content === '') continue;
        pieces.push(content);
        if (before === undefined) {
          // Causal: the model's reply has not ended (its end is held), yet text has arrived.
          before = content;
          expect(bed.llm.requestsFor('chat')[0]?.answeredAt).toBeUndefined();
          open();
        }
      }
      expect(before).toBeDefined();
      expect(answer.startsWith(before ?? '')).toBe(true);
      expect(before?.length).toBeLessThan(answer.length);
      expect(pieces.length).toBeGreaterThan(1);
      const recorded = (await threads.get(thread)).turns[0]?.reply;
      expect(recorded).toBe(answer);
      expect(pieces.join('')).toBe(recorded);
    } finally {
      open();
      await server.close();
    }
  });
});

test('a task turn: its step asks (the next user message answers), its approval is open in `cairn` and answered through the API, and the conversation goes on', async () => {
  bed.llm.respondWith(
    byRoute({
      'route-message': [
        reply.json({ kind: 'task', reason: 'work to do' }),
        reply.json({ kind: 'chat', reason: 'a question about it' }),
      ],
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [
        reply.toolCall('ask_user', { kind: 'query', prompt: 'Who reads the brief?' }, 'q1'),
        reply.toolCall('write_file', { path: 'brief.txt', content: 'for engineers' }, 'w1'),
        finish('wrote brief.txt'),
      ],
      summary: [reply.text('The brief is in brief.txt.')],
      chat: [reply.text('It went well: the brief is written.')],
    }),
  );
  await withWorker(bed.config, async () => {
    // Heartbeat comments between the chunks: the openai client must read past them.
    const { threads, server, openai } = await serveCairn({ eventTiming: { heartbeatMs: 20 } });
    try {
      const asked = await openai.chat.completions
        .create({ model: 'cairn', messages: [{ role: 'user', content: 'write a brief' }] })
        .withResponse();
      const thread = asked.response.headers.get('x-cairn-thread') ?? '';
      const agentId = threadTurnWorkflowId(thread, 1);
      expect(cairnOf(asked.data)).toMatchObject({ disposition: 'started', kind: 'task', status: 'running', agentId });
      expect(cairnOf(asked.data)?.interactions?.map((i) => [i.kind, i.agentId, i.prompt])).toEqual([
        ['ask.query', agentId, 'Who reads the brief?'],
      ]);
      expect(asked.data.choices[0]?.message.content).toContain('Who reads the brief?');

      // The next user message answers the open question; the stream then follows the turn to its approval.
      const stream = await openai.chat.completions.create(
        { model: 'cairn', messages: [{ role: 'user', content: 'engineers' }], stream: true },
        { headers: { 'X-Cairn-Thread': thread } },
      );
      const chunks = [];
      for await (const chunk of stream)
        chunks.push({ text: chunk.choices[0]?.delta.content ?? '', cairn: cairnOf(chunk) });
      expect(chunks[0]?.cairn).toMatchObject({ disposition: 'answer', answered: { agentId, interactionId: 'i1' } });
      const last = chunks.at(-1)?.cairn;
      expect(last?.interactions?.map((i) => [i.kind, i.agentId])).toEqual([['tool.approval', agentId]]);
      expect(chunks.map((c) => c.text).join('')).toContain(last?.interactions?.[0]?.id ?? 'no interaction');
      const stepHeard = bed.llm.heardBack('q1');
      expect(stepHeard).toContain('engineers');

      const approval = last?.interactions?.[0]?.id ?? '';
      const answered = await fetch(`${server.url}/api/agents/${encodeURIComponent(agentId)}/answers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
        body: JSON.stringify({ interactionId: approval, answer: { decision: 'approve' } }),
      });
      expect(answered.status).toBe(200);

      const after = await openai.chat.completions.create(
        { model: 'cairn', messages: [{ role: 'user', content: 'how did it go?' }] },
        { headers: { 'X-Cairn-Thread': thread } },
      );
      expect(after.choices[0]?.message.content).toBe('It went well: the brief is written.');
      const view = await threads.get(thread);
      expect(view.turns.map((t) => [t.messageId, t.kind, t.status, t.reply])).toEqual([
        ['msg-1', 'task', 'completed', 'The brief is in brief.txt.'],
        ['msg-2', 'chat', 'completed', 'It went well: the brief is written.'],
      ]);
    } finally {
      await server.close();
    }
  });
});

test.each([false, true])(
  'stream %s: an answer goes on with the messages queued behind the answered turn, whose own requests ended at the question',
  async (streamed) => {
    let release = () => undefined as void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    bed.llm.respondWith(
      byRoute({
        'route-message': [reply.json({ kind: 'chat', reason: 'a question' })],
        plan: [planReply(plan([step('s1')]))],
        'step:s1': [
          reply.after(reply.toolCall('ask_user', { kind: 'query', prompt: 'Who reads the brief?' }, 'q1'), gate),
          finish('done'),
        ],
        summary: [reply.text('The brief is written.')],
        chat: [reply.text('Pricing: 10 dollars.')],
      }),
    );
    await withWorker(bed.config, async () => {
      const { threads, server, openai } = await serveCairn();
      try {
        const { id: thread } = await threads.open({ text: 'write a brief', kind: 'task' });
        const headers = { 'X-Cairn-Thread': thread };
        await bed.llm.waitForRoute('step:s1'); // the turn runs; its step asks once the gate opens
        // Queued behind the running turn; its request follows it until the turn's agent asks.
        const queuing = openai.chat.completions.create(
          { model: 'cairn', messages: [{ role: 'user', content: 'and the pricing?' }] },
          { headers },
        );
        await waitUntil('the message queued', async () =>
          (await threads.get(thread)).turns[1]?.status === 'queued' ? true : undefined,
        );
        release();
        const queued = await queuing;
        expect(cairnOf(queued)).toMatchObject({ messageId: 'msg-2', disposition: 'queued', status: 'queued' });
        expect(cairnOf(queued)?.interactions?.map((i) => i.kind)).toEqual(['ask.query']);

        const answer = { model: 'cairn', messages: [{ role: 'user' as const, content: 'engineers' }] };
        let text: string;
        let last: unknown;
        if (streamed) {
          const chunks = [];
          for await (const chunk of await openai.chat.completions.create({ ...answer, stream: true }, { headers }))
            chunks.push(chunk);
          text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
          last = chunks.at(-1);
          expect(chunks.map(cairnOf)).toContainEqual({ messageId: 'msg-2', status: 'completed' });
        } else {
          const completion = await openai.chat.completions.create(answer, { headers });
          text = completion.choices[0]?.message.content ?? '';
          last = completion;
        }
        expect(text).toBe('The brief is written.\n\n> and the pricing?\n\nPricing: 10 dollars.');
        expect(cairnOf(last)).toMatchObject({
          status: 'completed',
          queued: [{ messageId: 'msg-2', status: 'completed', kind: 'chat' }],
        });
        expect((await threads.get(thread)).turns.map((t) => [t.messageId, t.status])).toEqual([
          ['msg-1', 'completed'],
          ['msg-2', 'completed'],
        ]);
      } finally {
        await server.close();
      }
    });
  },
);

test("a task turn's answer is the reply: the request waits for the turn's agent to end", async () => {
  bed.llm.respondWith(
    byRoute({
      'route-message': [reply.json({ kind: 'task', reason: 'work to do' })],
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [finish('counted 3 files')],
      summary: [reply.text('There are 3 files.')],
    }),
  );
  await withWorker(bed.config, async () => {
    const { threads, server, openai } = await serveCairn();
    try {
      const { data, response } = await openai.chat.completions
        .create({ model: 'cairn', messages: [{ role: 'user', content: 'count the files' }] })
        .withResponse();
      const thread = response.headers.get('x-cairn-thread') ?? '';
      expect(data.choices[0]?.message.content).toBe('There are 3 files.');
      expect(cairnOf(data)).toMatchObject({
        disposition: 'started',
        kind: 'task',
        status: 'completed',
        agentId: threadTurnWorkflowId(thread, 1),
      });
      expect(cairnOf(data)?.interactions).toBeUndefined();
      expect((await threads.get(thread)).turns.map((t) => [t.status, t.reply])).toEqual([
        ['completed', 'There are 3 files.'],
      ]);
    } finally {
      await server.close();
    }
  });
});

test('a streamed request counts against the stream limit: past it 429 TOO_MANY_STREAMS, before any message is sent', async () => {
  bed.llm.respondWith(byRoute({}));
  await withWorker(bed.config, async () => {
    const { server, openai } = await serveCairn({ streamLimits: { perPrincipal: 0, total: 10 } });
    try {
      const refused = await openai.chat.completions
        .create({ model: 'cairn', messages: [{ role: 'user', content: 'hi' }], stream: true })
        .catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(OpenAI.RateLimitError);
      expect(refused).toMatchObject({ status: 429, code: 'TOO_MANY_STREAMS' });
      // Refused before anything is sent: a retry is harmless, so no x-should-retry (docs/contracts.md).
      const headers: unknown = refused instanceof OpenAI.APIError ? refused.headers : undefined;
      expect(headers instanceof Headers ? headers.has('x-should-retry') : undefined).toBe(false);
      expect(bed.llm.requests.length).toBe(0);
    } finally {
      await server.close();
    }
  });
});

test('a thread that closes before its turn settles ends the request, saying so (it never will settle)', async () => {
  const never = new Promise<void>(() => undefined);
  bed.llm.respondWith(
    byRoute({
      'route-message': [reply.json({ kind: 'task', reason: 'work to do' })],
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [reply.after(finish('never written'), never)],
    }),
  );
  await withWorker(bed.config, async () => {
    const { threads, server, openai } = await serveCairn();
    try {
      const { id } = await threads.open();
      const asked = openai.chat.completions.create(
        { model: 'cairn', messages: [{ role: 'user', content: 'work for ever' }] },
        { headers: { 'X-Cairn-Thread': id } },
      );
      await bed.llm.waitForRoute('step:s1');
      await bed.client.workflow.getHandle(id).cancel();
      const data = await asked;
      expect(data.choices[0]?.message.content).toBe(
        'The thread has closed (its workflow is cancelled): this message will not be answered.',
      );
      expect(cairnOf(data)).toMatchObject({ status: 'running', threadClosed: 'its workflow is cancelled' });
    } finally {
      await server.close();
    }
  });
});

test("a streamed chat reply's reasoning arrives in cairn.event; the content is its text alone", async () => {
  const thoughts = 'The user greets me; answer briefly.';
  bed.llm.respondWith(
    byRoute({
      'route-message': [reply.json({ kind: 'chat', reason: 'a greeting' })],
      chat: [quirk.thinking('Hello there.', thoughts)],
    }),
  );
  await withWorker(bed.config, async () => {
    const { threads, server, openai } = await serveCairn();
    try {
      const { id } = await threads.open();
      const stream = await openai.chat.completions.create(
        { model: 'cairn', messages: [{ role: 'user', content: 'hi' }], stream: true },
        { headers: { 'X-Cairn-Thread': id } },
      );
      let content = '';
      const reasoning: string[] = [];
      for await (const chunk of stream) {
        content += chunk.choices[0]?.delta.content ?? '';
        const event = z
          .object({ cairn: z.object({ event: z.looseObject({ data: z.looseObject({}) }).optional() }).optional() })
          .parse(chunk).cairn?.event;
        if (event?.data['channel'] === 'reasoning') reasoning.push(String(event.data['text']));
      }
      // The text after the reasoning block streamed as it came (a line break first); the reply as recorded is trimmed.
      expect(content.trim()).toBe('Hello there.');
      expect((await threads.get(id)).turns[0]?.reply).toBe('Hello there.');
      // The fake sends the thoughts both as reasoning_content and in a <think> block: they arrive once.
      expect(reasoning.join('')).toBe(thoughts);
    } finally {
      await server.close();
    }
  });
});

test("not streamed, the answer goes before the client's announced timeout: the turn still running, the message sent once", async () => {
  let release = () => undefined as void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  bed.llm.respondWith(
    byRoute({
      'route-message': [reply.json({ kind: 'task', reason: 'work to do' })],
      plan: [reply.after(planReply(plan([step('s1')])), gate)],
      'step:s1': [finish('counted 3 files')],
      summary: [reply.text('There are 3 files.')],
    }),
  );
  await withWorker(bed.config, async () => {
    // The answer's deadline (a little before the client's announced timeout, client-timeout.ts)
    // is the test's: it ends once the turn's agent runs, held at its plan. The client waits 60 s.
    const deadline = new AbortController();
    const { threads, server } = await serveCairn({ chatAnswerDeadline: deadlineOr(deadline) });
    // A client that would retry twice, each retry sending the text again.
    const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: TOKEN, maxRetries: 2 });
    try {
      const { id: thread } = await threads.open();
      const answering = openai.chat.completions
        .create(
          { model: 'cairn', messages: [{ role: 'user', content: 'count the files' }] },
          { headers: { 'X-Cairn-Thread': thread }, timeout: 60_000 },
        )
        .withResponse();
      const agentId = threadTurnWorkflowId(thread, 1);
      await waitUntil('the turn running, its agent held at its plan', async () =>
        (await threads.get(thread)).turns[0]?.status === 'running' && bed.llm.requestsFor('plan').length > 0
          ? true
          : undefined,
      );
      deadline.abort();
      const { data, response } = await answering;
      expect(response.headers.get('x-cairn-thread')).toBe(thread);
      expect(cairnOf(data)).toMatchObject({ kind: 'task', status: 'running', agentId });
      expect(data.choices[0]?.message.content).toBe(
        `Still working on it (the turn is running, agent ${agentId}). Its answer will be in thread ${thread}: ` +
          `read it there (GET /api/threads/${thread}), or send your next message with the X-Cairn-Thread header.`,
      );
      release();
      const settled = await waitUntil('the turn settled', async () => {
        const view = await threads.get(thread);
        return view.turns[0]?.status === 'completed' ? view : undefined;
      });
      expect(settled.turns.map((t) => [t.text, t.reply])).toEqual([['count the files', 'There are 3 files.']]);
    } finally {
      release();
      await server.close();
    }
  });
});

test('not streamed, an answer that must go before the client times out lists the queued message still being answered', async () => {
  let releaseAsk = () => undefined as void;
  const asks = new Promise<void>((resolve) => (releaseAsk = resolve));
  let releaseChat = () => undefined as void;
  const chats = new Promise<void>((resolve) => (releaseChat = resolve));
  bed.llm.respondWith(
    byRoute({
      'route-message': [reply.json({ kind: 'chat', reason: 'a question' })],
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [
        reply.after(reply.toolCall('ask_user', { kind: 'query', prompt: 'Who reads the brief?' }, 'q1'), asks),
        finish('done'),
      ],
      summary: [reply.text('The brief is written.')],
      chat: [reply.after(reply.text('Pricing: 10 dollars.'), chats)],
    }),
  );
  await withWorker(bed.config, async () => {
    // The answer's deadline is the test's: it ends once the first turn settled and the queued
    // message is being answered (its reply held); the client waits the SDK's default.
    const deadline = new AbortController();
    const { threads, server, openai } = await serveCairn({ chatAnswerDeadline: deadlineOr(deadline) });
    try {
      const { id: thread } = await threads.open({ text: 'write a brief', kind: 'task' });
      const headers = { 'X-Cairn-Thread': thread };
      await bed.llm.waitForRoute('step:s1');
      const queuing = openai.chat.completions.create(
        { model: 'cairn', messages: [{ role: 'user', content: 'and the pricing?' }] },
        { headers },
      );
      await waitUntil('the message queued', async () =>
        (await threads.get(thread)).turns[1]?.status === 'queued' ? true : undefined,
      );
      releaseAsk();
      await queuing; // ended at the question
      // The answer settles the first turn; the queued message's reply is held past the deadline.
      const answering = openai.chat.completions.create(
        { model: 'cairn', messages: [{ role: 'user', content: 'engineers' }] },
        { headers },
      );
      await waitUntil('the first turn settled, the queued message being answered', async () => {
        const turns = (await threads.get(thread)).turns;
        return turns[0]?.status === 'completed' &&
          turns[1]?.status === 'routing' &&
          bed.llm.requestsFor('chat').length > 0
          ? true
          : undefined;
      });
      deadline.abort();
      const answered = await answering;
      expect(answered.choices[0]?.message.content).toBe(
        'The brief is written.\n\n> and the pricing?\n\n' +
          `Not answered yet (its turn is routing). Its reply will be in thread ${thread}.`,
      );
      expect(cairnOf(answered)).toMatchObject({
        status: 'completed',
        queued: [{ messageId: 'msg-2', status: 'routing' }],
      });
      releaseChat();
      const settled = await waitUntil('the queued message answered', async () => {
        const view = await threads.get(thread);
        return view.turns[1]?.status === 'completed' ? view : undefined;
      });
      expect(settled.turns[1]?.reply).toBe('Pricing: 10 dollars.');
    } finally {
      releaseAsk();
      releaseChat();
      await server.close();
    }
  });
});

test('a failure once the message is recorded tells the SDK not to retry: the text is sent once', async () => {
  bed.llm.respondWith(byRoute({ chat: [reply.error(400, 'bad request')] }));
  await withWorker(bed.config, async () => {
    const { threads, server } = await serveCairn();
    // An SDK that would retry a 5xx twice, sending the text again each time.
    const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: TOKEN, maxRetries: 2 });
    try {
      const { id } = await threads.open();
      const failed = await openai.chat.completions
        .create({ model: 'cairn', messages: [{ role: 'user', content: 'hi' }], cairn: { kind: 'chat' } } as never, {
          headers: { 'X-Cairn-Thread': id },
        })
        .catch((err: unknown) => err);
      expect(failed).toBeInstanceOf(OpenAI.APIError);
      expect(failed).toMatchObject({ status: 502, code: 'LLM_REJECTED' });
      const headers: unknown = failed instanceof OpenAI.APIError ? failed.headers : undefined;
      expect(headers instanceof Headers ? headers.get('x-should-retry') : undefined).toBe('false');
      expect((await threads.get(id)).turns.map((t) => [t.text, t.status])).toEqual([['hi', 'failed']]);
      expect(bed.llm.requestsFor('chat')).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});

test('a streamed answer whose turn can no longer be read ends properly: the reason in cairn.failure, then [DONE]', async () => {
  let release = () => undefined as void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  bed.llm.respondWith(
    byRoute({
      'route-message': [reply.json({ kind: 'chat', reason: 'a greeting' })],
      chat: [reply.after(reply.text('Hello.'), gate)],
    }),
  );
  /** The thread client, whose reads fail once the turn is under way (as for a thread gone from the server). */
  class FailingReads extends ThreadClient {
    failing = false;
    override async get(id: string): Promise<ThreadView> {
      if (this.failing) throw new ClientError('NOT_FOUND', `no thread ${id}`);
      return super.get(id);
    }
  }
  await withWorker(bed.config, async () => {
    const threads = new FailingReads(bed.client, bed.config.taskQueue);
    const { server, openai } = await serveCairn({ threads });
    try {
      const { id } = await threads.open();
      const stream = await openai.chat.completions.create(
        { model: 'cairn', messages: [{ role: 'user', content: 'hi' }], stream: true },
        { headers: { 'X-Cairn-Thread': id } },
      );
      await bed.llm.waitForRoute('chat');
      threads.failing = true;
      const chunks: unknown[] = [];
      let content = '';
      for await (const chunk of stream) {
        chunks.push(chunk);
        content += chunk.choices[0]?.delta.content ?? '';
      }
      expect(content).toBe(`\n\nStopped following the turn (NOT_FOUND); its answer will be in thread ${id}.`);
      const last = z
        .object({ choices: z.array(z.object({ finish_reason: z.string().nullable() })), cairn: z.looseObject({}) })
        .parse(chunks.at(-1));
      expect(last.choices[0]?.finish_reason).toBe('stop');
      expect(last.cairn).toEqual({ failure: { code: 'NOT_FOUND', message: `no thread ${id}` } });
      release();
      threads.failing = false;
      await waitUntil('the reply written in the thread all the same', async () =>
        (await threads.get(id)).turns[0]?.status === 'completed' ? true : undefined,
      );
    } finally {
      release();
      await server.close();
    }
  });
});

test('not streamed, a chat reply still being written when the client would give up is answered from the recorded message', async () => {
  let release = () => undefined as void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  bed.llm.respondWith(
    byRoute({
      'route-message': [reply.json({ kind: 'chat', reason: 'a question' })],
      chat: [reply.after(reply.text('A long answer.'), gate)],
    }),
  );
  await withWorker(bed.config, async () => {
    const { threads, server, openai } = await serveCairn();
    try {
      const { id } = await threads.open();
      // The send is routed only once the reply is written (held until release): the answer goes
      // at the deadline all the same — 1.8 s, a little before the 2 s this client announces
      // (X-Stainless-Timeout, client-timeout.ts), while it would in fact wait 60 s.
      const data = await openai.chat.completions.create(
        { model: 'cairn', messages: [{ role: 'user', content: 'explain it all' }] },
        { headers: { 'X-Cairn-Thread': id, 'X-Stainless-Timeout': '2' }, timeout: 60_000 },
      );
      expect(cairnOf(data)).toMatchObject({ thread: id, messageId: 'msg-1', status: 'routing' });
      expect(data.choices[0]?.message.content).toBe(
        `Still working on it (the turn is routing). Its answer will be in thread ${id}: ` +
          `read it there (GET /api/threads/${id}), or send your next message with the X-Cairn-Thread header.`,
      );
      release();
      const settled = await waitUntil('the reply written', async () => {
        const view = await threads.get(id);
        return view.turns[0]?.status === 'completed' ? view : undefined;
      });
      expect(settled.turns.map((t) => [t.text, t.reply])).toEqual([['explain it all', 'A long answer.']]);
    } finally {
      release();
      await server.close();
    }
  });
});
