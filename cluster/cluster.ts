/**
 * A real Temporal cluster on loopback, the production shape: PostgreSQL (persistence and SQL
 * visibility, schemas set up by temporal-sql-tool) and Temporal's services as separate
 * processes — frontend, matching, worker and two history hosts that share the shards — each
 * started from the one config template with its own free ports. Any service or PostgreSQL can
 * be stopped and started again on the same ports.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { connectTemporal } from '../temporal/connection';
import { msToTs } from '@temporalio/common/lib/time';
import { freePort } from '../testkit/free-port';
import { waitUntil } from '../testkit/wait-until';
import { lowFreePort } from '../testkit/low-port';
import { DYNAMIC_CONFIG, HISTORY_SHARDS, SETUP_SCHEMA } from './pinned';
import { Postgres } from './postgres';
import { TemporalService, type ServiceRole } from './temporal-service';

const run = promisify(execFile);

/** Where the provisioning scripts found or built the programs. */
export interface ClusterPrograms {
  /** Folder with temporal-server and temporal-sql-tool. */
  temporalDir: string;
  /** Folder with initdb, pg_ctl and postgres. */
  pgBin: string;
}

/** The namespace Cairn's configuration defaults to. */
export const NAMESPACE = 'default';

/** Startup order: history hosts first, so the frontend finds the shards owned when it comes. */
const LAYOUT: [string, ServiceRole][] = [
  ['history-1', 'history'],
  ['history-2', 'history'],
  ['matching', 'matching'],
  ['frontend', 'frontend'],
  ['worker', 'worker'],
];

export class Cluster {
  private constructor(
    readonly dir: string,
    readonly postgres: Postgres,
    readonly services: Map<string, TemporalService>,
    readonly frontendPort: number,
  ) {}

  /** The frontend's address, as TEMPORAL_ADDRESS takes it. */
  get address(): string {
    return `127.0.0.1:${this.frontendPort}`;
  }

  /** A service by name (`history-1`, `frontend`, …). */
  service(name: string): TemporalService {
    const found = this.services.get(name);
    if (!found) throw new Error(`no service ${name}`);
    return found;
  }

  /** Starts PostgreSQL, sets up the schemas, starts every service and registers the namespace. */
  static async start(dir: string, programs: ClusterPrograms, say: (line: string) => void): Promise<Cluster> {
    let began = performance.now();
    const lap = (what: string) => {
      say(`  ${what} in ${((performance.now() - began) / 1000).toFixed(1)} s`);
      began = performance.now();
    };
    const postgres = await Postgres.create(programs.pgBin, await freePort());
    await postgres.start();
    lap(`PostgreSQL up on port ${postgres.address.port} (${postgres.dir})`);
    const db = {
      POSTGRES_SEEDS: postgres.address.host,
      DB_PORT: String(postgres.address.port),
      POSTGRES_USER: postgres.address.user,
      POSTGRES_PWD: postgres.address.password,
    };
    await run('sh', [SETUP_SCHEMA], {
      env: { PATH: process.env.PATH ?? '', SQL_TOOL: join(programs.temporalDir, 'temporal-sql-tool'), ...db },
      timeout: 300_000,
    });
    lap('schemas set up with temporal-sql-tool (persistence and visibility)');

    const port = async () => String(await lowFreePort());
    const shared: Record<string, string> = {
      ...db,
      NUM_HISTORY_SHARDS: String(HISTORY_SHARDS),
      BIND_ON_IP: '127.0.0.1',
      DYNAMIC_CONFIG_FILE_PATH: DYNAMIC_CONFIG,
      LOG_LEVEL: 'info',
      FRONTEND_GRPC_PORT: await port(),
      FRONTEND_HTTP_PORT: await port(),
      FRONTEND_MEMBERSHIP_PORT: await port(),
      MATCHING_GRPC_PORT: await port(),
      MATCHING_MEMBERSHIP_PORT: await port(),
      WORKER_GRPC_PORT: await port(),
      WORKER_MEMBERSHIP_PORT: await port(),
    };
    const binary = join(programs.temporalDir, 'temporal-server');
    const services = new Map<string, TemporalService>();
    for (const [name, role] of LAYOUT) {
      // Each history host has its own ports; everyone else reads the shared ones.
      const own: Record<string, string> =
        role === 'history' ? { HISTORY_GRPC_PORT: await port(), HISTORY_MEMBERSHIP_PORT: await port() } : {};
      const env: Record<string, string> = { ...shared, ...own };
      const grpcPort = Number(env[`${role.toUpperCase()}_GRPC_PORT`]);
      services.set(name, new TemporalService(name, role, binary, env, grpcPort, dir));
    }
    const cluster = new Cluster(dir, postgres, services, Number(shared.FRONTEND_GRPC_PORT));
    for (const service of services.values()) await service.start();
    lap(`Temporal services up as ${services.size} processes (${[...services.keys()].join(', ')})`);
    await cluster.registerNamespace();
    lap(`namespace "${NAMESPACE}" registered`);
    return cluster;
  }

  /** Registers the namespace (the server image, unlike auto-setup, creates none) and waits until it serves. */
  private async registerNamespace(): Promise<void> {
    const connection = await waitUntil(
      'the frontend answers',
      () => {
        const dead = this.deadServices();
        if (dead.length > 0)
          throw new Error(dead.map((s) => `${s.name} exited (${s.ending}), see ${s.logFile}`).join('; '));
        return connectTemporal({ address: this.address, connectTimeout: '5s' });
      },
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    try {
      const service = connection.workflowService;
      await waitUntil('the cluster answers', () => service.getSystemInfo({}), { timeoutMs: 60_000, intervalMs: 500 });
      const exists = await service.describeNamespace({ namespace: NAMESPACE }).then(
        () => true,
        () => false,
      );
      if (!exists) {
        await service.registerNamespace({
          namespace: NAMESPACE,
          workflowExecutionRetentionPeriod: msToTs('1 day'),
        });
      }
      // The frontend's namespace registry refreshes every few seconds: describeNamespace reads
      // the database, but the operator service (search attributes) asks the registry.
      await waitUntil('the namespace is known', () => service.describeNamespace({ namespace: NAMESPACE }), {
        timeoutMs: 60_000,
        intervalMs: 500,
      });
      await waitUntil(
        'the namespace is in the registry',
        () => connection.operatorService.listSearchAttributes({ namespace: NAMESPACE }).catch(() => undefined),
        { timeoutMs: 60_000, intervalMs: 500 },
      );
    } finally {
      await connection.close();
    }
  }

  /** Temporal services that are down although the suite did not stop them. */
  deadServices(): TemporalService[] {
    return [...this.services.values()].filter((s) => !s.alive);
  }

  /** Stops every service and PostgreSQL; the folders stay when `keep`. */
  async stop(keep: boolean): Promise<void> {
    await Promise.all([...this.services.values()].map((s) => s.stop('SIGKILL')));
    await this.postgres.destroy(keep);
  }
}
