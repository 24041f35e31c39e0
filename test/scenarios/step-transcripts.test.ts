/**
 * Step transcripts (docs/contracts.md#step-transcripts) against the real dev server and the
 * scripted fake: what a step's model said each round — text, reasoning summary, tool calls with
 * their results — read by the `transcript` query over `GET /api/agents/:id/steps/:stepId/transcript`
 * and `cairn transcript`, while the step waits and after it closed; bounded to 64 KiB with the
 * oldest rounds dropped and counted; and adding nothing to the step's history.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { TRANSCRIPT_MAX_BYTES, type StepTranscript } from '../../workflows/contract/step-transcript';
import { quirk } from '../fake-llm/quirks';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { answer, startAgent, waitForInteraction } from '../harness/agents';
import { runCairn } from '../harness/cairn-cli';
import { recordHistory } from '../harness/histories';
import { testApp } from '../harness/http-app';
import { finish, plan, planReply, step } from '../harness/plans';
import { testConfig, withWorker } from '../harness/test-env';

const bed = agentTestbed();

const SAID = 'The notes belong in notes.md, so I will write them there.';
const THOUGHT = 'The user asked for notes; a file is the place.';

async function transcriptOverHttp(app: OpenAPIHono, id: string, stepId: string) {
  const res = await app.request(`/api/agents/${encodeURIComponent(id)}/steps/${stepId}/transcript`);
  return {
    status: res.status,
    body: (await res.json()) as StepTranscript & { error?: { code: string; field?: string } },
  };
}

test("a step's transcript: each round's text, reasoning and tool calls, while it waits and after it closed; HTTP and CLI", async () => {
  const workspace = mkdtempSync(join(tmpdir(), 'transcript-'));
  const config = testConfig(bed.llm, { CAIRN_WORKSPACE: workspace });
  const write = reply.toolCalls(
    [{ id: 'w1', name: 'write_file', arguments: { path: 'notes.md', content: '# Notes' } }],
    {
      content: SAID,
      quirks: { reasoningContent: THOUGHT },
    },
  );
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      // A text reply ends the step (its text is the result).
      'step:s1': [write, quirk.thinking('Written. \u001b[2JDone.', 'all good')],
      summary: [reply.text('done')],
    }),
  );
  await withWorker(config, async () => {
    const handle = await startAgent(bed.client, config, { task: 'write notes' });
    const app = testApp(bed.client, config.taskQueue);
    const approval = await waitForInteraction(handle, 'tool.approval', 's1');
    // Waiting for the approval: the round is there, its call pending, the model's words with it.
    const waiting = await transcriptOverHttp(app, handle.workflowId, 's1');
    expect(waiting.status).toBe(200);
    expect(waiting.body).toEqual({
      stepId: 's1',
      rounds: [
        {
          round: 1,
          text: SAID,
          reasoning: THOUGHT,
          toolCalls: [
            {
              callId: 'w1',
              name: 'write_file',
              arguments: '{"path":"notes.md","content":"# Notes"}',
              outcome: 'pending',
            },
          ],
        },
      ],
    });
    expect(approval.why).toBe(SAID);
    await answer(handle, approval.id, { decision: 'approve', digest: approval.digest });
    expect(await handle.result()).toMatchObject({ status: 'completed' });

    // Closed: the step still answers (its replay rebuilds the transcript).
    const closed = await transcriptOverHttp(app, handle.workflowId, 's1');
    expect(closed.status).toBe(200);
    const rounds = closed.body.rounds;
    expect(rounds.map((r) => r.round)).toEqual([1, 2]);
    expect(rounds[0]?.toolCalls).toEqual([
      expect.objectContaining({ callId: 'w1', name: 'write_file', outcome: 'ok', result: bed.llm.heardBack('w1') }),
    ]);
    expect(bed.llm.heardBack('w1')).toBeDefined();
    // A <think> block is reasoning, not text; the text keeps what the model wrote (escapes included).
    expect(rounds[1]).toEqual({ round: 2, text: 'Written. \u001b[2JDone.', reasoning: 'all good', toolCalls: [] });
    expect(closed.body.droppedRounds).toBeUndefined();

    // Unknown step and unknown agent: 404 NOT_FOUND, the step's named by its field.
    const noStep = await transcriptOverHttp(app, handle.workflowId, 's9');
    expect([noStep.status, noStep.body.error]).toEqual([
      404,
      expect.objectContaining({ code: 'NOT_FOUND', field: 'stepId' }),
    ]);
    const noAgent = await transcriptOverHttp(app, 'agent-nobody-00000000', 's1');
    expect(noAgent.status).toBe(404);
    expect(noAgent.body.error).toMatchObject({ code: 'NOT_FOUND' });
    expect(noAgent.body.error?.field).toBeUndefined();

    // The CLI prints it readably, the model's escape sequence spelled out, not obeyed.
    const cli = await runCairn(['transcript', handle.workflowId, 's1'], { CAIRN_TASK_QUEUE: config.taskQueue });
    expect(cli.stderr).toBe('');
    expect(cli.code).toBe(0);
    expect(cli.stdout).toContain(`round 1\n  reasoning:\n    ${THOUGHT}\n  said:\n    ${SAID}\n  → write_file`);
    expect(cli.stdout).toContain('[ok]');
    expect(cli.stdout).toContain('Written. \\u001b[2JDone.');
    expect(cli.stdout).not.toContain('\u001b');
    await recordHistory('step-transcript-approval-why', bed.client.workflow.getHandle(`${handle.workflowId}/step-s1`));
  });
});

test('a long step keeps at most 64 KiB: the oldest rounds dropped and counted, the newest kept; its history per round unchanged', async () => {
  const ROUNDS = 30;
  const big = (n: number) => `round ${n}: ${'é'.repeat(3000)}`;
  const replies = Array.from({ length: ROUNDS - 1 }, (_, i) =>
    reply.toolCalls([{ name: 'list_files', arguments: {} }], { content: big(i + 1) }),
  );
  const workspace = mkdtempSync(join(tmpdir(), 'transcript-long-'));
  const config = testConfig(bed.llm, { CAIRN_WORKSPACE: workspace });
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [...replies, finish('listed')],
      summary: [reply.text('done')],
    }),
  );
  await withWorker(config, async () => {
    const handle = await startAgent(bed.client, config, {
      task: 'list a lot',
      limits: { maxStepRounds: 40, maxIdenticalCalls: 100 },
    });
    await handle.result();
    const app = testApp(bed.client, config.taskQueue);
    const { status, body } = await transcriptOverHttp(app, handle.workflowId, 's1');
    expect(status).toBe(200);
    const bytes = Buffer.byteLength(JSON.stringify(body.rounds), 'utf8');
    expect(bytes).toBeLessThanOrEqual(TRANSCRIPT_MAX_BYTES);
    const kept = body.rounds.map((r) => r.round);
    expect(kept.at(-1)).toBe(ROUNDS);
    expect(body.droppedRounds).toBeGreaterThan(0);
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => (body.droppedRounds ?? 0) + 1 + i));
    expect(body.rounds.at(-2)?.text).toBe(big(ROUNDS - 1));
    // Each call under the model's own id for it.
    expect(body.rounds.at(-1)?.toolCalls.map(({ callId, ...call }) => [typeof callId, call])).toEqual([
      ['string', { name: 'finish_step', arguments: '{"result":"listed"}', outcome: 'ok', result: 'ok' }],
    ]);
    // Nothing of the transcript is written to history: every round of the step adds the same
    // events (its model call, its tool call, its report), however much the transcript holds.
    const events = (await bed.client.workflow.getHandle(`${handle.workflowId}/step-s1`).fetchHistory()).events ?? [];
    const perRound: number[] = [];
    for (const event of events) {
      const scheduled = event.activityTaskScheduledEventAttributes;
      if (scheduled?.activityType?.name === 'callLlm') perRound.push(0);
      else if (perRound.length > 0) perRound[perRound.length - 1] = (perRound.at(-1) ?? 0) + 1;
    }
    expect(perRound).toHaveLength(ROUNDS);
    // The first rounds travel their conversation inline, the last one finishes: the middle is flat.
    const middle = perRound.slice(2, -1);
    expect(new Set(middle).size).toBe(1);
  });
});
