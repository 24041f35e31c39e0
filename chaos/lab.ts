/**
 * One scenario's world: its own Temporal dev server (free port, SQLite file in a temporary
 * folder, restartable on the same port and file), its own scripted LLM, workspace and task
 * queue, a client, and Cairn workers as separate OS processes (`worker/main.ts`, the entry
 * point of `npm run worker`) that the scenario starts and SIGKILLs. The lab names each worker
 * (`w1`, `w2`, … in CHAOS_WORKER, so the chaos tool's journal says which worker ran a call, and
 * its log is `worker-w1.log`),
 * counts kills and restarts, remembers which workers it killed and keeps every worker's output
 * for the report.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@temporalio/client';
import { connectTemporal } from '../temporal/connection';
import { AgentClient } from '../client/agents/agent-client';
import { startDevServer, type DevServer } from '../scripts/dev-server';
import { ScriptedLlm } from '../testkit/fake-llm';
import { lowFreePort } from '../testkit/low-port';
import type { WorkerProcess } from '../testkit/worker-process';
import { CHAOS_TOOLS, chaosScript } from './agent-script';
import { pause } from './clock';
import type { Outage } from './in-flight';
import type { Prng } from './prng';
import { WorkerRoster } from './worker-roster';
import { cairnDataConverter } from '../temporal/payloads/data-converter';
import { payloadEnv, payloadSettingsFromEnv } from '../config/payload-config';

/** What a lab needs from the runner. */
export interface LabOptions {
  /** Short name, used for the folder, the task queue and agent ids. */
  name: string;
  /** The `temporal` binary. */
  cli: string;
  /** The run's parent temporary folder. */
  root: string;
  prng: Prng;
  /**
   * Schedule every disruption where no write can be in flight (before the agents start), so
   * the scenario proves nothing: the check that such a run is not reported as a pass.
   */
  toothless: boolean;
  /**
   * Run at the smallest size (CHAOS_SMALLEST=1, which `npm run chaos:toothless` sets): one agent
   * where a scenario starts many, one kill where it sends several. A toothless run proves nothing
   * at any size; the small one says so sooner.
   */
  smallest: boolean;
}

/** A scenario's dev server, fake LLM, workers and client. */
export class Lab {
  /** SIGKILLs sent to workers. */
  kills = 0;
  /** Workers started to replace a killed one. */
  workerRestarts = 0;
  /** Times the dev server was stopped and started again. */
  serverRestarts = 0;
  /** Agents started so far. */
  agentsStarted = 0;
  /** Names (CHAOS_WORKER) of the workers the lab SIGKILLed, in order. */
  readonly killed: string[] = [];
  private readonly roster = new WorkerRoster();

  private constructor(
    readonly options: LabOptions,
    readonly dir: string,
    private server: DevServer,
    private readonly port: number,
    readonly llm: ScriptedLlm,
    readonly client: Client,
  ) {}

  /** Starts the lab's dev server, fake LLM and client. */
  static async open(options: LabOptions): Promise<Lab> {
    const dir = join(options.root, options.name);
    mkdirSync(join(dir, 'workspace'), { recursive: true });
    const port = await lowFreePort();
    const server = await startDevServer(serverOptions(options.cli, dir, port));
    const llm = await ScriptedLlm.start();
    llm.respondWith(chaosScript(options.prng.fork()));
    // CAIRN_ENCRYPTION_KEYS / CAIRN_COMPRESSION in the environment apply to the lab as to a worker.
    const dataConverter = cairnDataConverter(payloadSettingsFromEnv(process.env));
    const client = new Client({ connection: await connectTemporal({ address: server.address }), dataConverter });
    return new Lab(options, dir, server, port, llm, client);
  }

  /** A scenario's size: `full`, or `smallest` when the lab runs at its smallest size. */
  size(full: number, smallest: number): number {
    return this.options.smallest ? smallest : full;
  }

  /** The folder the agents' file tools write into. */
  get workspace(): string {
    return join(this.dir, 'workspace');
  }

  /** The lab's task queue. */
  get taskQueue(): string {
    return `chaos-${this.options.name}`;
  }

  /** The typed Cairn client on the lab's task queue. */
  get agents(): AgentClient {
    return new AgentClient(this.client, this.taskQueue);
  }

