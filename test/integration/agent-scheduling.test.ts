/**
 * Acceptance 4 — scheduling on a diamond and an unbalanced DAG, measured from the scripted
 * model's request timestamps: dependencies first, independent steps overlapping, the
 * parallelism cap, dependency-only prompts, and child workflow ids.
 */
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import type { RecordedRequest } from '../fake-llm/scripted-llm';
import { agentTestbed } from '../harness/agent-testbed';
import { finish, plan, planReply, startAgent, step } from '../harness/agents';
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

const finishWith = (id: string, delayMs: number) => ({ ...finish(`result-${id}`), delayMs });

test('a diamond: dependencies first, the middle steps overlap, prompts carry only their dependencies', async () => {
  const diamond = plan([step('s1'), step('s2', ['s1']), step('s3', ['s1']), step('s4', ['s2', 's3'])]);
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(diamond)],
      ...Object.fromEntries(['s1', 's2', 's3', 's4'].map((id) => [`step:${id}`, [finishWith(id, 500)]])),
      summary: [reply.text('summary')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'diamond' });
    await handle.result();
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
    expect(s2.start).toBeLessThan(s3.end); // s2 and s3 overlap in time
    expect(s3.start).toBeLessThan(s2.end);
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
      'step:a1': [finishWith('a1', 100)],
      'step:a2': [finishWith('a2', 100)],
      'step:a3': [finishWith('a3', 100)],
      'step:b1': [finishWith('b1', 2500)],
      'step:b2': [finishWith('b2', 100)],
      summary: [reply.text('summary')],
    }),
  );
  await withWorker(bed.config, async () => {
    await (await startAgent(bed.client, bed.config, { task: 'unbalanced' })).result();
    const s = spans(bed.llm.requests);
    // Level by level, a2 (level 1) would wait for b1 (level 0); here it starts while b1 runs.
    expect(s.a2?.start).toBeLessThan(s.b1?.end ?? 0);
    expect(s.b2?.start).toBeGreaterThanOrEqual(s.b1?.end ?? Infinity);
  });
});

test('never more than maxParallelSteps at once; the longest remaining path starts first', async () => {
  const dag = plan([step('w1'), step('w2'), step('w3'), step('c1'), step('c2', ['c1']), step('c3', ['c2'])]);
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(dag)],
      ...Object.fromEntries(['w1', 'w2', 'w3', 'c1', 'c2', 'c3'].map((id) => [`step:${id}`, [finishWith(id, 300)]])),
      summary: [reply.text('summary')],
    }),
  );
  await withWorker(bed.config, async () => {
    await (await startAgent(bed.client, bed.config, { task: 'capped', limits: { maxParallelSteps: 2 } })).result();
    const s = Object.values(spans(bed.llm.requests));
    expect(s).toHaveLength(6);
    const points = s.flatMap((x) => [x.start, x.end]);
    const maxOverlap = Math.max(...points.map((t) => s.filter((x) => x.start <= t && t < x.end).length));
    expect(maxOverlap).toBeLessThanOrEqual(2);
    expect(maxOverlap).toBe(2);
    const first = spans(bed.llm.requests);
    // c1 heads the 3-step chain, so it is among the first two started.
    const order = Object.entries(first)
      .sort((a, b) => a[1].start - b[1].start)
      .map(([id]) => id);
    expect(order.slice(0, 2)).toContain('c1');
  });
});
