/**
 * Key rotation (docs/operations.md#rotating-keys): agents started under key A wait for an answer;
 * the workers restart with key B current and A kept for reading; every agent completes, every
 * payload of its histories is encrypted (test/harness/encryption-scan.ts), and the payloads
 * written after the rotation name B. Once A is removed, the old histories no longer
 * decode — the error names key A — and the worker that met them keeps running.
 */
import { randomBytes } from 'node:crypto';
import type { Payload } from '@temporalio/common';
import { cairnDataConverter } from '../../temporal/payloads/data-converter';
import { KEY_ID_METADATA } from '../../temporal/payloads/encryption-codec';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { scanEncryption } from '../harness/encryption-scan';
import { agentTestbed } from '../harness/agent-testbed';
import { answer, waitForInteraction, type AgentHandle } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { closeClient, connectClient, testConfig, uniqueId, withWorker } from '../harness/test-env';
import { agentWorkflow } from '../../workflows/agent/agent-workflow';
import { stateQuery } from '../../workflows/contract/messages';

const bed = agentTestbed();
const AGENTS = 3;
const keyA = `a:${randomBytes(32).toString('base64')}`;
const keyB = `b:${randomBytes(32).toString('base64')}`;

/** The key ids the payloads of `handle`'s history name, event by event, with the event's attributes name. */
async function keyIdsOf(handle: AgentHandle): Promise<{ type: string; keyIds: string[] }[]> {
  const events = (await handle.fetchHistory()).events ?? [];
  return events.map((event) => {
    const keyIds: string[] = [];
    const visit = (node: unknown): void => {
      if (!node || typeof node !== 'object') return;
      if (ArrayBuffer.isView(node)) return;
      const metadata = (node as Payload).metadata;
      const id = metadata?.[KEY_ID_METADATA];
      if (id) keyIds.push(Buffer.from(id).toString('utf8'));
      Object.values(node).forEach(visit);
    };
    visit(event);
    const type = Object.keys(event).find((k) => k.endsWith('EventAttributes') && event[k as keyof typeof event]);
    return { type: type ?? 'unknown', keyIds };
  });
}

test('agents started under key A complete after B becomes current; without A their histories name A when they fail to decode', async () => {
  const taskQueue = uniqueId('rotation-queue');
  const configFor = (keys: string) => testConfig(bed.llm, { CAIRN_TASK_QUEUE: taskQueue, CAIRN_ENCRYPTION_KEYS: keys });
  const underA = configFor(keyA);
  const rotated = configFor(`${keyB},${keyA}`);
  const onlyB = configFor(keyB);
  const times = <T>(value: T) => Array.from({ length: AGENTS }, () => value);
  bed.llm.respondWith(
    byRoute({
      plan: times(planReply(plan([step('s1')]))),
      'step:s1': [
        ...times(reply.toolCall('ask_user', { kind: 'query', prompt: 'Which region?' }, 'q')),
        ...times(finish('region noted')),
      ],
      summary: times(reply.text('done')),
    }),
  );
  const clientA = await connectClient(undefined, underA);
  const clientRotated = await connectClient(undefined, rotated);
  const clientB = await connectClient(undefined, onlyB);
  try {
    // Under key A: every agent reaches its question.
    const ids = await withWorker(underA, async () => {
      const started: string[] = [];
      for (let i = 0; i < AGENTS; i++) {
        const handle = await clientA.workflow.start(agentWorkflow, {
          taskQueue,
          workflowId: uniqueId('agent-rotation'),
          args: [{ task: `rotation ${i}` }],
        });
        await waitForInteraction(handle, 'ask.query', 's1');
        started.push(handle.workflowId);
      }
      return started;
    });

    // B current, A kept: answered and completed.
    await withWorker(rotated, async () => {
      for (const id of ids) {
        const handle: AgentHandle = clientRotated.workflow.getHandle(id);
        const question = await waitForInteraction(handle, 'ask.query', 's1');
        await answer(handle, question.id, { text: 'eu-west' });
      }
      for (const id of ids) {
        expect(await clientRotated.workflow.getHandle(id).result()).toMatchObject({ status: 'completed' });
      }
    });
    for (const id of ids) {
      // Every payload of the agent's and its step's histories is encrypted, under A or B.
      const histories = await Promise.all(
        [id, `${id}/step-s1`].map((wf) => clientRotated.workflow.getHandle(wf).fetchHistory()),
      );
      const scan = scanEncryption(...histories);
      expect(scan.unencrypted).toEqual([]);
      expect(new Set(scan.payloads.map((p) => p.keyId))).toEqual(new Set(['a', 'b']));
      const events = await keyIdsOf(clientRotated.workflow.getHandle(id));
      expect(events[0]?.keyIds).toContain('a'); // the input, written under A
      const completed = events.find((e) => e.type === 'workflowExecutionCompletedEventAttributes');
      expect(completed?.keyIds).toEqual(['b']);
      // None written after the rotation names A.
      const answeredAt = events.findIndex((e) => e.type === 'workflowExecutionUpdateAcceptedEventAttributes');
      expect(answeredAt).toBeGreaterThan(0);
      expect(events.slice(answeredAt).flatMap((e) => e.keyIds)).not.toContain('a');
    }

    // A removed: reading an old history fails, naming key A; the worker goes on.
    const [first = ''] = ids;
    const started = (await clientB.workflow.getHandle(first).fetchHistory()).events?.[0];
    const input = started?.workflowExecutionStartedEventAttributes?.input?.payloads ?? [];
    const codecs = cairnDataConverter(onlyB.payloads).payloadCodecs ?? [];
    let payloads: Payload[] = input;
    const decodeError = await (async () => {
      for (const codec of [...codecs].reverse()) payloads = await codec.decode(payloads);
    })().catch((err: unknown) => err);
    expect(String(decodeError)).toMatch(/encrypted with key "a", which is not among the configured keys/);
    await withWorker(onlyB, async (worker) => {
      const handle: AgentHandle = clientB.workflow.getHandle(first);
      await expect(handle.query(stateQuery)).rejects.toThrow(/key "a"/);
      expect(worker.getState()).toBe('RUNNING');
    });
  } finally {
    await closeClient(clientA);
    await closeClient(clientRotated);
    await closeClient(clientB);
  }
}, 180_000);
