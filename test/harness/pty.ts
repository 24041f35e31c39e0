/**
 * The `cairn` CLI under a real pseudo-terminal, without a native dependency: util-linux's
 * `script -qfec "<command>" /dev/null` runs the command on a pty of its own and relays its
 * stdin and stdout through pipes. The CLI then sees a TTY (prompts, raw mode); a test types keys
 * and waits for what the screen shows (control sequences stripped).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { waitUntil } from '../../testkit/wait-until';
import { runInfo } from './run-info';

const ROOT = join(__dirname, '..', '..');

/** util-linux `script`, which gives the command a pseudo-terminal. */
export const SCRIPT_BIN = '/usr/bin/script';

/** A `cairn` process on a pseudo-terminal. */
export interface PtyRun {
  /** What it printed so far, control sequences removed. */
  screen(): string;
  /** Types `keys` (`\r` is Enter). */
  type(keys: string): void;
  /** Waits until the screen, from `from` on, shows `text`; returns where it ends. */
  waitFor(text: string | RegExp, from?: number): Promise<number>;
  /** Resolves with the exit code when the process ends. */
  done: Promise<number | null>;
}

/** `text` without ANSI control sequences (colours, cursor moves, erasures) and carriage returns. */
export function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex -- the escape sequences are exactly what is removed
  return text.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b[()][0-9A-Za-z]|\u001b[=>]|\r/g, '');
}

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/** Starts `cairn <args>` on a 120×40 pseudo-terminal with `env` (plus the run's Temporal address). */
export function cairnOnPty(args: string[], env: Record<string, string>): PtyRun {
  const command = ['stty cols 120 rows 40;', 'exec', quote(process.execPath), quote(join(ROOT, 'bin', 'cairn.js'))]
    .concat(args.map(quote))
    .join(' ');
  const child = spawn(SCRIPT_BIN, ['-qfec', command, '/dev/null'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', TERM: 'xterm-256color', TEMPORAL_ADDRESS: runInfo().temporalAddress, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let raw = '';
  child.stdout.on('data', (chunk: Buffer) => (raw += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (raw += chunk.toString()));
  const done = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const screen = () => stripAnsi(raw);
  return {
    screen,
    type: (keys) => child.stdin.write(keys),
    waitFor: (text, from = 0) =>
      waitUntil(`the terminal to show ${String(text)}`, () => {
        const shown = screen().slice(from);
        const at = typeof text === 'string' ? shown.indexOf(text) : shown.search(text);
        if (at === -1) return undefined;
        const length = typeof text === 'string' ? text.length : (shown.slice(at).match(text)?.[0].length ?? 0);
        return Promise.resolve(from + at + length);
      }).catch((err: unknown) => {
        // What the terminal showed is what tells why: it goes with the timeout.
        throw new Error(
          `${err instanceof Error ? err.message : String(err)}\n--- screen ---\n${screen().slice(-3000)}`,
        );
      }),
    done,
  };
}
