/**
 * A throwaway PostgreSQL server for the cluster suite: its own data directory in a temporary
 * folder, loopback only on a free port, password authentication for one superuser. Started and
 * stopped with pg_ctl, so a restart can be clean (`fast`) or a crash (`immediate`: no
 * checkpoint, recovery from the WAL at the next start). PostgreSQL refuses to run as root: when
 * the suite runs as root, every PostgreSQL program runs as the `postgres` system user (which
 * Debian's package creates) through runuser, and the data directory belongs to that user.
 */
import { execFile } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Where to reach the server, as the Temporal config template and the schema script read it. */
export interface PostgresAddress {
  host: string;
  port: number;
  user: string;
  password: string;
}

export class Postgres {
  private constructor(
    private readonly bin: string,
    /** The folder holding the data directory, the socket and the log. */
    readonly dir: string,
    readonly address: PostgresAddress,
    private readonly owner: { uid: number; gid: number } | undefined,
  ) {}

  /** The server log, for a look after a failed run. */
  get logFile(): string {
    return join(this.dir, 'postgres.log');
  }

  /** Creates a new database cluster (initdb) in a temporary folder; `start` starts it. */
  static async create(bin: string, port: number): Promise<Postgres> {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-pg-'));
    const owner = process.getuid?.() === 0 ? await postgresUser() : undefined;
    const address = { host: '127.0.0.1', port, user: 'temporal', password: 'temporal-cluster-suite' };
    const pg = new Postgres(bin, dir, address, owner);
    writeFileSync(join(dir, 'pwfile'), `${address.password}\n`);
    if (owner) {
      chownSync(dir, owner.uid, owner.gid);
      chownSync(join(dir, 'pwfile'), owner.uid, owner.gid);
    }
    chmodSync(dir, 0o700);
    await pg.exec('initdb', [
      '-D',
      pg.dataDir,
      '-U',
      address.user,
      `--pwfile=${join(dir, 'pwfile')}`,
      '--auth=scram-sha-256',
      '--no-sync',
      '--encoding=UTF8',
      '--locale=C',
    ]);
    return pg;
  }

  private get dataDir(): string {
    return join(this.dir, 'data');
  }

  /** Starts the server and waits until it accepts connections. */
  async start(): Promise<void> {
    const options = [
      `-p ${this.address.port}`,
      `-c listen_addresses=${this.address.host}`,
      `-c unix_socket_directories=${this.dir}`,
      // Crash safety against a killed server stays (the WAL); only a power loss could lose data,
      // and nobody keeps a test database: spare the shared disk the flushes.
      '-c fsync=off',
      '-c max_connections=300',
    ].join(' ');
    await this.exec('pg_ctl', ['-D', this.dataDir, '-l', this.logFile, '-o', options, '-w', '-t', '120', 'start']);
  }

  /** Stops the server: `fast` shuts down cleanly, `immediate` dies like a crash. */
  async stop(mode: 'fast' | 'immediate'): Promise<void> {
    await this.exec('pg_ctl', ['-D', this.dataDir, '-m', mode, '-w', '-t', '60', 'stop']);
  }

  /**
   * Runs one SQL statement with psql (over TCP, as the database user) in `database` and returns
   * its rows, tab-separated fields. For reading what Temporal stored, e.g. a workflow's shard.
   */
  async query(database: string, sql: string): Promise<string[][]> {
    const { host, port, user, password } = this.address;
    const args = ['-h', host, '-p', String(port), '-U', user, '-d', database, '-AtX', '-F', '\t', '-c', sql];
    const { stdout } = await run(join(this.bin, 'psql'), args, {
      env: { PATH: process.env.PATH ?? '', PGPASSWORD: password },
      timeout: 60_000,
    });
    return stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split('\t'));
  }

  /** Stops the server for good and removes its folder (kept when `keep`). */
  async destroy(keep: boolean): Promise<void> {
    await this.stop('immediate').catch(() => undefined);
    if (!keep) rmSync(this.dir, { recursive: true, force: true });
  }

  private async exec(program: string, args: string[]): Promise<void> {
    const path = join(this.bin, program);
    const [file, argv] = this.owner ? ['runuser', ['-u', 'postgres', '--', path, ...args]] : [path, args];
    try {
      await run(file, argv, { cwd: this.dir, timeout: 180_000 });
    } catch (err) {
      const detail = err instanceof Error ? err.message : String(err);
      throw new Error(`${program} ${args.at(-1) ?? ''} failed: ${detail}`, { cause: err });
    }
  }
}

/** The `postgres` system user's ids; PostgreSQL's programs run as it when the suite is root. */
async function postgresUser(): Promise<{ uid: number; gid: number }> {
  const id = async (flag: string) => Number((await run('id', [flag, 'postgres'])).stdout.trim());
  try {
    return { uid: await id('-u'), gid: await id('-g') };
  } catch (err) {
    throw new Error(
      'running as root, PostgreSQL needs an unprivileged user to run as, and there is no "postgres" user ' +
        "(Debian's postgresql package creates it): run the suite as another user, or create one",
      { cause: err },
    );
  }
}
