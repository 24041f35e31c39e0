/**
 * A refused answer keeps its code and field end to end: the `answer` update's validator rejects
 * with a coded failure (`type` = NOT_OPEN or INVALID_ANSWER, `details[0]` = `{ code, field }`),
 * and the HTTP API answers with exactly that code and field (409 / 400) — for an unknown
 * interaction, a closed one, an answer of the wrong kind, a broken form field rule and a stale
 * approval digest — as does the client library's ClientError. Each refusal changes nothing.
 * Against the real dev server and the scripted LLM.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { ApplicationFailure, WorkflowUpdateFailedError } from '@temporalio/client';
import { AgentClient } from '../../client/agents/agent-client';
import { ClientError } from '../../client/client-error';
import type { Interaction } from '../../workflows/model/interactions/interaction-types';
import { approvalDigest } from '../../workflows/step/approval-digest';
import { reply, said } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { postJson, stateOverHttp, appOver } from '../harness/http-app';
import { answer, agentFile } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { expectNothingChanged } from '../harness/nothing-changed';
import { testConfig, withWorker } from '../harness/test-env';
import { waitUntil } from '../../testkit/wait-until';

const bed = agentTestbed();

/** A refusal as each path reports it: code, field and message. */
interface Refusal {
  code: string;
  field?: string;
  message: string;
}

const FIELDS = [
  { key: 'title', label: 'Title', type: 'input', required: true },
  { key: 'pages', label: 'Pages', type: 'number', required: true, min: 1, max: 20 },
];
const WRITE = { path: 'report.txt', content: 'the report' };

const post = postJson;

const stateOf = stateOverHttp;

function openInteraction(app: OpenAPIHono, id: string, kind: Interaction['kind']): Promise<Interaction> {
  return waitUntil(`an open ${kind}`, async () =>
    (await stateOf(app, id)).interactions.find((i) => i.kind === kind && i.status === 'open'),
  );
}

/** The HTTP API's verdict on an answer: status and error body. */
async function overHttp(app: OpenAPIHono, id: string, body: unknown): Promise<{ status: number; error: Refusal }> {
  const res = await post(app, `/api/agents/${id}/answers`, body);
  return { status: res.status, error: ((await res.json()) as { error: Refusal }).error };
}

/** The `answer` update's own failure: its type, its first detail's field, its message. */
async function overUpdate(id: string, body: { interactionId: string; answer: unknown }) {
  const handle = bed.client.workflow.getHandle(id);
  const err: unknown = await answer(handle, body.interactionId, body.answer).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof WorkflowUpdateFailedError) || !(err.cause instanceof ApplicationFailure)) {
    throw new Error(`expected a coded update failure, got ${String(err)}`);
  }
  const [detail] = err.cause.details ?? [];
  return { code: err.cause.type, detail, message: err.cause.message };
}

/** The client library's verdict on an answer. */
async function overClient(agents: AgentClient, id: string, body: { interactionId: string; answer: unknown }) {
  const err: unknown = await agents.answer(id, body).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof ClientError)) throw new Error(`expected a ClientError, got ${String(err)}`);
  return { code: err.code, field: err.field, message: err.message };
}

