/**
 * No control character reaches the server's log raw, and a download path holding one is the
 * request's fault: `GET /api/agents/:id/files/<path>` refuses a path with a control character
 * (400 INVALID_INPUT, before the file system sees it), Node's own refusal of such a path
 * (ERR_INVALID_ARG_VALUE) is a 400 too, and every line the server logs has its control, separator
 * and bidi characters spelled out — a failing route's error cannot forge a line or move a cursor.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentsPort } from '../../client/agents/agents-port';
import { createApp } from '../../client/http/create-app';
import { ApiFailure } from '../../client/http/errors';
import { asApiFailure } from '../../client/uploads/routes/files';
import { createLog } from '../../client/redacted-log';
import { agentWorkspaceDir } from '../../config/agent-workspace';
import { captureOutput } from '../harness/captured-output';

const AGENT = 'agent-1';

/** An app serving AGENT's folder (which exists), its log's lines kept. */
function filesApp() {
  const root = mkdtempSync(join(tmpdir(), 'log-injection-'));
  mkdirSync(agentWorkspaceDir(root, AGENT), { recursive: true });
  const agents = { state: () => Promise.resolve({ workspace: 'agent', events: [] }) } as unknown as AgentsPort;
  const lines: string[] = [];
  const log = createLog([], { out: (l) => lines.push(l), err: (l) => lines.push(l) });
  const app = createApp({
    version: 'test',
    temporalHealthy: () => Promise.resolve(true),
    agents,
    workspace: root,
    log,
  });
  return { app, lines };
}

test('a download path with a control character is refused with 400 INVALID_INPUT, and nothing is logged', async () => {
  const { app, lines } = filesApp();
  for (const path of ['a%00b.txt', 'x%1b%5B2J.md', 'inputs/tab%09x.csv', 'c1%C2%9B.txt']) {
    const res = await app.request(`/api/agents/${AGENT}/files/${path}`);
    const body = (await res.json()) as { error: { code: string; field?: string } };
    expect([res.status, body.error.code, body.error.field]).toEqual([400, 'INVALID_INPUT', 'path']);
  }
  expect(lines).toEqual([]);
});

test("Node's refusal of a path it cannot pass on (ERR_INVALID_ARG_VALUE) is the request's 400", async () => {
  const refused: unknown = await open('a\u0000b').catch((err: unknown) => err);
  expect(refused).toMatchObject({ code: 'ERR_INVALID_ARG_VALUE' });
  const failure = asApiFailure(refused, 'a\u0000b');
  expect(failure instanceof ApiFailure && [failure.code, failure.field]).toEqual(['INVALID_INPUT', 'path']);
});

describe('the server log', () => {
  const output = captureOutput();

  test('every line has its control, separator and bidi characters spelled out: none forges a line', async () => {
    const hostile = 'nul\u0000 esc\u001b[2J cr\r c1\u009b rlo\u202e ls\u2028\nFORGED 2026-01-01 admin signed in';
    const failing = () => Promise.reject(new Error(hostile, { cause: new Error(`cause ${hostile}`) }));
    const agents = { list: failing } as unknown as AgentsPort;
    const app = createApp({ version: 'test', temporalHealthy: () => Promise.resolve(true), agents });
    const res = await app.request('/api/agents');
    expect(res.status).toBe(500);

    const log = output.written();
    expect(log).toContain(
      'HTTP API error (GET /api/agents): Error: nul\\u0000 esc\\u001b[2J cr\\r c1\\u009b rlo\\u202e',
    );
    expect(log).toContain('ls\\u2028\\nFORGED');
    expect(log).toContain('caused by: Error: cause nul\\u0000');
    // Raw, only the newline that ends each line the log itself writes.
    // eslint-disable-next-line no-control-regex -- looking for control characters is the point
    expect(log.replace(/\n/g, '')).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
    const lines = log.split('\n');
    expect(lines.filter((line) => line.startsWith('FORGED'))).toEqual([]);
    // The stack still reads as a stack: its frames on lines of their own.
    expect(lines.some((line) => /^\s+at /.test(line))).toBe(true);
  });
});
