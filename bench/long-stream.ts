/**
 * A long live stream, by hand (not part of `npm run bench`): `tsx bench/long-stream.ts [minutes]`
 * (5 by default). One agent streams for that long — a chain of steps, each one model call of
 * about a minute of text at 4 characters every 100 ms — while a parallel step waits for an
 * answer; one SSE client watches throughout. At the end the waiting step is answered (an update
 * on the agent) and the run prints what the stream cost: the stream workflow's runs (it
 * continues as new on its own), the `livePoll` updates each run took against the server's 2,000,
 * the agent's own updates (the answer only), history sizes, and CPU of this process (worker, web
 * server, client) and of the Temporal dev server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import { bundleWorkflowCode, DefaultLogger, Runtime } from '@temporalio/worker';
import { createApp } from '../client/http/create-app';
import { ensureTemporalCli, startDevServer } from '../scripts/dev-server';
import { reply, type ReplyFunction } from '../testkit/fake-llm';
import { freePort } from '../testkit/free-port';
import { runHistories } from '../testkit/run-histories';
import { connectSse, serveOnLoopback } from '../testkit/sse-client';
import { waitUntil } from '../testkit/wait-until';
import { stepWorkflowId } from '../workflows/base/ids';
import { liveStreamId } from '../workflows/contract/live-messages';
import { PRELOAD_MODULES, WORKFLOW_INTERCEPTOR_MODULES, WORKFLOWS_PATH } from '../worker/workflows-path';
import { bundleLeanWorkflows } from './lean/lean-worker';
import { planOf, planStep, withCairn } from './common';
import { clockTicksPerSecond, cpuSeconds, sampleCpu } from './proc-cpu';

const CHUNK_CHARS = 4;
const CHUNK_DELAY_MS = 100;
/** Characters one step streams: about a minute at the pace above. */
const STEP_CHARS = (60_000 / CHUNK_DELAY_MS) * CHUNK_CHARS;

const { HistoryEvent } = temporal.api.history.v1;

