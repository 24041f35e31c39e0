/**
 * Starts the real Temporal CLI dev server (`temporal server start-dev`) as a child process and
 * waits until it answers. Used by `npm run server`, `npm start` and the jest global setup, so
 * every run registers the same search attributes.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, openSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { connectTemporal } from '../temporal/connection';
import type { SearchAttributeType } from '@temporalio/common';
import * as searchAttributes from '../workflows/contract/search-attributes';

/** The custom search attributes Cairn upserts: every key workflows/contract/search-attributes.ts defines. */
export const SEARCH_ATTRIBUTE_KEYS = Object.values(searchAttributes);

/** The same, as the Temporal CLI's `--search-attribute <name>=<type>` spells them (`AgentPhase: 'Keyword'`). */
export const SEARCH_ATTRIBUTES: Record<string, string> = Object.fromEntries(
  SEARCH_ATTRIBUTE_KEYS.map((key) => [key.name, cliTypeName(key.type)]),
);

/** `KEYWORD` → `Keyword`, `KEYWORD_LIST` → `KeywordList`. */
function cliTypeName(type: SearchAttributeType): string {
  return type.toLowerCase().replace(/(?:^|_)([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

const ROOT = join(__dirname, '..');

/**
 * Write-ahead logging with `synchronous=normal`: a commit no longer waits for an fsync of the
 * database, which under load made SQLite the dev server's bottleneck (agents ran at half the
 * speed). Still durable when the server or the machine's processes crash — only a power loss
 * can drop the last transactions, which is the trade a development server should make.
 */
const SQLITE_PRAGMAS = ['journal_mode=wal', 'synchronous=normal'];

/**
 * The server reads its transfer and timer queues at most 20 times a second by default, so a
 * task (a workflow task after an activity, an activity, a child start) waited up to 50 ms in
 * the history service before reaching a worker — several times per agent step. Reading up to
 * 200 times a second cut the agent step overhead by a third and the time to a visible plan
 * from ~190 ms to ~70 ms; the events cache spares the server re-reading history it just wrote.
 * The dev server has one history shard whose cache of workflow states holds 512 by default:
 * with 1,000 agents (2,000 running workflows) it thrashed and throughput fell by a third.
 */
const DYNAMIC_CONFIG: Record<string, unknown> = {
  'history.transferProcessorMaxPollRPS': 200,
  'history.timerProcessorMaxPollRPS': 200,
  'history.enableHostLevelEventsCache': true,
  'history.cacheMaxSize': 4096,
};

/** Finds or installs the `temporal` binary (scripts/ensure-temporal.sh) and returns its path. */
export function ensureTemporalCli(): string {
  const out = execFileSync('bash', [join(ROOT, 'scripts/ensure-temporal.sh')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return out.trim();
}

/** The first line of `temporal --version`. */
export function temporalVersion(cli: string): string {
  return execFileSync(cli, ['--version'], { encoding: 'utf8' }).split('\n')[0] ?? 'unknown';
}

export interface DevServerOptions {
  cli: string;
  /** SQLite file; created with its folder. */
  dbFile: string;
  port: number;
  /** Web UI port; omit for a headless server. */
  uiPort?: number;
  /** The codec server the Web UI decodes payloads with (Cairn's `/codec`, when encryption is on). */
  uiCodecEndpoint?: string;
  ip?: string;
  /** Server log file; defaults to inheriting the parent's stderr. */
  logFile?: string;
  /** Extra `--dynamic-config-value K=JSON` pairs. */
  dynamicConfig?: Record<string, unknown>;
  /** How long to wait for the server to answer. */
  readyTimeoutMs?: number;
  /** The search attributes to register (`name → type`); Cairn's when absent. */
  searchAttributes?: Record<string, string>;
}

/** A started dev server. */
export interface DevServer {
  address: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Starts the dev server and resolves once its gRPC endpoint answers a health check. */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const ip = options.ip ?? '127.0.0.1';
  mkdirSync(dirname(options.dbFile), { recursive: true });
  const args = ['server', 'start-dev', '--db-filename', options.dbFile, '--ip', ip, '--port', String(options.port)];
  args.push(...(options.uiPort ? ['--ui-port', String(options.uiPort)] : ['--headless']));
  if (options.uiPort && options.uiCodecEndpoint) args.push('--ui-codec-endpoint', options.uiCodecEndpoint);
  for (const [name, type] of Object.entries(options.searchAttributes ?? SEARCH_ATTRIBUTES)) {
    args.push('--search-attribute', `${name}=${type}`);
  }
  for (const [key, value] of Object.entries({ ...DYNAMIC_CONFIG, ...options.dynamicConfig })) {
    args.push('--dynamic-config-value', `${key}=${JSON.stringify(value)}`);
  }
  for (const pragma of SQLITE_PRAGMAS) args.push('--sqlite-pragma', pragma);
  args.push('--log-level', 'warn');
  const log = options.logFile ? openSync(options.logFile, 'a') : 'inherit';
  const child = spawn(options.cli, args, { stdio: ['ignore', log, log], detached: false });
  const address = `${ip}:${options.port}`;
  const exited = new Promise<never>((_, reject) => {
    child.once('exit', (code) => reject(new Error(`temporal dev server exited early with code ${code}`)));
    child.once('error', reject);
  });
  try {
    await Promise.race([waitUntilServing(address, options.readyTimeoutMs ?? 60_000), exited]);
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  exited.catch(() => undefined); // later exits are reported by stop() or the owner
  return {
    address,
    process: child,
    stop: () => stopProcess(child),
  };
}

/** True when something answers Temporal health checks at `address`. */
export async function isServing(address: string): Promise<boolean> {
  try {
    const connection = await connectTemporal({ address, connectTimeout: 1_000 });
    try {
      await connection.healthService.check({});
      return true;
    } finally {
      await connection.close();
    }
  } catch {
    return false;
  }
}

async function waitUntilServing(address: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await isServing(address)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`temporal dev server at ${address} did not answer within ${timeoutMs} ms`);
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const done = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await done;
  clearTimeout(timer);
}