test('the HTTP API and the client library return the update’s code and field; nothing changes', async () => {
  const config = testConfig(bed.llm, { CAIRN_WORKSPACE: mkdtempSync(join(tmpdir(), 'answer-codes-')) });
  bed.llm.respondWith(
    byRoute({
      plan: [
        reply.toolCall('ask_user', { kind: 'form', prompt: 'Details?', fields: FIELDS }, 'ask-f'),
        planReply(plan([step('s1')])),
      ],
      'step:s1': [
        said('The report is ready to save.', reply.toolCall('write_file', WRITE, 'w1')),
        finish('wrote the report'),
      ],
      summary: [reply.text('done')],
    }),
  );
  await withWorker(config, async () => {
    const agents = new AgentClient(bed.client, config.taskQueue);
    const app = appOver(agents);
    const started = await post(app, '/api/agents', { task: 'Write the report', mode: { ask: true } });
    expect(started.status).toBe(201);
    const { id } = (await started.json()) as { id: string };

    /**
     * Sends `body` over HTTP, by raw update and through the client library, each changing nothing
     * while `openId` waits; all three must report `expected`, and HTTP with `status`.
     */
    const refusedEverywhere = async (
      openId: string,
      body: { interactionId: string; answer: unknown },
      status: number,
      expected: { code: string; field: string; message: RegExp },
    ) => {
      const unchanged = <T>(reject: () => Promise<T>) =>
        expectNothingChanged(() => stateOf(app, id), bed.llm, openId, reject);
      const http = await unchanged(() => overHttp(app, id, body));
      const update = await unchanged(() => overUpdate(id, body));
      const client = await unchanged(() => overClient(agents, id, body));
      expect(update).toMatchObject({ code: expected.code, detail: { code: expected.code, field: expected.field } });
      expect(update.message).toMatch(expected.message);
      // The HTTP body and the ClientError carry the update's code, field and message as they are.
      expect(http).toEqual({ status, error: { code: update.code, field: expected.field, message: update.message } });
      expect(client).toEqual({ code: update.code, field: expected.field, message: update.message });
    };

    const form = await openInteraction(app, id, 'ask.form');
    await refusedEverywhere(form.id, { interactionId: 'i999', answer: { values: { title: 'R', pages: 3 } } }, 409, {
      code: 'NOT_OPEN',
      field: 'interactionId',
      message: /^no interaction "i999"$/,
    });
    await refusedEverywhere(form.id, { interactionId: form.id, answer: { decision: 'approve', digest: 'x' } }, 400, {
      code: 'INVALID_ANSWER',
      field: 'answer',
      message: /values: required/,
    });
    await refusedEverywhere(form.id, { interactionId: form.id, answer: { values: { title: 'R', pages: 30 } } }, 400, {
      code: 'INVALID_ANSWER',
      field: 'answer.values.pages',
      message: /values\.pages: must be at most 20/,
    });
    const accepted = await post(app, `/api/agents/${id}/answers`, {
      interactionId: form.id,
      answer: { values: { title: 'R', pages: 3 } },
    });
    expect(accepted.status).toBe(200);

    const approval = await openInteraction(app, id, 'tool.approval');
    if (approval.kind !== 'tool.approval') throw new Error('not an approval');
    expect(approval.digest).toBe(approvalDigest('write_file', WRITE));
    const stale = approvalDigest('write_file', { ...WRITE, content: 'something else' });
    await refusedEverywhere(
      approval.id,
      { interactionId: approval.id, answer: { decision: 'approve', digest: stale } },
      400,
      {
        code: 'INVALID_ANSWER',
        field: 'answer.digest',
        message: /other arguments/,
      },
    );
    // The form is answered now: a second answer to it is refused, and its first answer stands.
    await refusedEverywhere(
      approval.id,
      { interactionId: form.id, answer: { values: { title: 'X', pages: 9 } } },
      409,
      {
        code: 'NOT_OPEN',
        field: 'interactionId',
        message: /is already answered/,
      },
    );

    await agents.answer(id, { interactionId: approval.id, answer: { decision: 'approve', digest: approval.digest } });
    await expect(agents.result(id)).resolves.toMatchObject({ status: 'completed' });
    const done = await stateOf(app, id);
    expect(done.interactions.map((i) => [i.kind, i.status, i.answer])).toEqual([
      ['ask.form', 'answered', { values: { title: 'R', pages: 3 } }],
      ['tool.approval', 'answered', { decision: 'approve', digest: approval.digest }],
    ]);
    expect(readFileSync(agentFile(config.workspace, id, WRITE.path), 'utf8')).toBe(WRITE.content);
  });
});
