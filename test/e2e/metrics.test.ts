/**
 * Metrics (issue 15, acceptance 5): a worker process started with `CAIRN_METRICS_ADDRESS` serves
 * Prometheus text on `/metrics` — the SDK's runtime metrics and Cairn's own. After one agent ran
 * to the end on the scripted LLM (one failed model call on the way, one tool call) and another
 * waits at its plan check, the scrape shows each metric with the values the run implies: tokens
 * equal to the usage the fake reported, calls and errors by code, the tool call, the step's
 * duration, running agents by phase and the open interaction by kind and age, and the cost at the
 * configured price. A model an agent names that the configuration does not know is labelled
 * `other`, and a scrape naming a Host the worker does not answer to (DNS rebinding) gets 421.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { startAgent, waitForInteraction } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { runInfo } from '../harness/run-info';
import { freePort } from '../../testkit/free-port';
import { waitUntil } from '../../testkit/wait-until';
import { liveStreamId } from '../../workflows/contract/live-stream-names';
import { startWorkerProcess, type WorkerProcess } from '../../testkit/worker-process';

const bed = agentTestbed();
let worker: WorkerProcess | undefined;

afterEach(async () => {
  await worker?.kill('SIGTERM');
  worker = undefined;
});

/** One sample of a Prometheus text exposition. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function parseSamples(text: string): Sample[] {
  return text.split('\n').flatMap((line) => {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? ([^ ]+)$/.exec(line);
    if (!m?.[1] || m[3] === undefined) return [];
    const labels: Record<string, string> = {};
    for (const [, key = '', value = ''] of (m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)) labels[key] = value;
    return [{ name: m[1], labels, value: Number(m[3]) }];
  });
}

/** The sum of the samples named `name` whose labels include `labels` (undefined when none). */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return found.length === 0 ? undefined : found.reduce((sum, s) => sum + s.value, 0);
}

/** A model name only the agent's (encrypted) input holds. */
const SECRET_MODEL = 'project-falcon-acquisition-7b';

