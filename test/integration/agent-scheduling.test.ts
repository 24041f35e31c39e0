/**
 * Acceptance 4 — scheduling on a diamond and an unbalanced DAG: dependencies first, independent
 * steps overlapping, the parallelism cap, dependency-only prompts, and child workflow ids.
 * Overlap is proven by causality, not a stopwatch: the scripted model holds a step's reply
 * until a sibling's request has arrived (holds.ts), so a scheduler that runs them one after
 * the other leaves the hold unreleased and the test fails saying which request never came.
 * Orderings ("starts after its dependencies ended") are read from the fake's timestamps,
 * which a correct scheduler can never violate however slow the machine.
 */
import type { RequestMatch } from '../fake-llm/holds';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import type { RecordedRequest } from '../fake-llm/scripted-llm';
import { agentTestbed } from '../harness/agent-testbed';
import { startAgent } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { recordHistory } from '../harness/histories';
import { withWorker } from '../harness/test-env';

const bed = agentTestbed();

interface Span {
  start: number;
  end: number;
  prompt: string;
}

/** [first request received, last answer sent] of each step, from the fake's records. */
function spans(requests: RecordedRequest[]): Record<string, Span> {
  const out: Record<string, Span> = {};
  for (const r of requests) {
    const id = r.headers['x-cairn-step'];
    if (!id) continue;
    const prompt = JSON.stringify(r.body.messages);
    const span = (out[id] ??= { start: r.receivedAt, end: r.answeredAt ?? r.receivedAt, prompt });
    span.end = Math.max(span.end, r.answeredAt ?? r.receivedAt);
  }
  return out;
}

/**
 * The most step calls open at once: at each step request's arrival, the step requests that
 * arrived and were not yet answered — counted in the fake's arrival order, not by clock.
 */
function mostOpenAtOnce(requests: RecordedRequest[]): number {
  const calls = requests.filter((r) => r.headers['x-cairn-step'] !== undefined);
  const openAt = (j: RecordedRequest) =>
    calls.filter((i) => i.index <= j.index && j.index < (i.answeredBefore ?? Infinity)).length;
  return Math.max(...calls.map(openAt));
}

const finishWith = (id: string) => finish(`result-${id}`);
/** `id`'s final reply, sent only once a request matching `until` has arrived. */
const finishOnceArrived = (id: string, until: RequestMatch) => reply.heldUntil(finishWith(id), until);

test('a diamond: dependencies first, the middle steps overlap, prompts carry only their dependencies', async () => {
  const diamond = plan([step('s1'), step('s2', ['s1']), step('s3', ['s1']), step('s4', ['s2', 's3'])]);
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(diamond)],
      'step:s1': [finishWith('s1')],
      // Each middle step answers only once the other has called: they run at the same time.
      'step:s2': [finishOnceArrived('s2', { step: 's3' })],
      'step:s3': [finishOnceArrived('s3', { step: 's2' })],
      'step:s4': [finishWith('s4')],
      summary: [reply.text('summary')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'diamond' });
    await handle.result();
    expect(bed.llm.holdFailures).toEqual([]); // s2 and s3 overlapped
    const s = spans(bed.llm.requests);
    const get = (id: string) => {
      const span = s[id];
      if (!span) throw new Error(`step ${id} never called the model`);
      return span;
    };
    const [s1, s2, s3, s4] = ['s1', 's2', 's3', 's4'].map(get) as [Span, Span, Span, Span];
    expect(s2.start).toBeGreaterThanOrEqual(s1.end);
    expect(s3.start).toBeGreaterThanOrEqual(s1.end);
    expect(s4.start).toBeGreaterThanOrEqual(Math.max(s2.end, s3.end));
    expect(s2.prompt).toContain('result-s1');
    expect(s2.prompt).not.toContain('result-s3');
    expect(s4.prompt).toContain('result-s2');
    expect(s4.prompt).toContain('result-s3');
    expect(s4.prompt).not.toContain('result-s1');
    for (const id of ['s1', 's2', 's3', 's4']) {
      const child = await bed.client.workflow.getHandle(`${handle.workflowId}/step-${id}`).describe();
      expect(child.type).toBe('stepWorkflow');
      expect(child.status.name).toBe('COMPLETED');
      expect(child.parentExecution?.workflowId).toBe(handle.workflowId);
    }
    await recordHistory('agent-diamond', handle);
  });
});

test('an unbalanced DAG: a chain advances while a slow independent step runs (not level by level)', async () => {
  const dag = plan([step('a1'), step('a2', ['a1']), step('a3', ['a2']), step('b1'), step('b2', ['b1'])]);
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(dag)],
      'step:a1': [finishWith('a1')],
      'step:a2': [finishWith('a2')],
      'step:a3': [finishWith('a3')],
      // Level by level, a2 (level 1) and a3 would wait for b1 (level 0): b1 answers only once
      // a3 has called, so the chain must advance while b1 runs.
      'step:b1': [finishOnceArrived('b1', { step: 'a3' })],
      'step:b2': [finishWith('b2')],
      summary: [reply.text('summary')],
    }),
  );
  await withWorker(bed.config, async () => {
    await (await startAgent(bed.client, bed.config, { task: 'unbalanced' })).result();
    expect(bed.llm.holdFailures).toEqual([]); // a2 and a3 ran while b1 was held
    const s = spans(bed.llm.requests);
    expect(s.a3?.start).toBeGreaterThanOrEqual(s.a2?.end ?? Infinity);
    expect(s.b2?.start).toBeGreaterThanOrEqual(s.b1?.end ?? Infinity);
  });
});

test('never more than maxParallelSteps at once; the longest remaining path starts first', async () => {
  const dag = plan([step('w1'), step('w2'), step('w3'), step('c1'), step('c2', ['c1']), step('c3', ['c2'])]);
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(dag)],
      // c1 answers only once another step has called, and each w only once c1 has: whichever w
      // releases c1 ran alongside it. c2 and c3 cannot start before c1 ends.
      'step:c1': [finishOnceArrived('c1', { purpose: 'step' })],
      ...Object.fromEntries(['w1', 'w2', 'w3'].map((id) => [`step:${id}`, [finishOnceArrived(id, { step: 'c1' })]])),
      'step:c2': [finishWith('c2')],
      'step:c3': [finishWith('c3')],
      summary: [reply.text('summary')],
    }),
  );
  await withWorker(bed.config, async () => {
    await (await startAgent(bed.client, bed.config, { task: 'capped', limits: { maxParallelSteps: 2 } })).result();
    expect(bed.llm.holdFailures).toEqual([]); // two steps ran at once
    const s = Object.values(spans(bed.llm.requests));
    expect(s).toHaveLength(6);
    expect(mostOpenAtOnce(bed.llm.requests)).toBe(2);
    // c1 heads the 3-step chain, so it is among the first two started (in arrival order).
    const firstTwo = bed.llm.requests.flatMap((r) => r.headers['x-cairn-step'] ?? []).slice(0, 2);
    expect(firstTwo).toContain('c1');
  });
});
