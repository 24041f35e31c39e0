/**
 * `npm start` as a new user runs it, for the e2e tests: in the repository, with only the
 * environment a test gives (and PATH, HOME, the tools folder), in a process group of its own so
 * that what it left running can be listed (`ps`) and ended. Never the repository's `.data/`
 * folder: the dev server's data and the workspace live in the test's folder.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '../../testkit/free-port';
import { uniqueId } from './test-env';

const ROOT = join(__dirname, '..', '..');

/** A running `npm start`. */
export interface NpmStart {
  child: ChildProcess;
  /** The test folder its data lives in. */
  dir: string;
  /** Everything it printed so far, stdout and stderr interleaved. */
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `npm start` with its data under `dir` and `env` on top. */
export function npmStart(dir: string, env: Record<string, string>): NpmStart {
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      ...(process.env.CAIRN_TOOLS_DIR ? { CAIRN_TOOLS_DIR: process.env.CAIRN_TOOLS_DIR } : {}),
      CAIRN_TASK_QUEUE: uniqueId('npm-start-queue'),
      // Not the shared server's deployment: this process is no release.
      CAIRN_WORKER_VERSIONING: 'off',
      CAIRN_WORKSPACE: join(dir, 'workspace'),
      CAIRN_TEMPORAL_DATA_DIR: join(dir, 'temporal'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  return { child, dir, ...watched(child) };
}

/** What a started process writes (stdout and stderr together), and how it exits. */
export function watched(child: ChildProcess): {
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
} {
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { output: () => output, exited };
}

/**
 * Every live process as `ps` lists it: pid, process group and command line. A zombie (state Z)
 * has ended and holds nothing but its pid until its new parent reaps it (tsx's esbuild helper
 * may linger so when tsx exits at once, in a container whose init reaps slowly): left out.
 */
export function processes(): { pid: number; pgid: number; args: string }[] {
  return execFileSync('ps', ['-eo', 'pid=,pgid=,stat=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(line))
    .flatMap((m) => (m && !m[3]?.startsWith('Z') ? [{ pid: Number(m[1]), pgid: Number(m[2]), args: m[4] ?? '' }] : []));
}

/** The processes of process group `pgid`. */
export const groupProcesses = (pgid: number) => processes().filter((p) => p.pgid === pgid);

/** What npm start left running: its process group, and anything that names the test's folder (the dev server's data). */
export function leftBehind(started: NpmStart): string[] {
  const pgid = started.child.pid ?? -1;
  return processes()
    .filter((p) => p.pgid === pgid || p.args.includes(started.dir))
    .map((p) => `${p.pid} ${p.args}`);
}

/** Ends what is left of a run a failed test may leave behind: its whole process group. */
export function killGroup(started: NpmStart): void {
  const pgid = started.child.pid;
  if (pgid !== undefined && groupProcesses(pgid).length > 0) process.kill(-pgid, 'SIGKILL');
}

/** Three free ports for the web page, Temporal gRPC and the Temporal UI. */
export const freePorts = async () => ({ http: await freePort(), grpc: await freePort(), ui: await freePort() });

/** The environment that puts npm start on `ports`. */
export const portsEnv = (p: { http: number; grpc: number; ui: number }) => ({
  CAIRN_HTTP_PORT: String(p.http),
  CAIRN_TEMPORAL_PORT: String(p.grpc),
  CAIRN_TEMPORAL_UI_PORT: String(p.ui),
});
