/**
 * One Temporal service (frontend, history, matching or worker) as its own `temporal-server`
 * process, configured by the shared template (cluster/temporal-config.yaml.tmpl) and the
 * environment alone. It can be SIGKILLed or stopped and started again on the same ports; its log
 * goes to a file, appended across restarts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { waitUntil } from '../testkit/wait-until';
import { CONFIG_TEMPLATE } from './pinned';

/**
 * How `temporal-server` finds its configuration, set exactly so in docker-compose.yml: the
 * template by TEMPORAL_SERVER_CONFIG_FILE_PATH, and no authorizer on purpose (loopback only).
 */
export const SERVER_ENV = { TEMPORAL_SERVER_CONFIG_FILE_PATH: CONFIG_TEMPLATE, TEMPORAL_ALLOW_NO_AUTH: 'true' };

/** The services `temporal-server start --service` knows that the suite runs. */
export type ServiceRole = 'frontend' | 'history' | 'matching' | 'worker';

/** Resolves once something accepts a TCP connection on `port` (loopback), else false. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export class TemporalService {
  private child: ChildProcess | undefined;
  private exit: Promise<void> = Promise.resolve();
  /** Times the suite stopped it (killed or restarted) on purpose. */
  stops = 0;

  constructor(
    /** e.g. `history-1`: names the log file and the service in reports. */
    readonly name: string,
    readonly role: ServiceRole,
    private readonly binary: string,
    /** The template's variables for this process (ports, database). */
    private readonly env: Record<string, string>,
    /** The port that answers once the service is up. */
    readonly grpcPort: number,
    private readonly dir: string,
  ) {}

  /** Its log file. */
  get logFile(): string {
    return join(this.dir, `temporal-${this.name}.log`);
  }

  /** Whether its process is running. */
  get alive(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** How it ended, when it did: `exit 1` or `SIGKILL`. */
  get ending(): string {
    const child = this.child;
    if (!child) return 'not started';
    return child.exitCode !== null ? `exit ${child.exitCode}` : String(child.signalCode);
  }

  /** Starts the process and waits until its gRPC port accepts connections. */
  async start(readyTimeoutMs = 120_000): Promise<void> {
    const log = openSync(this.logFile, 'a');
    const child = spawn(this.binary, ['start', '--service', this.role], {
      env: { PATH: process.env.PATH ?? '', ...SERVER_ENV, ...this.env },
      stdio: ['ignore', log, log],
    });
    closeSync(log);
    this.child = child;
    this.exit = new Promise((resolve) => child.once('exit', () => resolve()));
    await waitUntil(
      `${this.name} listens on ${this.grpcPort}`,
      async () => {
        if (!this.alive) throw new Error(`${this.name} exited (${this.ending}); see ${this.logFile}`);
        return listening(this.grpcPort);
      },
      { timeoutMs: readyTimeoutMs, intervalMs: 200 },
    );
  }

  /** Sends `signal` and waits until the process is gone. */
  async stop(signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
    if (this.alive) this.child?.kill(signal);
    await this.exit;
    this.stops++;
  }
}
