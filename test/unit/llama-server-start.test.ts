/**
 * The real-model suite's model server start (real-model/llama-server.ts): a llama-server that
 * dies while loading its model — as llama.cpp built with AMX does with SIGILL on a VM that does
 * not grant AMX tiles — fails the start at once, naming the signal and quoting the log's last
 * lines, instead of waiting out the two-minute load timeout. A stand-in executable plays the
 * server: it logs like one, then kills itself.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLlamaServer, type LlamaPaths } from '../../real-model/llama-server';
import { lowFreePort } from '../../testkit/low-port';

const dir = mkdtempSync(join(tmpdir(), 'cairn-llama-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An executable that prints `lines` and then ends with `ending` (a shell command). */
function fakeServer(name: string, lines: string[], ending: string): LlamaPaths {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${lines.map((l) => `echo '${l}'`).join('\n')}\n${ending}\n`);
  chmodSync(path, 0o755);
  return {
    LLAMA_SERVER: path,
    LLAMA_LIB_DIR: dir,
    LLAMA_MODEL: join(dir, 'model.gguf'),
    LLAMA_TEMPLATE: join(dir, 't'),
  };
}

const SIZING = { contextTokens: 1024, slots: 1, threads: 1 };

test('a server killed by SIGILL while loading fails the start with its signal and its log', async () => {
  const paths = fakeServer(
    'dies-with-sigill',
    ['load_tensors: loading model tensors', 'repack: repack tensor blk.0.attn_q.weight with q4_K_8x8'],
    'kill -ILL $$',
  );
  const log = join(dir, 'sigill.log');
  const start = startLlamaServer(paths, await lowFreePort(), SIZING, log);
  await expect(start).rejects.toThrow(/^llama-server died \(signal SIGILL\); the last lines of .*sigill\.log:\n/);
  await expect(start).rejects.toThrow(/repack tensor blk\.0\.attn_q\.weight with q4_K_8x8$/);
});

test('a server that exits while loading fails the start with its exit code', async () => {
  const paths = fakeServer('exits', ['error: failed to load model'], 'exit 3');
  await expect(startLlamaServer(paths, await lowFreePort(), SIZING, join(dir, 'exit.log'))).rejects.toThrow(
    /^llama-server died \(exit code 3\); the last lines of .*exit\.log:\nerror: failed to load model$/,
  );
});
