/**
 * Benchmark 6, live output (docs/contracts.md#live-output), side by side in one run:
 *
 * - latency from a chunk leaving the fake to its text arriving at an SSE client of
 *   `GET /api/agents/:id/stream` (p50/p95, step and summary calls, the ≤ 200 ms batching
 *   included), with 1 and with 10 agents streaming at once, one client each;
 * - time from `start` to the first visible token at that client;
 * - history per 1,000 streamed tokens: of the stream workflow, and of the agent and its step
 *   with streaming against the same run without (which must not grow: the stream lives apart);
 * - the durability tax (Cairn / plain loop, 10 sequential steps at 200 ms per call) with
 *   streaming (one viewer per agent) against the same run with `CAIRN_LLM_STREAM=off`.
 *
 * The fake streams 4 characters a chunk every 20 ms (50 tokens a second) for the latency runs,
 * and without pacing for the tax runs. The web server, the worker, the fake and the clients run
 * in this process, as in the other benchmarks.
 */
import { loadavg } from 'node:os';
import { temporal } from '@temporalio/proto';
import type { Client } from '@temporalio/client';
import type { AgentClient } from '../client/agents/agent-client';
import { createApp } from '../client/http/create-app';
import { reply, type RecordedRequest, type ReplyFunction } from '../testkit/fake-llm';
import { runHistories } from '../testkit/run-histories';
import { connectSse, serveOnLoopback, type SseClient } from '../testkit/sse-client';
import { waitUntil } from '../testkit/wait-until';
import { stepWorkflowId } from '../workflows/base/ids';
import { liveStreamId } from '../workflows/contract/live-messages';
import {
  agentScript,
  chain,
  fixed,
  median,
  ms,
  planOf,
  planStep,
  quantile,
  since,
  withCairn,
  type BenchEnv,
} from './common';
import { plainLoop } from './durability-tax';
import { chunkLatencies } from './live-latency';
import type { Report } from './report';

const NAME = '6. Live output';
const CHUNK_CHARS = 4;
const CHUNK_DELAY_MS = 20;
const AGENT_COUNTS = [1, 10];
/** Runs of each kind for the tax: single runs here differ by up to a third, so the medians need more than five. */
const TAX_RUNS = 11;
/** The fake's own rule for tokens (llm-servers/chat-completions-wire.ts): 4 characters a token. */
const CHARS_PER_TOKEN = 4;

const STEP_TEXT = Array.from({ length: 30 }, (_, i) => `Finding ${i + 1}: the figures hold up. `).join('');
const SUMMARY_TEXT = 'All findings hold: revenue grew, costs fell, and the margins doubled over the year.';
const PLAN = planOf([planStep('s1')]);
/** Text characters each agent's calls stream: plan (JSON), step and summary. */
const CHARS_PER_AGENT = JSON.stringify(PLAN).length + STEP_TEXT.length + SUMMARY_TEXT.length;

const { HistoryEvent } = temporal.api.history.v1;

/** Plan, one step with a long text reply, a summary: every call streams text. */
const liveScript: ReplyFunction = (request) => {
  switch (request.headers['x-cairn-purpose']) {
    case 'plan':
      return reply.json(PLAN);
    case 'step':
      return reply.text(STEP_TEXT);
    case 'summary':
      return reply.text(SUMMARY_TEXT);
    default:
      return undefined;
  }
};

/** This process's web server for `agents`, streams limited only far beyond the benchmark's. */
async function serveWeb(agents: AgentClient) {
  const app = createApp({
    version: 'bench',
    agents,
    temporalHealthy: () => Promise.resolve(true),
    streamLimits: { perPrincipal: 1000, total: 1000 },
  });
  return serveOnLoopback(app);
}

/** Events and protobuf bytes of every run of each workflow id. */
async function historySize(client: Client, workflowIds: string[]): Promise<{ events: number; bytes: number }> {
  let events = 0;
  let bytes = 0;
  for (const id of workflowIds) {
    for (const history of await runHistories(client, id)) {
      for (const event of history.events ?? []) {
        events += 1;
        bytes += HistoryEvent.encode(event).finish().length;
      }
    }
  }
  return { events, bytes };
}