/** A GET of `/metrics` naming `host` in its Host header, as a DNS-rebinding page's request would. */
function getWithHost(address: string, host: string): Promise<{ status: number; body: string }> {
  const [hostname, port] = [address.slice(0, address.lastIndexOf(':')), address.slice(address.lastIndexOf(':') + 1)];
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path: '/metrics', headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function scrape(address: string): Promise<Sample[]> {
  const response = await fetch(`http://${address}/metrics`);
  expect(response.status).toBe(200);
  return parseSamples(await response.text());
}

test('/metrics after an agent run: SDK runtime metrics and Cairn’s, with the values the run implies', async () => {
  const usage = (promptTokens: number, completionTokens: number) => ({ usage: { promptTokens, completionTokens } });
  bed.llm.respondWith(
    byRoute({
      // In order: the first agent's plan, then the second's, which waits for a person.
      plan: [
        { ...planReply(plan([step('s1')])), ...usage(100, 10) },
        { ...planReply(plan([step('s1')])), ...usage(500, 50) },
        { ...planReply(plan([step('s1')])), ...usage(7, 1) }, // the agent naming a model of its own
      ],
      'step:s1': [
        reply.error(500, 'scripted outage'), // LLM_UNAVAILABLE, retried by the activity's policy
        reply.toolCalls([{ id: 'c1', name: 'list_files', arguments: {} }], usage(200, 20)),
        { ...finish('listed'), ...usage(300, 30) },
        { ...finish('named'), ...usage(7, 1) },
      ],
      summary: [reply.text('done', usage(400, 40)), reply.text('named', usage(7, 1))],
    }),
  );
  const address = `127.0.0.1:${await freePort()}`;
  // US dollars per million tokens: the cost metric must add up to the reported usage at this price.
  const prices = join(mkdtempSync(join(tmpdir(), 'cairn-metrics-prices-')), 'prices.json');
  writeFileSync(prices, JSON.stringify({ 'scripted-model': { prompt: 1, completion: 2 } }));
  worker = await startWorkerProcess(
    {
      TEMPORAL_ADDRESS: runInfo().temporalAddress,
      CAIRN_TASK_QUEUE: bed.config.taskQueue,
      OPENAI_BASE_URL: bed.llm.baseUrl,
      CAIRN_MODEL: 'scripted-model',
      CAIRN_WORKSPACE: mkdtempSync(join(tmpdir(), 'cairn-metrics-ws-')),
      CAIRN_METRICS_ADDRESS: address,
      CAIRN_METRICS_POLL_MS: '200',
      CAIRN_METRICS_ALLOWED_HOSTS: 'scraper.internal',
      CAIRN_PRICES_FILE: prices,
    },
    120_000,
  );

  const done = await startAgent(bed.client, bed.config, { task: 'list the files' });
  await done.result();
  const waiting = await startAgent(bed.client, bed.config, { task: 'wait for me', mode: { confirmPlan: true } });
  await waitForInteraction(waiting, 'plan.check');
  // An agent may name any model: free text the configuration does not know is labelled `other`.
  const named = await startAgent(bed.client, bed.config, { task: 'name a model', model: { name: SECRET_MODEL } });
  await named.result();
  // Each finished agent's live stream (its model calls streamed) ends once the agent has.
  for (const agent of [done, named]) await bed.client.workflow.getHandle(liveStreamId(agent.workflowId)).result();

  // The level gauges are read from visibility every 200 ms: wait for the waiting agent to show.
  // (and for the agent that ended last to leave them: the gauges lag its end by a read).
  const samples = await waitUntil('the level gauges show the waiting agent alone', async () => {
    const s = await scrape(address);
    return valueOf(s, 'cairn_open_interactions', { kind: 'plan.check' }) === 1 &&
      valueOf(s, 'cairn_agents', { phase: 'awaiting_input' }) === 1 &&
      valueOf(s, 'cairn_agents', { phase: 'executing' }) === 0 &&
      // Each phase is its own visibility count, read a moment apart: the waiting agent may still
      // be counted in planning by one read while another already has it awaiting input.
      valueOf(s, 'cairn_agents', { phase: 'planning' }) === 0 &&
      valueOf(s, 'cairn_agents', { phase: 'summarizing' }) !== 1
      ? s
      : undefined;
  });

  // The SDK's runtime metrics, on the same endpoint: each of the two finished agents, its step
  // and its live stream completed.
  expect(valueOf(samples, 'temporal_workflow_completed', { task_queue: bed.config.taskQueue })).toBe(2 * 3);
  expect(valueOf(samples, 'temporal_activity_execution_failed')).toBeGreaterThanOrEqual(1);

  // Tokens: exactly the usage the fake reported on the calls that succeeded.
  const model = { model: 'scripted-model' };
  expect(valueOf(samples, 'cairn_llm_tokens_total', { ...model, kind: 'prompt' })).toBe(100 + 500 + 200 + 300 + 400);
  expect(valueOf(samples, 'cairn_llm_tokens_total', { ...model, kind: 'completion' })).toBe(10 + 50 + 20 + 30 + 40);
  // Cost: each answered call's, at the configured price; its sum is the spend.
  expect(valueOf(samples, 'cairn_llm_cost_usd_count', model)).toBe(5);
  expect(valueOf(samples, 'cairn_llm_cost_usd_sum', model)).toBeCloseTo((1500 * 1 + 150 * 2) / 1_000_000, 12);
  // Calls and errors: five answered, one failed with the code its activity failed with.
  expect(valueOf(samples, 'cairn_llm_calls_total', { ...model, outcome: 'ok' })).toBe(5);
  expect(valueOf(samples, 'cairn_llm_calls_total', { ...model, outcome: 'error' })).toBe(1);
  expect(valueOf(samples, 'cairn_llm_errors_total', { ...model, code: 'LLM_UNAVAILABLE' })).toBe(1);
  expect(valueOf(samples, 'cairn_llm_errors_total')).toBe(1);
  // Latency: one observation per call, in seconds (the fake answers on loopback, well under 10 s).
  expect(valueOf(samples, 'cairn_llm_latency_seconds_count', { ...model, outcome: 'ok' })).toBe(5);
  const latency = valueOf(samples, 'cairn_llm_latency_seconds_sum', { ...model, outcome: 'ok' }) ?? -1;
  expect(latency).toBeGreaterThan(0);
  expect(latency).toBeLessThan(50);
  // The agent's own model name is no label: its three calls count as `other`, and it shows nowhere.
  expect(valueOf(samples, 'cairn_llm_calls_total', { model: 'other', outcome: 'ok' })).toBe(3);
  expect(valueOf(samples, 'cairn_llm_tokens_total', { model: 'other', kind: 'prompt' })).toBe(3 * 7);
  expect(samples.filter((s) => Object.values(s.labels).some((v) => v.includes('falcon')))).toEqual([]);
  // The tool call.
  expect(valueOf(samples, 'cairn_tool_calls_total', { tool: 'list_files', outcome: 'ok' })).toBe(1);
  // The steps' durations: two completed steps, one of which took at least the 1 s retry of its failed call.
  expect(valueOf(samples, 'cairn_step_duration_seconds_count', { status: 'completed' })).toBe(2);
  const stepSeconds = valueOf(samples, 'cairn_step_duration_seconds_sum', { status: 'completed' }) ?? -1;
  expect(stepSeconds).toBeGreaterThanOrEqual(1);
  expect(stepSeconds).toBeLessThan(60);
  // Levels: the waiting agent in its phase, none elsewhere; its plan check open, and young.
  expect(valueOf(samples, 'cairn_agents', { phase: 'executing' })).toBe(0);
  expect(valueOf(samples, 'cairn_agents', { phase: 'planning' })).toBe(0);
  expect(valueOf(samples, 'cairn_open_interactions', { kind: 'tool.approval' })).toBe(0);
  const age = valueOf(samples, 'cairn_open_interaction_oldest_age_seconds', { kind: 'plan.check' }) ?? -1;
  expect(age).toBeGreaterThanOrEqual(0);
  expect(age).toBeLessThan(60);

  // The Host check: a name the worker does not answer to (a rebinding page's) gets 421 and no
  // metric; an address, a loopback name or a listed name gets the metrics.
  const port = address.slice(address.lastIndexOf(':') + 1);
  const rebound = await getWithHost(address, `rebinding.example:${port}`);
  expect(rebound.status).toBe(421);
  expect(rebound.body).not.toContain('cairn_');
  for (const host of [`localhost:${port}`, `10.1.2.3:${port}`, `scraper.internal:${port}`]) {
    const allowed = await getWithHost(address, host);
    expect([host, allowed.status]).toEqual([host, 200]);
    expect(allowed.body).toContain('cairn_llm_calls_total');
  }

  await waiting.cancel();
}, 180_000);
