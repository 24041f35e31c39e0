/**
 * Cairn on the cluster, as an operator runs it: two worker processes (`npm run worker`'s entry
 * point) and the web server (`npm run web`), each configured by the environment alone
 * (TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, CAIRN_*), sharing one task queue and workspace; the
 * scripted LLM plays the chaos suite's writing agents. Scenarios run one after another in this
 * world and see it through a per-scenario view (its own kill and restart counts) that the chaos
 * suite's `verify` takes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@temporalio/client';
import { connectTemporal } from '../temporal/connection';
import { AgentClient } from '../client/agents/agent-client';
import { CHAOS_TOOLS, chaosScript } from '../chaos/agent-script';
import { JOURNAL } from '../chaos/journal';
import type { Prng } from '../chaos/prng';
import type { LabView } from '../chaos/verify';
import { WorkerRoster } from '../chaos/worker-roster';
import { ScriptedLlm } from '../testkit/fake-llm';
import { freePort } from '../testkit/free-port';
import { waitUntil } from '../testkit/wait-until';
import type { WorkerProcess } from '../testkit/worker-process';
import { NAMESPACE, type Cluster } from './cluster';
import { cairnDataConverter } from '../temporal/payloads/data-converter';
import { payloadEnv, payloadSettingsFromEnv } from '../config/payload-config';
import { withUploadCheck } from './upload-check';

const ROOT = join(__dirname, '..');

/** The task queue every process of the world uses. */
export const TASK_QUEUE = 'cairn-cluster';

/** `npm run <script>` in its own process group, output kept. */
interface NpmProcess {
  child: ChildProcess;
  output: () => string;
}