/** Waits until the agent's stream workflow has completed (it lingers briefly for its readers). */
async function streamClosed(client: Client, agentId: string): Promise<void> {
  const handle = client.workflow.getHandle(liveStreamId(agentId));
  await waitUntil('the live stream closed', async () => (await handle.describe()).status.name !== 'RUNNING', {
    timeoutMs: 60_000,
    intervalMs: 200,
  });
}

interface Watched {
  id: string;
  /** `Date.now()` just before `start`. */
  startedAt: number;
  sse: SseClient;
}

/** The key joining a fake's request to a delta: agent, purpose, step. */
const requestKey = (r: RecordedRequest) =>
  `${r.headers['x-cairn-agent'] ?? ''}|${r.headers['x-cairn-purpose'] ?? ''}|${r.headers['x-cairn-step'] ?? ''}`;

interface DeltaData {
  agentId: string;
  stepId?: string;
  purpose: string;
  attempt: number;
  channel: string;
  text: string;
}

/** Chunk latencies of step and summary calls (the plan's are the viewer's start-up), and each agent's first visible token. */
function measureLatency(watched: Watched[], requests: RecordedRequest[]) {
  const deltas = new Map<string, { text: string; at: number }[]>();
  const firstToken: number[] = [];
  // What of that wait is before the model's first chunk: the plan call's first chunk left the fake.
  const firstChunk: number[] = [];
  for (const { id, sse, startedAt } of watched) {
    const plan = requests.find((r) => requestKey(r) === `${id}|plan|`);
    if (plan?.firstChunkAt !== undefined) firstChunk.push(plan.firstChunkAt - startedAt);
    let first: number | undefined;
    for (const frame of sse.frames) {
      if (frame.event !== 'delta') continue;
      const d = JSON.parse(frame.data) as DeltaData;
      first ??= frame.at - startedAt;
      if (d.channel !== 'text' || d.attempt !== 1) continue;
      const key = `${d.agentId}|${d.purpose}|${d.stepId ?? ''}`;
      deltas.set(key, [...(deltas.get(key) ?? []), { text: d.text, at: frame.at }]);
    }
    if (first !== undefined) firstToken.push(first);
  }
  const measured = requests.filter(
    (r) => r.streamed && ['step', 'summary'].includes(r.headers['x-cairn-purpose'] ?? ''),
  );
  const latencies = measured.flatMap((r) =>
    chunkLatencies(r.chunkSentAt ?? [], CHUNK_CHARS, deltas.get(requestKey(r)) ?? []),
  );
  // A call whose text no viewer saw is named, not silently left out of the figures.
  const unseen = measured.filter((r) => !deltas.has(requestKey(r))).map(requestKey);
  return { latencies, firstToken, firstChunk, unseen };
}

/** `count` agents at once, a viewer each from right after its start; the figures of their live output. */
async function streamingRun(env: BenchEnv, count: number, stream: boolean) {
  const settings = {
    latencyMs: 0,
    respond: liveScript,
    llm: { chunkChars: CHUNK_CHARS, chunkDelayMs: CHUNK_DELAY_MS },
    ...(stream ? {} : { env: { CAIRN_LLM_STREAM: 'off' } }),
  };
  return withCairn(env, settings, async ({ agents, client, llm }) => {
    const web = await serveWeb(agents);
    try {
      const watched = await Promise.all(
        Array.from({ length: count }, async (_, i): Promise<Watched> => {
          const startedAt = Date.now();
          const id = await agents.start({ task: `stream ${i + 1}` });
          const sse = await connectSse(`${web.url}/api/agents/${encodeURIComponent(id)}/stream`);
          return { id, startedAt, sse };
        }),
      );
      for (const { id } of watched) {
        const result = await agents.result(id);
        if (result.status !== 'completed') throw new Error(`agent ended ${result.status}`);
      }
      await Promise.all(watched.map((w) => w.sse.closed));
      if (stream) for (const { id } of watched) await streamClosed(client, id);
      const ids = watched.map((w) => w.id);
      const blind = watched.filter((w) => !w.sse.frames.some((f) => f.event === 'delta'));
      return {
        blind: blind.map((w) => `${w.id}: ${w.sse.status} ${w.sse.frames.map((f) => f.event).join(' ')}`),
        ...measureLatency(watched, llm.requests),
        stream: stream ? await historySize(client, ids.map(liveStreamId)) : { events: 0, bytes: 0 },
        agentAndSteps: await historySize(client, [...ids, ...ids.map((id) => stepWorkflowId(id, 's1'))]),
        tokens: (count * CHARS_PER_AGENT) / CHARS_PER_TOKEN,
        streamedCalls: llm.requests.filter((r) => r.streamed).length,
      };
    } finally {
      await web.close();
    }
  });
}

