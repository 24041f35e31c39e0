/**
 * `cairn chat` as a process through CAIRN_API_URL: a message whose `/file` the server refuses
 * (413 UPLOAD_TOO_LARGE) is said to be refused and not sent, and the conversation goes on to
 * the next line (`/exit`, exit 0) instead of ending with an error. The server is a stand-in on
 * loopback that refuses every upload.
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
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-chat-file-'));
  writeFileSync(join(dir, 'notes.txt'), 'some notes\n');
  server = createServer((req, res) => {
    req.resume();
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

test('a /file the server refuses is said, the message not sent, and the chat goes on', async () => {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'cairn.js'), 'chat'], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', CAIRN_API_URL: url, CAIRN_TOKEN: 'a-token' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end('/file notes.txt\nsummarise these\n/exit\n');
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect({ code, stderr }).toEqual({
    code: 0,
    stderr: '413 UPLOAD_TOO_LARGE: notes.txt is over the limit; the message was not sent\n',
  });
  expect(stdout).toContain('attached notes.txt (11 bytes)');
});