  /**
   * Starts a worker process and waits until it polls; `asRestart` counts it as a restart.
   * `env` adds to (or overrides) the lab's variables; `entry` runs another worker script.
   */
  async startWorker(
    asRestart = false,
    { env = {}, entry }: { env?: Record<string, string>; entry?: string } = {},
  ): Promise<WorkerProcess> {
    const variables = {
      TEMPORAL_ADDRESS: this.server.address,
      CAIRN_TASK_QUEUE: this.taskQueue,
      OPENAI_BASE_URL: this.llm.baseUrl,
      CAIRN_MODEL: 'scripted-model',
      CAIRN_WORKSPACE: this.workspace,
      CAIRN_TOOLS: join(__dirname, 'chaos-tools.ts'),
      CAIRN_AUTO_APPROVE: CHAOS_TOOLS.join(','),
      ...payloadEnv(process.env), // the lab's client and its workers share the payload codecs
      ...env,
    };
    const worker = await this.roster.start(variables, undefined, entry);
    if (asRestart) this.workerRestarts++;
    return worker;
  }

  /** Workers that are (as far as the lab knows) alive. */
  get workers(): readonly WorkerProcess[] {
    return this.roster.alive;
  }

  /** The lab's name for `worker` (its CHAOS_WORKER). */
  nameOf(worker: WorkerProcess): string {
    return this.roster.nameOf(worker);
  }

  /** SIGKILLs `worker` and waits until it is gone. */
  async killWorker(worker: WorkerProcess): Promise<void> {
    await this.roster.stop(worker, 'SIGKILL');
    this.kills++;
    this.killed.push(this.nameOf(worker));
  }

  /** Stops `worker` gracefully (SIGTERM: it drains and exits) and waits until it is gone. */
  async stopWorker(worker: WorkerProcess): Promise<void> {
    await this.roster.stop(worker, 'SIGTERM');
  }

  /** Workers that died without being killed by the lab. */
  deadWorkers(): WorkerProcess[] {
    return this.roster.dead();
  }

  /**
   * Stops the dev server with `signal`, leaves it down for `downMs`, and starts it again on the
   * same port with the same SQLite file. Returns the outage: from its exit until it served again.
   */
  async restartServer(signal: 'SIGTERM' | 'SIGKILL', downMs: number): Promise<Outage> {
    const { process: child } = this.server;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
    const from = Date.now();
    await pause(downMs);
    this.server = await startDevServer(serverOptions(this.options.cli, this.dir, this.port));
    this.serverRestarts++;
    return { from, to: Date.now() };
  }

  /** The ids of a scenario's `count` agents: `<lab name>-00`, `-01`, … */
  agentIds(count: number): string[] {
    return Array.from({ length: count }, (_, i) => `${this.options.name}-${String(i).padStart(2, '0')}`);
  }

  /**
   * Starts an agent per id, one after another; with `spread`, each waits a random share of
   * `spread.ms` first, so agents arrive over time and are in different phases when a kill lands.
   */
  async startAgents(ids: string[], spread?: { prng: Prng; ms: number }): Promise<void> {
    const agents = this.agents;
    const gap = spread ? spread.ms / ids.length : 0;
    for (const id of ids) {
      if (spread) await pause(spread.prng.between(0, 2 * gap));
      await agents.start({ task: `Chaos agent ${id}: write the records`, tools: CHAOS_TOOLS }, { workflowId: id });
      this.agentsStarted++;
    }
  }

  /**
   * Stops workers, the server and the fake, and writes every worker's output into the lab
   * folder (the runner removes it after a passing run). Returns problems found on the way (an
   * unscripted LLM request).
   */
  async close(): Promise<string[]> {
    const problems: string[] = [];
    await this.roster.closeInto(this.dir);
    await this.client.connection.close();
    await this.server.stop();
    await this.llm.close().catch((err: unknown) => problems.push(err instanceof Error ? err.message : String(err)));
    return problems;
  }
}

/**
 * A Worker Deployment version's drainage is rechecked every 3 minutes by default, and only 3
 * minutes after it stopped being current; the rolling-upgrade scenario waits for "drained".
 */
const DRAINAGE_CHECKS = {
  'matching.wv.VersionDrainageStatusVisibilityGracePeriod': '5s',
  'matching.wv.VersionDrainageStatusRefreshInterval': '1s',
};

function serverOptions(cli: string, dir: string, port: number) {
  return {
    cli,
    dbFile: join(dir, 'temporal.db'),
    port,
    logFile: join(dir, 'server.log'),
    dynamicConfig: DRAINAGE_CHECKS,
  };
}