/** Runs a 10-step agent to completion, with a viewer when `url` is given; its makespan (ms). */
async function taxedAgent(agents: AgentClient, url: string | undefined): Promise<number> {
  const start = performance.now();
  const id = await agents.start({ task: 'ten sequential steps', limits: { maxParallelSteps: 1 } });
  const viewer = url ? await connectSse(`${url}/api/agents/${encodeURIComponent(id)}/stream`) : undefined;
  const result = await agents.result(id);
  const elapsed = since(start);
  viewer?.close();
  if (result.status !== 'completed') throw new Error(`agent ended ${result.status}`);
  return elapsed;
}

/**
 * The durability tax at 200 ms per call with streaming (one viewer per agent) and without
 * (`CAIRN_LLM_STREAM=off`), two workers side by side in this process, the runs interleaved
 * with the plain loop so that the machine's load falls on all three alike.
 */
async function taxRun(env: BenchEnv): Promise<{ streamed: number[]; unstreamed: number[]; plain: number[] }> {
  const settings = { latencyMs: 200, respond: agentScript(planOf(chain(10))) };
  return withCairn(env, settings, async (streaming) =>
    withCairn(env, { ...settings, env: { CAIRN_LLM_STREAM: 'off' } }, async (unstreaming) => {
      const web = await serveWeb(streaming.agents);
      try {
        await taxedAgent(streaming.agents, web.url);
        await taxedAgent(unstreaming.agents, undefined);
        await plainLoop(streaming.llm);
        const out = { streamed: [] as number[], unstreamed: [] as number[], plain: [] as number[] };
        for (let i = 0; i < TAX_RUNS; i++) {
          out.streamed.push(await taxedAgent(streaming.agents, web.url));
          out.unstreamed.push(await taxedAgent(unstreaming.agents, undefined));
          out.plain.push(await plainLoop(streaming.llm));
        }
        return out;
      } finally {
        await web.close();
      }
    }),
  );
}

/** A figure that must be a number: a run that measured nothing is an error, not a row of n/a. */
function finite(figure: string, value: number): number {
  if (!Number.isFinite(value)) throw new Error(`${figure}: measured nothing (${value})`);
  return value;
}

