/**
 * The `cairn` CLI as a real process (`node bin/cairn.js`) against the run's dev server, with a
 * non-TTY stdin (so `run` reads scripted answers, one JSON answer per line).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { runInfo } from './run-info';

const ROOT = join(__dirname, '..', '..');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `cairn <args>` with `env` and `stdin` (closed after), and waits for it to exit. */
export function runCairn(args: string[], env: Record<string, string>, stdin = ''): Promise<CliResult> {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'cairn.js'), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', TEMPORAL_ADDRESS: runInfo().temporalAddress, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
  child.stdin.end(stdin);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, ...output })));
}
