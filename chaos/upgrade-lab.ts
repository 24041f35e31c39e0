/**
 * What the upgrade scenarios share: versioned workers of build `chaos-v1` (worker/main.ts) and
 * `chaos-v2` (chaos/v2-worker.ts, workflow code that cannot replay version 1's histories), the
 * deployment calls of `cairn deploy`, and a desk that plays the people: it answers questions,
 * confirms plan checks and approves writes — each part only once the scenario lets it.
 */
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import type { AgentClient } from '../client/agents/agent-client';
import { awaitVersion, describeDeployment, setCurrent } from '../temporal/deployments';
import { DEFAULT_DEPLOYMENT_NAME, type WorkerVersion } from '../config/versioning-config';
import type { WorkerProcess } from '../testkit/worker-process';
import { waitUntil } from '../testkit/wait-until';
import type { Interaction } from '../workflows/model/interactions/interaction-types';
import { isTerminalPhase } from '../workflows/model/state/agent-phases';
import type { Lab } from './lab';
import { inputFor, partOf, type Part } from './upgrade-script';

/** The two builds. */
export const V1: WorkerVersion = { deploymentName: DEFAULT_DEPLOYMENT_NAME, buildId: 'chaos-v1' };
export const V2: WorkerVersion = { deploymentName: DEFAULT_DEPLOYMENT_NAME, buildId: 'chaos-v2' };

/**
 * Starts the worker of `version` and waits until the server lists it. Only the chaos tool is
 * auto-approved, so every `write_file` call waits for an approval from the desk.
 */
async function startVersion(lab: Lab, version: WorkerVersion): Promise<WorkerProcess> {
  const env = { CAIRN_WORKER_VERSIONING: 'on', CAIRN_BUILD_ID: version.buildId, CAIRN_AUTO_APPROVE: 'chaos_append' };
  const entry = version === V2 ? join(__dirname, 'v2-worker.ts') : undefined;
  const worker = await lab.startWorker(false, { env, ...(entry ? { entry } : {}) });
  await awaitVersion(lab.client, 'default', version, 60_000);
  return worker;
}

/**
 * Starts both versions' workers side by side (each bundles its workflow code at start) and waits
 * until version 1 is current — it adopts itself as the deployment's first version, as
 * `npm run worker` does — and version 2 is registered, not current.
 */
export async function startVersions(lab: Lab): Promise<{ v1: WorkerProcess; v2: WorkerProcess }> {
  const [v1, v2] = await Promise.all([startVersion(lab, V1), startVersion(lab, V2)]);
  await waitUntil('chaos-v1 current', async () => (await currentBuild(lab)) === V1.buildId, {
    timeoutMs: 30_000,
    intervalMs: 100,
  });
  return { v1, v2 };
}

/** Makes `version` current, as `cairn deploy promote --build-id` does; returns `Date.now()` after. */
export async function promote(lab: Lab, version: WorkerVersion): Promise<number> {
  await setCurrent(lab.client, 'default', version);
  await waitUntil(`${version.buildId} current`, async () => (await currentBuild(lab)) === version.buildId, {
    timeoutMs: 20_000,
    intervalMs: 100,
  });
  // Matching learns of the new routing asynchronously: until it has, a new run may still be sent
  // to the version that was current before, which the checks would count as a wrong move.
  await waitUntil(`${version.buildId} routed everywhere`, () => routingPropagated(lab), {
    timeoutMs: 20_000,
    intervalMs: 100,
  });
  return Date.now();
}

/** Whether the deployment's last routing change reached every task queue partition. */
async function routingPropagated(lab: Lab): Promise<boolean> {
  const { workerDeploymentInfo } = await lab.client.workflowService.describeWorkerDeployment({
    namespace: 'default',
    deploymentName: DEFAULT_DEPLOYMENT_NAME,
  });
  const state = workerDeploymentInfo?.routingConfigUpdateState;
  const { ROUTING_CONFIG_UPDATE_STATE_IN_PROGRESS } = temporal.api.enums.v1.RoutingConfigUpdateState;
  return state !== ROUTING_CONFIG_UPDATE_STATE_IN_PROGRESS;
}

/** The deployment's current build id. */
export async function currentBuild(lab: Lab): Promise<string | undefined> {
  return (await describeDeployment(lab.client, 'default', DEFAULT_DEPLOYMENT_NAME))?.current;
}