function npmRun(script: string, env: Record<string, string>): NpmProcess {
  const child = spawn('npm', ['run', '--silent', script], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // a group of its own: npm and the server it starts end together
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

/** Runs `npm run <script>` to its end; throws with its output when it fails. */
export async function npmRunToEnd(script: string, env: Record<string, string>): Promise<string> {
  const started = npmRun(script, env);
  const code = await new Promise<number | null>((resolve) => started.child.once('exit', (c) => resolve(c)));
  if (code !== 0) throw new Error(`npm run ${script} exited with ${code}:\n${started.output()}`);
  return started.output();
}

export class World {
  private readonly roster = new WorkerRoster();

  private constructor(
    readonly cluster: Cluster,
    readonly dir: string,
    readonly llm: ScriptedLlm,
    readonly client: Client,
    private readonly web: NpmProcess,
    /** The web server's base URL. */
    readonly webUrl: string,
  ) {}

  /** The environment every Cairn process gets: where Temporal is, nothing else about it. */
  static temporalEnv(cluster: Cluster): Record<string, string> {
    return {
      TEMPORAL_ADDRESS: cluster.address,
      TEMPORAL_NAMESPACE: NAMESPACE,
      CAIRN_TASK_QUEUE: TASK_QUEUE,
      // Workers, `npm run web` and the world's client share the payload codecs of the suite's environment.
      ...payloadEnv(process.env),
    };
  }

  /** Starts the fake LLM, the web server and a client; workers come with `startWorker`. */
  static async open(cluster: Cluster, dir: string, prng: Prng): Promise<World> {
    mkdirSync(join(dir, 'workspace'), { recursive: true });
    const llm = await ScriptedLlm.start();
    llm.respondWith(withUploadCheck(chaosScript(prng.fork())));
    const port = await freePort();
    const webUrl = `http://127.0.0.1:${port}`;
    // The web server stores uploads where the workers read them: the same workspace folder.
    const web = npmRun('web', {
      ...World.temporalEnv(cluster),
      CAIRN_HTTP_PORT: String(port),
      CAIRN_WORKSPACE: join(dir, 'workspace'),
    });
    await waitUntil('npm run web listens', () => web.output().includes(`Cairn API on ${webUrl}`), {
      timeoutMs: 120_000,
      intervalMs: 200,
    }).catch((err: unknown) => {
      throw new Error(`${err instanceof Error ? err.message : String(err)}:\n${web.output()}`);
    });
    const connection = await connectTemporal({ address: cluster.address });
    const dataConverter = cairnDataConverter(payloadSettingsFromEnv(process.env));
    const client = new Client({ connection, namespace: NAMESPACE, dataConverter });
    return new World(cluster, dir, llm, client, web, webUrl);
  }

  /** The folder the agents' file tools write into. */
  get workspace(): string {
    return join(this.dir, 'workspace');
  }

  /** The typed Cairn client. */
  get agents(): AgentClient {
    return new AgentClient(this.client, TASK_QUEUE);
  }

  /** Whether the web server's process group still runs. */
  get webAlive(): boolean {
    return this.web.child.exitCode === null && this.web.child.signalCode === null;
  }

  /** A worker process on the cluster; resolves once it polls. */
  startWorker(): Promise<WorkerProcess> {
    return this.roster.start(
      {
        ...World.temporalEnv(this.cluster),
        OPENAI_BASE_URL: this.llm.baseUrl,
        CAIRN_MODEL: 'scripted-model',
        CAIRN_WORKSPACE: this.workspace,
        CAIRN_TOOLS: join(ROOT, 'chaos', 'chaos-tools.ts'),
        CAIRN_AUTO_APPROVE: CHAOS_TOOLS.join(','),
      },
      180_000,
    );
  }

  /** Workers that are (as far as the world knows) alive. */
  get workers(): readonly WorkerProcess[] {
    return this.roster.alive;
  }

  /** The world's name for `worker` (its CHAOS_WORKER). */
  nameOf(worker: WorkerProcess): string {
    return this.roster.nameOf(worker);
  }

  /** SIGKILLs `worker` and waits until it is gone. */
  async killWorker(worker: WorkerProcess): Promise<void> {
    await this.roster.stop(worker, 'SIGKILL');
  }

  /** Workers that died without being killed. */
  deadWorkers(): WorkerProcess[] {
    return this.roster.dead();
  }

  /**
   * A fresh view for one scenario. The chaos tool's journal is moved aside first (no write is
   * in flight between scenarios), so the retries and cut calls a scenario's verdict counts are
   * its own, not those of the scenarios before it.
   */
  view(name: string): ScenarioView {
    const journal = join(this.workspace, JOURNAL);
    if (existsSync(journal)) renameSync(journal, join(this.workspace, '.chaos', `journal-before-${name}.log`));
    return new ScenarioView(this, name);
  }

  /** Stops workers, the web server and the fake; writes their output into the run folder. */
  async close(): Promise<string[]> {
    const problems: string[] = [];
    await this.roster.closeInto(this.dir);
    const pgid = this.web.child.pid;
    if (pgid !== undefined && this.webAlive) process.kill(-pgid, 'SIGKILL');
    writeFileSync(join(this.dir, 'web.log'), this.web.output());
    await this.client.connection.close();
    await this.llm.close().catch((err: unknown) => problems.push(err instanceof Error ? err.message : String(err)));
    return problems;
  }
}

/** One scenario's look at the world: the chaos suite's `verify` reads it like a lab. */
export class ScenarioView implements LabView {
  kills = 0;
  workerRestarts = 0;
  /** Temporal services or PostgreSQL stopped and started again. */
  serverRestarts = 0;
  readonly killed: string[] = [];
  readonly options: { name: string };
  /** How many unscripted requests and unreleased holds the shared fake LLM had when the view was made. */
  private readonly llmBefore: { unscripted: number; holds: number };

  constructor(
    readonly world: World,
    name: string,
  ) {
    this.options = { name };
    this.llmBefore = { unscripted: world.llm.unscripted.length, holds: world.llm.holdFailures.length };
  }

  /**
   * What went wrong at the fake LLM during this scenario: requests it had no reply for (each
   * got an HTTP 400 that the agent may have absorbed) and holds never released. The fake would
   * report them only when it closes, after every scenario; here they fail the scenario they
   * happened in.
   */
  llmProblems(): string[] {
    const { llm } = this.world;
    return [
      ...llm.unscripted
        .slice(this.llmBefore.unscripted)
        .map(
          (r) =>
            `the fake LLM had no scripted reply for request #${r.index} ` +
            `(purpose ${r.headers['x-cairn-purpose'] ?? '?'}, agent ${r.headers['x-cairn-agent'] ?? '?'})`,
        ),
      ...llm.holdFailures.slice(this.llmBefore.holds),
    ];
  }

  get agents(): AgentClient {
    return this.world.agents;
  }
  get client(): Client {
    return this.world.client;
  }
  get llm(): ScriptedLlm {
    return this.world.llm;
  }
  get workspace(): string {
    return this.world.workspace;
  }
  get workers(): readonly WorkerProcess[] {
    return this.world.workers;
  }
  deadWorkers(): WorkerProcess[] {
    return this.world.deadWorkers();
  }

  /** The ids of the scenario's `count` agents: `<name>-00`, `-01`, … */
  agentIds(count: number): string[] {
    return Array.from({ length: count }, (_, i) => `${this.options.name}-${String(i).padStart(2, '0')}`);
  }

  /** Starts the agents one after another. */
  async startAgents(ids: string[]): Promise<void> {
    for (const id of ids) {
      await this.agents.start(
        { task: `Cluster agent ${id}: write the records`, tools: CHAOS_TOOLS },
        { workflowId: id },
      );
    }
  }

  /** SIGKILLs a worker, counted as this scenario's kill. */
  async killWorker(worker: WorkerProcess): Promise<void> {
    const name = this.world.nameOf(worker);
    await this.world.killWorker(worker);
    this.kills++;
    this.killed.push(name);
  }
}
