/**
 * The `cairn` CLI as a real process (`node bin/cairn.js`) against the run's dev server, with a
 * non-TTY stdin (so `run` reads scripted answers, one JSON answer per line).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { runInfo } from './run-info';
import { waitUntil } from '../../testkit/wait-until';

const ROOT = join(__dirname, '..', '..');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A running `cairn` process. */
export interface CliRun {
  /** Resolves when the process exits. */
  done: Promise<CliResult>;
  /** Output so far. */
  output: { stdout: string; stderr: string };
  /** Writes to stdin; `undefined` closes it. */
  input(text?: string): void;
  /**
   * Ends the process and the CLI it runs under tsx (SIGTERM to its process group), for a run
   * spawned with `ownGroup`: a run whose agent no worker takes would follow it until its reads
   * time out.
   */
  stop(): void;
}

/**
 * Starts `cairn <args>` with `env` (plus the run's Temporal address) and a non-TTY stdin. With
 * `ownGroup` it leads a process group of its own, so `stop` reaches the CLI process bin/cairn.js
 * starts too (signalled alone, bin/cairn.js would leave it running).
 */
export function spawnCairn(args: string[], env: Record<string, string>, { ownGroup = false } = {}): CliRun {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'cairn.js'), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', TEMPORAL_ADDRESS: runInfo().temporalAddress, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: ownGroup,
  });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
  const done = new Promise<CliResult>((resolve) => child.on('close', (code) => resolve({ code, ...output })));
  return {
    done,
    output,
    input: (text) => (text === undefined ? child.stdin.end() : child.stdin.write(text)),
    stop: () => {
      if (!ownGroup || child.pid === undefined) throw new Error('stop() needs a run spawned with ownGroup');
      process.kill(-child.pid, 'SIGTERM');
    },
  };
}

/** Runs `cairn <args>` with `env` and `stdin` (closed after), and waits for it to exit. */
export function runCairn(args: string[], env: Record<string, string>, stdin = ''): Promise<CliResult> {
  const run = spawnCairn(args, env);
  run.input(stdin);
  run.input();
  return run.done;
}

/**
 * The id of the agent a running `cairn run` started, once it says so; the process is then
 * stopped and the id added to `started` (the caller ends those agents).
 */
export async function agentStartedBy(run: CliRun, started: string[]): Promise<string> {
  const id = await waitUntil('cairn run prints the agent it started', () => {
    const text = run.output.stdout + run.output.stderr;
    return /agent (\S+) started/.exec(text)?.[1];
  });
  started.push(id);
  run.stop();
  await run.done;
  return id;
}