/** Starts an agent per id with its part's input. */
export async function startParts(agents: AgentClient, ids: string[]): Promise<void> {
  for (const id of ids) await agents.start(inputFor(id, partOf(id) ?? 'late'), { workflowId: id });
}

/** The lab's ids for `count` agents of `part`: `<lab>-<part>-00`, … */
export function partIds(lab: Lab, part: Part, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${lab.options.name}-${part}-${String(i).padStart(2, '0')}`);
}

/** Whether an agent shows it is where its part must be caught: steps mid-loop, or a question open. */
function caught(part: Part, steps: { id: string; status: string }[], open: Interaction[]): boolean {
  switch (part) {
    case 'react':
      return steps.filter((s) => s.status === 'running').length >= 2;
    case 'ask':
      return open.some((i) => i.kind.startsWith('ask'));
    case 'check':
    case 'expiry':
      return open.some((i) => i.kind === 'plan.check');
    case 'approval':
      return open.some((i) => i.kind === 'tool.approval');
    default:
      return true;
  }
}

/**
 * Plays the people. Before `release()`, it approves only the writes of parts that are not held
 * (`approval` agents wait); after, it answers every open question, confirms the plan checks of
 * `ask` and `check` agents (never of `expiry` ones: their timers decide) and approves every write.
 */
export class Desk {
  private released = false;
  private stopped = false;
  private readonly loop: Promise<void>;
  private readonly ended = new Set<string>();

  constructor(
    private readonly agents: AgentClient,
    private readonly ids: () => string[],
    private readonly holdUntilRelease: readonly Part[] = ['approval', 'ask', 'check'],
  ) {
    this.loop = this.run();
  }

  /** From now on every part gets its answers. */
  release(): void {
    this.released = true;
  }

  /** Waits until every agent of `ids` was seen where its part must be caught. */
  async caught(ids: string[], timeoutMs = 60_000): Promise<void> {
    const seen = new Set<string>();
    await waitUntil(
      `${ids.length} agents caught in their phase`,
      async () => {
        for (const id of ids.filter((i) => !seen.has(i))) {
          const state = await this.agents.state(id).catch(() => undefined);
          const open = state?.interactions.filter((i) => i.status === 'open') ?? [];
          if (state && caught(partOf(id) ?? 'late', state.steps, open)) seen.add(id);
        }
        return seen.size === ids.length;
      },
      { timeoutMs, intervalMs: 200 },
    ).catch(async (err: unknown) => {
      const missing = ids.filter((i) => !seen.has(i));
      const states = await Promise.all(missing.map((id) => this.agents.state(id).catch(() => undefined)));
      const where = states.map((state, i) => {
        const open = state?.interactions.filter((x) => x.status === 'open').map((x) => x.kind) ?? [];
        return `${missing[i]}: ${state?.phase ?? '?'} [${open.join(', ')}]`;
      });
      throw new Error(`${String(err)}; not caught: ${where.join('; ')}`);
    });
  }

  /** Stops answering. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
  }

  /** One loop per agent, so an agent slow to answer a query never delays another's answers. */
  private async run(): Promise<void> {
    await Promise.all(this.ids().map((id) => this.follow(id)));
  }

  private async follow(id: string): Promise<void> {
    while (!this.stopped && !this.ended.has(id)) {
      await this.serve(id).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  private async serve(id: string): Promise<void> {
    const state = await this.agents.state(id);
    if (isTerminalPhase(state.phase)) return void this.ended.add(id);
    const part = partOf(id) ?? 'late';
    const held = !this.released && this.holdUntilRelease.includes(part);
    for (const interaction of state.interactions.filter((i) => i.status === 'open')) {
      const answer = held ? undefined : answerFor(part, interaction);
      if (answer === undefined) continue;
      await this.agents.answer(id, { interactionId: interaction.id, answer, by: 'chaos desk' }).catch(() => undefined);
    }
  }
}

function answerFor(part: Part, interaction: Interaction): unknown {
  if (interaction.kind === 'tool.approval') return { decision: 'approve', digest: interaction.digest };
  if (interaction.kind === 'ask.query') return { text: 'all of them' };
  if (interaction.kind === 'plan.check' && part !== 'expiry') return { decision: 'confirm' };
  return undefined;
}
