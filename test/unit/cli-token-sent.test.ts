/**
 * The token `cairn` sends as a process (client/cli/api-target.ts): with only the server's
 * CAIRN_API_TOKEN in its environment, `cairn ls` through CAIRN_API_URL sends it as the bearer
 * token and says so on stderr, once; CAIRN_TOKEN, when set, is sent instead, without a note. The
 * server is a stand-in on loopback that records the Authorization header and lists no agents.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const SERVER_TOKEN = 'the-servers-admin-token';

let server: Server;
let url: string;
const seen: (string | undefined)[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.headers.authorization);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ agents: [] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => seen.splice(0));

function cairnLs(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'cairn.js'), 'ls', '--json'], {
    env: { PATH: process.env.PATH ?? '', CAIRN_API_URL: url, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

jest.setTimeout(60_000);

test('with only CAIRN_API_TOKEN set, cairn sends it and says so once on stderr', async () => {
  const { code, stderr } = await cairnLs({ CAIRN_API_TOKEN: SERVER_TOKEN });
  expect({ code, stderr }).toEqual({
    code: 0,
    stderr: 'cairn: CAIRN_TOKEN is not set; sending CAIRN_API_TOKEN as the bearer token\n',
  });
  expect(seen).toEqual([`Bearer ${SERVER_TOKEN}`]);
});

test('CAIRN_TOKEN is sent when set, the server’s token left alone and nothing said', async () => {
  const { code, stderr } = await cairnLs({ CAIRN_TOKEN: 'the-cli-users-token', CAIRN_API_TOKEN: SERVER_TOKEN });
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  expect(seen).toEqual(['Bearer the-cli-users-token']);
});
