/**
 * Traces (issue 15, acceptance 5): an agent run on the scripted LLM, traced through Temporal's
 * OpenTelemetry interceptors into an in-memory exporter, yields one trace whose spans nest as
 * the work did — the client's start, the agent's run, its planning LLM call, the step's child
 * workflow, and inside the step its LLM call and tool call — each labelled with the agent, step,
 * tool and model it concerns.
 */
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Client } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { finish, plan, planReply, step } from '../harness/plans';
import { runInfo } from '../harness/run-info';
import { uniqueId } from '../harness/test-env';
import { lookupTool } from '../../testkit/lookup-tool';
import { waitUntil } from '../../testkit/wait-until';
import { createWorker } from '../../worker/create-worker';
import { createTracing } from '../../worker/telemetry/tracing';
import { agentWorkflow } from '../../workflows/agent/agent-workflow';
import { SPAN_ATTRIBUTES as A } from '../../workflows/base/span-attributes';
import { cairnDataConverter } from '../../temporal/payloads/data-converter';

const bed = agentTestbed();

/** The one span named `name` whose parent is `parent` (and whose attributes include `attrs`). */
function childOf(spans: ReadableSpan[], parent: ReadableSpan, name: string, attrs: Record<string, string> = {}) {
  const found = spans.filter(
    (s) =>
      s.name === name &&
      s.parentSpanId === parent.spanContext().spanId &&
      Object.entries(attrs).every(([k, v]) => s.attributes[k] === v),
  );
  expect(found.map((s) => s.name)).toEqual([name]);
  return found[0] as ReadableSpan;
}

/**
 * Runs one agent (plan s1; s1 looks x up) on a worker that traces into an in-memory exporter,
 * started through `client`; returns the finished spans and the tool's calls.
 */
async function tracedRun(workflowId: string, traceStart: boolean) {
  const exporter = new InMemorySpanExporter();
  const processor = new SimpleSpanProcessor(exporter);
  const lookup = lookupTool({ x: 'forty-two' });
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [reply.toolCall('lookup', { key: 'x' }, 'c1'), finish('found forty-two')],
      summary: [reply.text('done')],
    }),
  );
  const connection = await NativeConnection.connect({ address: bed.config.temporal.address });
  const tracing = createTracing(processor);
  const client = new Client({
    connection: bed.client.connection,
    interceptors: { workflow: traceStart ? tracing.clientInterceptors : [] },
    dataConverter: cairnDataConverter(bed.config.payloads),
  });
  let spans: ReadableSpan[] = [];
  try {
    const cairn = await createWorker({
      config: bed.config,
      connection,
      workflows: { workflowBundle: { codePath: runInfo().workflowBundlePath } },
      tools: [lookup.tool],
      spanProcessor: processor,
    });
    try {
      await cairn.runUntil(async () => {
        const handle = await client.workflow.start(agentWorkflow, {
          taskQueue: bed.config.taskQueue,
          workflowId,
          args: [{ task: 'look it up' }],
        });
        await handle.result();
        // Workflow spans leave the sandbox through a sink after the activation that ends them;
        // activity spans as each activity ends (the summary call is the last).
        await waitUntil('the last spans are exported', () => {
          const names = exporter.getFinishedSpans().map((s) => s.name);
          const last = traceStart ? 'RunWorkflow:agentWorkflow' : 'RunActivity:callLlm';
          return names.filter((n) => n === last).length >= (traceStart ? 1 : 4);
        });
        // Closing the worker shuts the processor down, which empties the in-memory exporter.
        spans = [...exporter.getFinishedSpans()];
      });
    } finally {
      await cairn.close();
    }
  } finally {
    await connection.close();
  }
  return { spans, lookup };
}

test('an agent run is one trace: start → agent → (plan LLM call, step → (LLM call, tool call)), labelled', async () => {
  const workflowId = uniqueId('agent-traced');
  const { spans, lookup } = await tracedRun(workflowId, true);
  expect(lookup.calls).toHaveLength(1);

  const start = spans.find((s) => s.name === 'StartWorkflow:agentWorkflow');
  expect(start?.parentSpanId).toBeUndefined();
  if (!start) throw new Error('no client start span');
  expect(new Set(spans.map((s) => s.spanContext().traceId))).toEqual(new Set([start.spanContext().traceId]));

  const agent = { [A.agentId]: workflowId };
  const inStep = { ...agent, [A.stepId]: 's1' };
  const runAgent = childOf(spans, start, 'RunWorkflow:agentWorkflow', agent);

  // The agent's own LLM calls (plan, then summary): scheduled by the agent run, labelled with
  // the agent and model, and no step.
  const agentCalls = spans.filter(
    (s) => s.name === 'StartActivity:callLlm' && s.parentSpanId === runAgent.spanContext().spanId,
  );
  const agentPurposes = agentCalls.map((call) => {
    const run = childOf(spans, call, 'RunActivity:callLlm', { ...agent, [A.llmModel]: 'scripted-model' });
    expect(run.attributes[A.stepId]).toBeUndefined();
    return run.attributes[A.llmPurpose];
  });
  expect(agentPurposes.sort()).toEqual(['plan', 'summary']);

  const startStep = childOf(spans, runAgent, 'StartChildWorkflow:stepWorkflow', agent);
  const runStep = childOf(spans, startStep, 'RunWorkflow:stepWorkflow', inStep);

  const stepCalls = spans.filter(
    (s) => s.name === 'StartActivity:callLlm' && s.parentSpanId === runStep.spanContext().spanId,
  );
  expect(stepCalls).toHaveLength(2); // the tool call round, then finish_step
  for (const call of stepCalls) {
    const run = childOf(spans, call, 'RunActivity:callLlm', inStep);
    expect(run.attributes).toMatchObject({ [A.llmModel]: 'scripted-model', [A.llmPurpose]: 'step' });
  }

  const toolCall = childOf(spans, runStep, 'StartActivity:runTool', inStep);
  childOf(spans, toolCall, 'RunActivity:runTool', { ...inStep, [A.toolName]: 'lookup' });

  // Every LLM call of the run is one of those four.
  expect(spans.filter((s) => s.name === 'RunActivity:callLlm')).toHaveLength(4);
}, 60_000);

test('a run started without a trace header is not traced in the workflow, only its activities', async () => {
  const workflowId = uniqueId('agent-untraced');
  const { spans, lookup } = await tracedRun(workflowId, false);
  expect(lookup.calls).toHaveLength(1);
  const names = new Set(spans.map((s) => s.name));
  // No workflow-side spans at all: the agent and its step skipped Temporal's interceptors.
  expect([...names].filter((n) => /Workflow|^StartActivity/.test(n))).toEqual([]);
  // The worker's own activity spans still record each call.
  expect(spans.filter((s) => s.name === 'RunActivity:callLlm')).toHaveLength(4);
  // The decision is in the history: the by-header patch, not the older one.
  const history = await bed.client.workflow.getHandle(workflowId).fetchHistory();
  const patches = (history.events ?? []).flatMap((e) => {
    const details = e.markerRecordedEventAttributes?.details?.['patch-data']?.payloads?.[0]?.data;
    return details ? [JSON.parse(Buffer.from(details).toString()) as { id: string }] : [];
  });
  const ids = patches.map((p) => p.id);
  expect(ids).toContain('cairn-tracing-by-header');
  expect(ids).not.toContain('cairn-tracing');
}, 60_000);