async function main(): Promise<void> {
  const minutes = Number(process.argv[2] ?? 5);
  if (!Number.isInteger(minutes) || minutes < 1) throw new Error('minutes: a whole number ≥ 1');
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const cli = ensureTemporalCli();
  const dir = mkdtempSync(join(tmpdir(), 'cairn-long-stream-'));
  const server = await startDevServer({
    cli,
    dbFile: join(dir, 'db'),
    port: await freePort(),
    logFile: join(dir, 'server.log'),
  });
  try {
    const { code } = await bundleWorkflowCode({
      workflowsPath: WORKFLOWS_PATH,
      preloadModules: PRELOAD_MODULES,
      workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES,
      logger: new DefaultLogger('WARN'),
    });
    const serverPid = server.process.pid ?? 0;
    const env = {
      address: server.address,
      workflowCode: code,
      workspace: join(dir, 'workspace'),
      leanWorkflowCode: await bundleLeanWorkflows(),
      serverPid,
    };
    const writers = Array.from({ length: minutes }, (_, i) => planStep(`w${i + 1}`, i === 0 ? [] : [`w${i}`]));
    const plan = planOf([planStep('ask'), ...writers]);
    const text = Array.from({ length: Math.ceil(STEP_CHARS / 8) }, (_, i) => `${String(i).padStart(6, '0')}. `)
      .join('')
      .slice(0, STEP_CHARS);
    const respond: ReplyFunction = (request) => {
      const purpose = request.headers['x-cairn-purpose'];
      if (purpose === 'plan') return reply.json(plan);
      if (purpose === 'summary') return reply.text('done');
      if (request.headers['x-cairn-step'] !== 'ask') return reply.text(text);
      const asked = request.body.messages.some((m) => m.role === 'tool');
      return asked
        ? reply.toolCall('finish_step', { result: 'answered' })
        : reply.toolCall('ask_user', { kind: 'query', prompt: 'Go on?' });
    };
    const settings = { latencyMs: 0, respond, llm: { chunkChars: CHUNK_CHARS, chunkDelayMs: CHUNK_DELAY_MS } };
    await withCairn(env, settings, async ({ agents, client }) => {
      const web = await serveOnLoopback(
        createApp({ version: 'long-stream', agents, temporalHealthy: () => Promise.resolve(true) }),
      );
      const ticks = clockTicksPerSecond();
      const cpuBefore = process.cpuUsage();
      const serverBefore = sampleCpu(serverPid);
      const began = performance.now();
      const id = await agents.start({ task: `stream for ${minutes} minutes`, limits: { maxParallelSteps: 2 } });
      const sse = await connectSse(`${web.url}/api/agents/${encodeURIComponent(id)}/stream`);
      const last = `w${minutes}`;
      // The last writer's call is under way: answer the question asked at the start.
      await waitUntil(
        'the last writer streams',
        () => sse.frames.some((f) => f.event === 'delta' && f.data.includes(`"stepId":"${last}"`)),
        { timeoutMs: (minutes + 2) * 60_000, intervalMs: 1000 },
      );
      const state = await agents.state(id);
      const open = state.interactions.find((i) => i.status === 'open' && i.kind === 'ask.query');
      if (!open) throw new Error('no open question');
      const answerStart = performance.now();
      await agents.answer(id, { interactionId: open.id, answer: { text: 'yes' }, by: 'bench' });
      const answerMs = performance.now() - answerStart;
      const result = await agents.result(id);
      await sse.closed;
      const wallS = (performance.now() - began) / 1000;
      const cpu = process.cpuUsage(cpuBefore);
      const serverCpu = cpuSeconds(serverBefore, sampleCpu(serverPid), ticks);
      await waitUntil(
        'the stream closed',
        async () => (await client.workflow.getHandle(liveStreamId(id)).describe()).status.name !== 'RUNNING',
        { timeoutMs: 60_000 },
      );
      const size = (events: temporal.api.history.v1.IHistoryEvent[]) =>
        events.reduce((sum, e) => sum + HistoryEvent.encode(e).finish().length, 0);
      const updatesOf = (events: temporal.api.history.v1.IHistoryEvent[]) =>
        events.flatMap((e) => e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name ?? []);
      const streamRuns = await runHistories(client, liveStreamId(id));
      const agentRuns = await runHistories(client, id);
      const deltaChars = sse.frames
        .filter((f) => f.event === 'delta')
        .reduce((sum, f) => sum + String((JSON.parse(f.data) as { text: string }).text).length, 0);
      const lines = [
        `agent ${result.status} after ${wallS.toFixed(0)} s; the answer (an update on the agent, sent while ` +
          `${last} streamed) took ${answerMs.toFixed(0)} ms`,
        `viewer: ${sse.frames.length} frames, ${deltaChars} characters of text (${(deltaChars / 4).toFixed(0)} tokens)`,
        `stream workflow: ${streamRuns.length} runs; livePoll updates per run ` +
          `${streamRuns.map((r) => updatesOf(r.events ?? []).length).join(', ')} (server limit 2,000 a run); ` +
          `events per run ${streamRuns.map((r) => r.events?.length ?? 0).join(', ')}; ` +
          `bytes ${streamRuns.reduce((sum, r) => sum + size(r.events ?? []), 0)}`,
        `agent: ${agentRuns.length} run(s), updates ${JSON.stringify(agentRuns.flatMap((r) => updatesOf(r.events ?? [])))}, ` +
          `events ${agentRuns.reduce((sum, r) => sum + (r.events?.length ?? 0), 0)}`,
        `a writer step's history: ${(await runHistories(client, stepWorkflowId(id, 'w1'))).reduce((s, r) => s + (r.events?.length ?? 0), 0)} events`,
        `CPU over the run: this process (worker, web server, client) ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s, ` +
          `Temporal dev server ${serverCpu.toFixed(1)} s, in ${wallS.toFixed(0)} s`,
      ];
      process.stdout.write(`${lines.join('\n')}\n`);
      await web.close();
    });
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`long-stream failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