export async function liveOutput(env: BenchEnv, report: Report): Promise<void> {
  const loadBefore = loadavg()[0] ?? Number.NaN;
  const add = (figure: string, measured: string, target?: { text: string; met: boolean }) =>
    report.add(
      target
        ? { benchmark: NAME, figure, measured, target: target.text, met: target.met }
        : { benchmark: NAME, figure, measured },
    );
  const per1000 = (n: number, tokens: number) => (n * 1000) / tokens;
  let tenAgents: Awaited<ReturnType<typeof streamingRun>> | undefined;
  for (const count of AGENT_COUNTS) {
    const run = await streamingRun(env, count, true);
    const label = `${count} agent${count === 1 ? '' : 's'} streaming`;
    const p50 = finite(`${label} p50`, quantile(run.latencies, 0.5));
    const p95 = finite(`${label} p95`, quantile(run.latencies, 0.95));
    add(`${label}: delta latency fake → SSE client, p50`, ms(p50), { text: '≤ 250 ms', met: p50 <= 250 });
    add(`${label}: delta latency fake → SSE client, p95`, ms(p95), { text: '≤ 500 ms', met: p95 <= 500 });
    add(
      `${label}: start → first visible token / → first chunk sent by the fake (medians of agents)`,
      `${ms(finite('first token', median(run.firstToken)))} / ${ms(finite('first chunk', median(run.firstChunk)))}`,
    );
    report.note(
      `${NAME}, ${label}: ${run.latencies.length} chunks measured (step and summary calls, ${run.streamedCalls} calls ` +
        `streamed); first visible token per agent: ${run.firstToken.map((t) => t.toFixed(0)).join(', ')} ms` +
        (run.blind.length > 0 ? `; viewers that saw no delta: ${run.blind.join('; ')}` : '') +
        (run.unseen.length > 0 ? `; calls no viewer saw: ${run.unseen.join(', ')}.` : '.'),
    );
    tenAgents = run;
  }
  if (!tenAgents) return;
  // History per 1,000 streamed tokens, from the 10-agent run, against the same run without streaming.
  const without = await streamingRun(env, AGENT_COUNTS.at(-1) ?? 1, false);
  const { tokens } = tenAgents;
  add(
    'stream workflow history per 1,000 streamed tokens: events / bytes',
    `${fixed(per1000(tenAgents.stream.events, tokens), 0)} / ${fixed(per1000(tenAgents.stream.bytes, tokens), 0)}`,
  );
  const withBytes = per1000(tenAgents.agentAndSteps.bytes, tokens);
  const withoutBytes = per1000(without.agentAndSteps.bytes, tokens);
  add(
    'agent + step history per 1,000 tokens, streaming / not: events, bytes',
    `${fixed(per1000(tenAgents.agentAndSteps.events, tokens), 0)} / ${fixed(per1000(without.agentAndSteps.events, tokens), 0)}, ` +
      `${fixed(withBytes, 0)} / ${fixed(withoutBytes, 0)}`,
    { text: 'bytes streaming ≤ 1.05 × not', met: finite('agent + step bytes', withBytes) <= 1.05 * withoutBytes },
  );
  const tax = await taxRun(env);
  const ratioWith = finite('ratio with', median(tax.streamed) / median(tax.plain));
  const ratioWithout = finite('ratio without', median(tax.unstreamed) / median(tax.plain));
  add('200 ms/call: ratio Cairn / plain, streaming (one viewer)', fixed(ratioWith));
  add('200 ms/call: ratio Cairn / plain, not streaming (CAIRN_LLM_STREAM=off)', fixed(ratioWithout));
  add('200 ms/call: ratio streaming / not', fixed(ratioWith / ratioWithout), {
    text: '≤ 1.05',
    met: ratioWith <= 1.05 * ratioWithout,
  });
  const loadAfter = loadavg()[0] ?? Number.NaN;
  report.note(
    `${NAME}: the fake streams ${CHUNK_CHARS} characters a chunk every ${CHUNK_DELAY_MS} ms; each agent streams a plan, ` +
      `a ${STEP_TEXT.length}-character step reply and a summary (${CHARS_PER_AGENT / CHARS_PER_TOKEN} tokens at ` +
      `${CHARS_PER_TOKEN} characters a token); latency is from the fake writing a chunk to the SSE client parsing the ` +
      `delta that completes it, all in one process (Date.now()). History: every run of each workflow, protobuf bytes; ` +
      `the stream workflow's over the 10-agent run; agent + step with streaming against the same 10 agents with ` +
      `CAIRN_LLM_STREAM=off. Tax: 10 sequential steps at 200 ms per call, median of ${TAX_RUNS} after a warm-up, ` +
      `two workers side by side, runs interleaved: streaming Cairn ${tax.streamed.map(ms).join(', ')}; unstreamed ` +
      `${tax.unstreamed.map(ms).join(', ')}; plain loop (unstreamed) ${tax.plain.map(ms).join(', ')}. Load average (1 min) ${fixed(loadBefore)} before, ${fixed(loadAfter)} after ` +
      `(2 CPUs shared with other work).`,
  );
}
