/**
 * `cairn chat` as a process through CAIRN_API_URL, against a stand-in server on loopback that
 * records each request's body and refuses every message (413 UPLOAD_TOO_LARGE): a message whose
 * `/file` is refused is said to be refused and not sent, and the conversation goes on to the next
 * line (`/exit`, exit 0) instead of ending with an error; `--ask` and `--confirm-plan` go with
 * each message as its planning modes.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
let server: Server;
let url: string;
let dir: string;
const bodies: string[] = [];
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-chat-file-'));
  writeFileSync(join(dir, 'notes.txt'), 'some notes\n');
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => bodies.push(body));
    const refusal = { error: { code: 'UPLOAD_TOO_LARGE', message: 'notes.txt is over the limit' } };
    res.writeHead(413, { 'content-type': 'application/json' }).end(JSON.stringify(refusal));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

jest.setTimeout(60_000);

/** Runs `cairn chat <args>` in the folder with `stdin`; resolves with its exit code and output. */
async function chat(args: string[], stdin: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'cairn.js'), 'chat', ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', CAIRN_API_URL: url, CAIRN_TOKEN: 'a-token' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(stdin);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stdout, stderr };
}

test('a /file the server refuses is said, the message not sent, and the chat goes on', async () => {
  const { code, stdout, stderr } = await chat([], '/file notes.txt\nsummarise these\n/exit\n');
  expect({ code, stderr }).toEqual({
    code: 0,
    stderr: '413 UPLOAD_TOO_LARGE: notes.txt is over the limit; the message was not sent\n',
  });
  expect(stdout).toContain('attached notes.txt (11 bytes)');
});

test('--ask and --confirm-plan go with the message as its planning modes', async () => {
  bodies.splice(0);
  const { code } = await chat(['--ask', '--confirm-plan'], 'plan my week\n/exit\n');
  expect(code).toBe(0);
  expect(bodies.map((body) => JSON.parse(body) as unknown)).toEqual([
    { text: 'plan my week', mode: { ask: true, confirmPlan: true } },
  ]);
});
