/**
 * Shared benchmark plumbing: a Cairn worker on its own task queue pointing at a fresh scripted
 * LLM, a reply function that plays planner, steps and summary for any number of concurrent
 * agents, and small statistics helpers.
 */
import { randomUUID } from 'node:crypto';
import { Client } from '@temporalio/client';
import { connectTemporal } from '../temporal/connection';
import { NativeConnection } from '@temporalio/worker';
import type { ToolDefinition } from '../activities/tools/define-tool';
import { AgentClient } from '../client/agents/agent-client';
import { loadConfig, type CairnConfig } from '../config/config';
import {
  reply,
  ScriptedLlm,
  type RecordedRequest,
  type ReplyFunction,
  type ScriptedLlmOptions,
} from '../testkit/fake-llm';
import type { Plan, PlanStep } from '../workflows/model/plan/plan-types';
import { createWorker } from '../worker/create-worker';
import { cairnDataConverter } from '../temporal/payloads/data-converter';
import { payloadEnv } from '../config/payload-config';
import { createLeanWorker, type LeanAgents } from './lean/lean-worker';

/** What every benchmark gets from the runner. */
export interface BenchEnv {
  /** The dev server's gRPC address. */
  address: string;
  /** The workflow bundle, built once. */
  workflowCode: string;
  workspace: string;
  /** The lean baseline's workflow bundle (bench/lean), built once. */
  leanWorkflowCode: string;
  /** The dev server's process id, for its CPU time. */
  serverPid: number;
}

/** A running worker with its fake LLM and a client on the same task queue. */
export interface Cairn {
  agents: AgentClient;
  client: Client;
  llm: ScriptedLlm;
  config: CairnConfig;
  /** The lean Temporal baseline, served by its own worker against the same fake and server. */
  lean: LeanAgents;
}

export interface CairnOptions {
  latencyMs: number;
  respond: ReplyFunction;
  /** CAIRN_LLM_CONCURRENCY; 200 unless told. */
  llmConcurrency?: number;
  tools?: ToolDefinition[];
  /** Further configuration, e.g. `CAIRN_COMPRESSION: 'off'`; the payload variables of the environment apply otherwise. */
  env?: Record<string, string>;
  /** How the fake streams (chunk pacing and size, or an endpoint that cannot stream). */
  llm?: Omit<ScriptedLlmOptions, 'latencyMs'>;
}

/**
 * Runs `body` while a Cairn worker serves a fresh task queue and a lean baseline worker serves
 * another (both in this process, against the same fake), then tears everything down.
 */
export async function withCairn<T>(env: BenchEnv, options: CairnOptions, body: (cairn: Cairn) => Promise<T>) {
  const llm = await ScriptedLlm.start({ ...options.llm, latencyMs: options.latencyMs });
  llm.respondWith(options.respond);
  const config = loadConfig({
    TEMPORAL_ADDRESS: env.address,
    CAIRN_TASK_QUEUE: `bench-${randomUUID().slice(0, 8)}`,
    OPENAI_BASE_URL: llm.baseUrl,
    CAIRN_MODEL: 'scripted-model',
    CAIRN_WORKSPACE: env.workspace,
    CAIRN_LLM_CONCURRENCY: String(options.llmConcurrency ?? 200),
    // CAIRN_ENCRYPTION_KEYS / CAIRN_COMPRESSION of the bench's environment, as a worker would read them.
    ...payloadEnv(process.env),
    ...options.env,
  });
  const nativeConnection = await NativeConnection.connect({ address: env.address });
  const connection = await connectTemporal({ address: env.address });
  const client = new Client({ connection, dataConverter: cairnDataConverter(config.payloads) });
  try {
    const worker = await createWorker({
      config,
      connection: nativeConnection,
      workflows: { workflowBundle: { code: env.workflowCode } },
      ...(options.tools ? { tools: options.tools } : {}),
    });
    const lean = await createLeanWorker({
      connection: nativeConnection,
      client,
      workflowCode: env.leanWorkflowCode,
      llmBaseUrl: llm.baseUrl,
    });
    try {
      const agents = new AgentClient(client, config.taskQueue);
      return await worker.runUntil(() =>
        lean.worker.runUntil(() => body({ agents, client, llm, config, lean: lean.agents })),
      );
    } finally {
      await worker.close();
    }
  } finally {
    await connection.close();
    await nativeConnection.close();
    await llm.close();
  }
}

/** A plan step with a generated title and description. */
export function planStep(id: string, dependsOn: string[] = []): PlanStep {
  return { id, title: `Step ${id}`, description: `Do ${id}`, depends_on: dependsOn };
}

/** A plan over `steps`. */
export function planOf(steps: PlanStep[]): Plan {
  return { task: 'benchmark task', language: 'en', steps, replan: [] };
}

/** `count` steps, each depending on the previous one. */
export function chain(count: number, prefix = 's'): PlanStep[] {
  return Array.from({ length: count }, (_, i) => planStep(`${prefix}${i + 1}`, i === 0 ? [] : [`${prefix}${i}`]));
}

/** How many tool results the step's conversation already holds: the rounds it has done. */
export function roundsDone(request: RecordedRequest): number {
  return request.body.messages.filter((m) => m.role === 'tool').length;
}

/**
 * Plays every model role from the request alone, so any number of agents can share it: the
 * planner returns `plan`, a step makes `roundsOf(step) - 1` lookup calls and then finishes,
 * the summary is a line of text.
 */
export function agentScript(plan: Plan, roundsOf: (stepId: string) => number = () => 1): ReplyFunction {
  return (request) => {
    switch (request.headers['x-cairn-purpose']) {
      case 'plan':
        return reply.json(plan);
      case 'step': {
        const done = roundsDone(request);
        const rounds = roundsOf(request.headers['x-cairn-step'] ?? '');
        return done + 1 >= rounds
          ? reply.toolCall('finish_step', { result: `done after ${done + 1} round(s)` })
          : reply.toolCall('lookup', { key: `k${done}` });
      }
      case 'summary':
        return reply.text('All steps are done.');
      default:
        return undefined;
    }
  };
}

/** The value at quantile `q` (0..1) of `values` (nearest rank). */
export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

export const median = (values: number[]): number => quantile(values, 0.5);

/** Milliseconds since `start` (a `performance.now()` value). */
export const since = (start: number): number => performance.now() - start;

/** `value` with `digits` decimals. */
export const fixed = (value: number, digits = 2): string => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

/** Milliseconds as `1234 ms` or `12.3 s`. */
export function ms(value: number): string {
  return value < 10_000 ? `${value.toFixed(0)} ms` : `${(value / 1000).toFixed(1)} s`;
}
