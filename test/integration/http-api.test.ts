/**
 * The HTTP API (docs/contracts.md#http-api) against the real dev server and the scripted LLM, driven with
 * `app.request`: every route's success, every error code, bearer auth, the body limit, the
 * resumable event stream (no duplicates, no gaps, ends with the agent) and the OpenAPI document.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import { AgentClient } from '../../client/agents/agent-client';
import { ClientError } from '../../client/client-error';
import type { AppDeps } from '../../client/http/create-app';
import type { AgentSummary } from '../../client/agents/agent-client';
import type { AgentEvent, AgentState } from '../../workflows/model/agent/agent-state';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { finish, plan, planReply, step } from '../harness/plans';
import { expectNothingChanged } from '../harness/nothing-changed';
import { withWorker } from '../harness/test-env';
import { waitUntil } from '../../testkit/wait-until';
import { testApp } from '../harness/http-app';

const bed = agentTestbed();
const TOKEN = 'a-test-token-that-is-long-enough';

interface ErrorDetail {
  code: string;
  message: string;
  field?: string;
}

/** An app on the test's queue, polling fast so stream tests do not wait. */
function appFor(extra: Partial<AppDeps> = {}): OpenAPIHono {
  return testApp(bed.client, bed.config.taskQueue, { eventTiming: { pollMs: 50, heartbeatMs: 100 }, ...extra });
}

function post(app: OpenAPIHono, path: string, body: unknown, headers: Record<string, string> = {}) {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  return app.request(path, { method: 'POST', body: raw, headers: { 'content-type': 'application/json', ...headers } });
}

async function errorOf(res: Response): Promise<ErrorDetail> {
  return ((await res.json()) as { error: ErrorDetail }).error;
}

async function stateOf(app: OpenAPIHono, id: string, query = ''): Promise<AgentState> {
  const res = await app.request(`/api/agents/${id}${query}`);
  if (res.status !== 200) throw new Error(`state of ${id}: ${res.status}`);
  return (await res.json()) as AgentState;
}

function waitForPhase(app: OpenAPIHono, id: string, phase: AgentState['phase']): Promise<AgentState> {
  return waitUntil(`agent ${id} is ${phase}`, async () => {
    const state = await stateOf(app, id);
    return state.phase === phase ? state : undefined;
  });
}

async function listed(app: OpenAPIHono, query: string): Promise<AgentSummary[]> {
  const res = await app.request(`/api/agents?${query}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { agents: AgentSummary[] }).agents;
}

/** One SSE frame as read: a comment, or an event with its id, type and data. */
type Frame = { comment: string } | { id: string; event: string; data: AgentEvent };

function parseFrame(text: string): Frame {
  if (text.startsWith(':')) return { comment: text.slice(1).trim() };
  const fields = Object.fromEntries(
    text.split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
  ) as Record<string, string>;
  return { id: fields.id ?? '', event: fields.event ?? '', data: JSON.parse(fields.data ?? 'null') as AgentEvent };
}

/** Reads frames until `enough` says so (then disconnects) or the server ends the stream. */
async function readFrames(res: Response, enough: (frames: Frame[]) => boolean = () => false) {
  const reader: ReadableStreamDefaultReader<Uint8Array> = (res.body ?? new ReadableStream<Uint8Array>()).getReader();
  const decoder = new TextDecoder();
  const frames: Frame[] = [];
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { frames, ended: true };
    buffer += decoder.decode(value, { stream: true });
    for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n')) {
      frames.push(parseFrame(buffer.slice(0, cut)));
      buffer = buffer.slice(cut + 2);
    }
    if (enough(frames)) {
      await reader.cancel();
      return { frames, ended: false };
    }
  }
}

const eventsIn = (frames: Frame[]) => frames.flatMap((f) => ('data' in f ? [f] : []));

const confirmScript = (...stepIds: string[]) =>
  byRoute({
    plan: [planReply(plan(stepIds.map((id, i) => step(id, i === 0 ? [] : [stepIds[i - 1] ?? '']))))],
    ...Object.fromEntries(stepIds.map((id) => [`step:${id}`, [finish(`result of ${id}`)]])),
    summary: [reply.text('all done')],
  });

test('start, read, list, answer (400 / 200 / 409) and read with a cursor', async () => {
  bed.llm.respondWith(confirmScript('s1'));
  await withWorker(bed.config, async () => {
    const app = appFor();
    const started = await post(app, '/api/agents', { task: 'Needs a human', mode: { confirmPlan: true } });
    expect(started.status).toBe(201);
    const { id } = (await started.json()) as { id: string };
    expect(id).toMatch(/^agent-needs-a-human-[0-9a-f]{8}$/);
    const waiting = await waitForPhase(app, id, 'awaiting_input');
    const check = waiting.interactions.find((i) => i.kind === 'plan.check' && i.status === 'open');
    expect(check).toBeDefined();
    const interactionId = check?.id ?? '';
    const awaiting = await waitUntil('the list shows the agent waiting', async () =>
      (await listed(app, 'awaitingInput=true')).find((a) => a.id === id),
    );
    expect(awaiting).toMatchObject({ task: 'Needs a human', phase: 'awaiting_input', awaitingInput: true });
    expect((await listed(app, 'awaitingInput=false')).map((a) => a.id)).not.toContain(id);

    const answers = `/api/agents/${id}/answers`;
    const refused = (body: unknown) =>
      expectNothingChanged(
        () => stateOf(app, id),
        bed.llm,
        interactionId,
        async () => {
          const res = await post(app, answers, body);
          return { status: res.status, error: await errorOf(res) };
        },
      );
    expect(await refused({ interactionId, answer: { decision: 'maybe' } })).toMatchObject({
      status: 400,
      error: { code: 'INVALID_ANSWER', field: 'answer.decision' },
    });
    expect(await refused({ answer: { decision: 'confirm' } })).toMatchObject({
      status: 400,
      error: { code: 'INVALID_INPUT', field: 'interactionId' },
    });
    expect(await refused({ interactionId })).toMatchObject({
      status: 400,
      error: { code: 'INVALID_INPUT', field: 'answer' },
    });
    const ok = await post(app, answers, { interactionId, answer: { decision: 'confirm' }, by: 'carol' });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ interactionId, answer: { decision: 'confirm' } });
    // A second answer — one that would change the outcome — must not replace the first.
    for (const closed of [interactionId, 'i999']) {
      const again = await post(app, answers, { interactionId: closed, answer: { decision: 'cancel' }, by: 'mallory' });
      expect(again.status).toBe(409);
      expect(await errorOf(again)).toMatchObject({ code: 'NOT_OPEN' });
    }

    const done = await waitForPhase(app, id, 'completed');
    expect(done.interactions.map((i) => [i.id, i.status, i.by, i.answer])).toEqual([
      [interactionId, 'answered', 'carol', { decision: 'confirm' }],
    ]);
    expect(done.events.filter((e) => e.type === 'interaction.answered')).toHaveLength(1);
    expect(bed.llm.requestsFor('plan')).toHaveLength(1);
    const half = Math.floor(done.eventSeq / 2);
    const since = await stateOf(app, id, `?afterSeq=${half}`);
    expect(since.events.map((e) => e.seq)).toEqual(done.events.filter((e) => e.seq > half).map((e) => e.seq));
    expect(since.events.length).toBeLessThan(done.events.length);
    const completed = await waitUntil('the list shows the agent completed', async () =>
      (await listed(app, 'phase=completed&limit=50')).find((a) => a.id === id),
    );
    expect(completed).toMatchObject({ phase: 'completed', awaitingInput: false });
  });
});

test('cancel answers 202 and the agent ends cancelled', async () => {
  bed.llm.respondWith(byRoute({ plan: [planReply(plan([step('s1')]))] }));
  await withWorker(bed.config, async () => {
    const app = appFor();
    const { id } = (await (
      await post(app, '/api/agents', { task: 'Cancel me', mode: { confirmPlan: true } })
    ).json()) as {
      id: string;
    };
    await waitForPhase(app, id, 'awaiting_input');
    const res = await app.request(`/api/agents/${id}/cancel`, { method: 'POST' });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ id });
    await waitForPhase(app, id, 'cancelled');
  });
});

test('the event stream resumes from Last-Event-ID with no duplicates or gaps and ends with the agent', async () => {
  bed.llm.respondWith(confirmScript('s1', 's2'));
  await withWorker(bed.config, async () => {
    const app = appFor();
    const { id } = (await (
      await post(app, '/api/agents', { task: 'Stream me', mode: { confirmPlan: true } })
    ).json()) as {
      id: string;
    };
    const res = await app.request(`/api/agents/${id}/events`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const opened = (frames: Frame[]) => eventsIn(frames).some((f) => f.event === 'interaction.opened');
    // Wait past the plan check for a heartbeat: nothing else happens until someone answers.
    const first = await readFrames(res, (frames) => opened(frames) && 'comment' in (frames.at(-1) ?? {}));
    expect(first.ended).toBe(false);
    expect(first.frames.at(-1)).toEqual({ comment: 'heartbeat' });
    const before = eventsIn(first.frames);
    for (const f of before) expect([f.id, f.event]).toEqual([String(f.data.seq), f.data.type]);

    const interactionId = before.find((f) => f.event === 'interaction.opened')?.data.interactionId ?? '';
    expect(
      (await post(app, `/api/agents/${id}/answers`, { interactionId, answer: { decision: 'confirm' } })).status,
    ).toBe(200);
    const lastSeen = before.at(-1)?.id ?? '';
    const resumed = await readFrames(
      await app.request(`/api/agents/${id}/events`, { headers: { 'Last-Event-ID': lastSeen } }),
    );
    expect(resumed.ended).toBe(true);
    const union = [...before, ...eventsIn(resumed.frames)].map((f) => f.data.seq);
    const final = await stateOf(app, id);
    expect(final.phase).toBe('completed');
    expect(union).toEqual(Array.from({ length: final.eventSeq }, (_, i) => i + 1));
    expect(eventsIn(resumed.frames).at(-1)?.event).toBe('agent.finished');

    const half = Math.floor(final.eventSeq / 2);
    const byQuery = await readFrames(await app.request(`/api/agents/${id}/events?lastEventId=${half}`));
    expect(byQuery.ended).toBe(true);
    expect(eventsIn(byQuery.frames).map((f) => f.data.seq)).toEqual(union.filter((seq) => seq > half));
  });
});

/** A client that counts the state reads no worker answered. */
class CountingClient extends AgentClient {
  unanswered = 0;
  override async state(id: string, afterSeq?: number): Promise<AgentState> {
    try {
      return await super.state(id, afterSeq);
    } catch (err) {
      if (err instanceof ClientError && err.code === 'AGENT_UNAVAILABLE') this.unanswered += 1;
      throw err;
    }
  }
}

test('with no worker, reads are 503 AGENT_UNAVAILABLE, a pause waits for the next worker, and the event stream waits, then goes on', async () => {
  bed.llm.respondWith(confirmScript('s1'));
  // A short query timeout, so the test does not wait out the default.
  const agents = new CountingClient(bed.client, bed.config.taskQueue, true, 1500);
  const app = appFor({ agents });
  let id = '';
  let stream: Promise<{ frames: Frame[]; ended: boolean }> | undefined;
  await withWorker(bed.config, async () => {
    const started = await post(app, '/api/agents', { task: 'Outlive the worker', mode: { confirmPlan: true } });
    id = ((await started.json()) as { id: string }).id;
    await waitForPhase(app, id, 'awaiting_input');
    const res = await app.request(`/api/agents/${id}/events`);
    expect(res.status).toBe(200);
    stream = readFrames(res);
  });
  // The worker is gone: a read is refused as unavailable, not as an internal error.
  const refused = await app.request(`/api/agents/${id}`);
  expect(refused.status).toBe(503);
  expect(await errorOf(refused)).toMatchObject({ code: 'AGENT_UNAVAILABLE' });
  // The stream meets the same and keeps waiting (a direct read counts once).
  await waitUntil('the stream met an unanswered read', () => (agents.unanswered >= 2 ? true : undefined));
  // A pause is not refused nor lost: no worker takes the update, so it waits as the signal.
  const paused = await post(app, `/api/agents/${id}/pause`, { reason: 'outage' });
  expect(paused.status).toBe(202);
  await withWorker(bed.config, async () => {
    const held = await waitForPhase(app, id, 'paused');
    expect(held.hold).toMatchObject({ reasons: ['pause'], by: 'anonymous', reason: 'outage' });
    expect((await post(app, `/api/agents/${id}/resume`, {})).status).toBe(202);
    const state = await waitForPhase(app, id, 'awaiting_input');
    const check = state.interactions.find((i) => i.kind === 'plan.check' && i.status === 'open');
    const answered = await post(app, `/api/agents/${id}/answers`, {
      interactionId: check?.id,
      answer: { decision: 'confirm' },
    });
    expect(answered.status).toBe(200);
    const read = await stream;
    expect(read?.ended).toBe(true);
    const final = await stateOf(app, id);
    expect(final.phase).toBe('completed');
    // Every event once, in order, across the time without a worker.
    const seqs = eventsIn(read?.frames ?? []).map((f) => f.data.seq);
    expect(seqs).toEqual(Array.from({ length: final.eventSeq }, (_, i) => i + 1));
    expect(read?.frames.some((f) => 'event' in f && f.event === 'error')).toBe(false);
  });
});

test('bad input is 400 with the field, unknown agents and routes 404, big bodies 413', async () => {
  const app = appFor({ maxBodyBytes: 64 * 1024 });
  const cases: [Response | Promise<Response>, number, Partial<ErrorDetail>][] = [
    [post(app, '/api/agents', { task: '' }), 400, { code: 'INVALID_INPUT', field: 'task' }],
    [post(app, '/api/agents', { task: 'x', limits: { maxAsks: 9 } }), 400, { field: 'limits.maxAsks' }],
    [post(app, '/api/agents', '{"task": "unfinished'), 400, { code: 'INVALID_INPUT' }],
    [app.request('/api/agents?limit=many'), 400, { code: 'INVALID_INPUT', field: 'limit' }],
    [app.request('/api/agents?phase=sleeping'), 400, { field: 'phase' }],
    [app.request('/api/agents/agent-x?afterSeq=-1'), 400, { field: 'afterSeq' }],
    [
      app.request('/api/agents/agent-x/events', { headers: { 'Last-Event-ID': 'soon' } }),
      400,
      { field: 'last-event-id' },
    ],
    [app.request('/api/agents/agent-nope-00000000'), 404, { code: 'NOT_FOUND' }],
    [app.request('/api/agents/agent-nope-00000000/events'), 404, { code: 'NOT_FOUND' }],
    [
      post(app, '/api/agents/agent-nope-00000000/answers', { interactionId: 'i1', answer: {} }),
      404,
      { code: 'NOT_FOUND' },
    ],
    [app.request('/api/agents/agent-nope-00000000/cancel', { method: 'POST' }), 404, { code: 'NOT_FOUND' }],
    [app.request('/api/nothing-here'), 404, { code: 'NOT_FOUND' }],
    [app.request('/api/agents', { method: 'DELETE' }), 404, { code: 'NOT_FOUND' }],
    [post(app, '/api/agents', { task: 'x'.repeat(80 * 1024) }), 413, { code: 'PAYLOAD_TOO_LARGE' }],
  ];
  for (const [pending, status, error] of cases) {
    const res = await pending;
    expect({ status: res.status, error: await errorOf(res) }).toMatchObject({ status, error });
  }
  // Just under the limit the body is read and validated (the task is too long), not refused.
  const under = await post(app, '/api/agents', { task: 'x'.repeat(60 * 1024) });
  expect(await errorOf(under)).toMatchObject({ code: 'INVALID_INPUT', field: 'task' });
});

test('with a token every /api route needs the bearer; /healthz stays open', async () => {
  const app = appFor({ apiToken: TOKEN });
  for (const authorization of [undefined, 'Bearer wrong-token-of-some-length', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
    for (const path of ['/api/agents', '/api/openapi.json', '/api/agents/agent-nope-00000000']) {
      const res = await app.request(path, authorization ? { headers: { authorization } } : {});
      expect({ path, status: res.status, error: await errorOf(res) }).toMatchObject({
        path,
        status: 401,
        error: { code: 'UNAUTHORIZED' },
      });
    }
  }
  const unauthenticatedPost = await post(app, '/api/agents', { task: '' });
  expect(unauthenticatedPost.status).toBe(401);
  const headers = { authorization: `Bearer ${TOKEN}` };
  expect((await app.request('/api/agents?limit=1', { headers })).status).toBe(200);
  expect((await app.request('/api/agents/agent-nope-00000000', { headers })).status).toBe(404);
  expect((await post(app, '/api/agents', { task: '' }, headers)).status).toBe(400);
  expect((await app.request('/healthz')).status).toBe(200);
  const doc = (await (await app.request('/api/openapi.json', { headers })).json()) as {
    components: { securitySchemes?: Record<string, unknown> };
  };
  expect(doc.components.securitySchemes).toHaveProperty('bearerAuth');
});

test('the OpenAPI document lists every route with its schemas', async () => {
  const doc = (await (await appFor().request('/api/openapi.json')).json()) as {
    paths: Record<string, Record<string, unknown>>;
    components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
  };
  const routes = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`));
  expect(routes.sort()).toEqual(
    [
      'get /healthz',
      'get /api/me',
      'get /api/agents/{id}/audit',
      'post /api/agents',
      'get /api/agents',
      'get /api/agents/{id}',
      'post /api/agents/{id}/answers',
      'post /api/agents/{id}/cancel',
      'post /api/agents/{id}/pause',
      'post /api/agents/{id}/resume',
      'get /api/agents/{id}/events',
      'get /api/agents/{id}/stream',
      'get /api/agents/{id}/steps/{stepId}/transcript',
      'get /api/agents/{id}/files',
      'get /api/agents/{id}/files/{path}',
      'get /api/graphs',
      'get /api/agent-definitions',
      'get /api/agent-definitions/{name}',
      'get /api/tools',
    ].sort(),
  );
  expect(Object.keys(doc.components.schemas.AgentInput?.properties ?? {})).toEqual(
    expect.arrayContaining(['task', 'mode', 'limits', 'model', 'graph', 'graphName']),
  );
  expect(Object.keys(doc.components.schemas.AgentFiles?.properties ?? {}).sort()).toEqual([
    'files',
    'truncated',
    'workspace',
  ]);
  expect(Object.keys(doc.components.schemas.AnswerInput?.properties ?? {}).sort()).toEqual([
    'answer',
    'by',
    'interactionId',
  ]);
});
