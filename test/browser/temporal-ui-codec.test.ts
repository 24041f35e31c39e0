/**
 * The Temporal UI in real Chromium (Debian's /usr/bin/chromium driven by playwright-core),
 * pointed at Cairn's codec server with `--ui-codec-endpoint` as `npm start` does: with an
 * operator's token the UI shows an encrypted agent's input decoded; with a viewer's the codec
 * server refuses (403) and the input stays hidden. The dev server is this file's own (the run's
 * is headless); the agent is only started — its first event holds the encrypted input.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium, type LaunchedChromium } from '../harness/chromium';
import { SessionStore } from '../../client/http/auth/sessions';
import { sha256Hex, TokenTable } from '../../client/http/auth/token-table';
import type { CodecAuditRecord } from '../../client/http/routes/codec';
import { parseKeyList } from '../../config/payload-config';
import { startDevServer, type DevServer } from '../../scripts/dev-server';
import { lowFreePort } from '../../testkit/low-port';
import { unusedAgents } from '../harness/config-errors';
import { runInfo } from '../harness/run-info';
import { closeClient, connectClient, testConfig } from '../harness/test-env';
import { ScriptedLlm } from '../fake-llm/scripted-llm';
import { appOver } from '../harness/http-app';

const WAIT = { timeout: 60_000 };
const OPERATOR = 'operator-token-of-the-ui-codec-test';
const VIEWER = 'viewer-token-of-the-ui-codec-test-01';
const MARKER = `ui-marker-${randomUUID().slice(0, 8)}`;

jest.setTimeout(240_000);

/** Sends `token` with every request the page makes to the codec server. */
async function withToken(page: Page, codec: string, token: string): Promise<void> {
  await page.route(`${codec}/**`, (route) =>
    route.continue({ headers: { ...route.request().headers(), authorization: `Bearer ${token}` } }),
  );
}

test('the Temporal UI shows the decoded input through the codec server; a viewer is refused', async () => {
  const keys = `ui:${randomBytes(32).toString('base64')}`;
  const parsed = parseKeyList(keys, 'test');
  if ('problems' in parsed) throw new Error(parsed.problems.join('; '));
  const uiPort = await lowFreePort();
  const uiOrigin = `http://127.0.0.1:${uiPort}`;
  const audits: CodecAuditRecord[] = [];
  const people = [
    { principal: 'olga', roles: ['operator' as const], tokenSha256: sha256Hex(OPERATOR) },
    { principal: 'vic', roles: ['viewer' as const], tokenSha256: sha256Hex(VIEWER) },
  ];
  const app = appOver(unusedAgents('the UI test calls only the codec routes'), {
    auth: { mode: 'tokens', tokens: new TokenTable(people), sessions: new SessionStore() },
    payloads: { compression: true, keys: parsed.keys, codecCorsOrigin: uiOrigin },
    codecAudit: (record) => audits.push(record),
  });
  const http = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const codec = `http://127.0.0.1:${(http.address() as AddressInfo).port}/codec`;
  const dir = mkdtempSync(join(tmpdir(), 'cairn-ui-codec-'));
  let server: DevServer | undefined;
  let launched: LaunchedChromium | undefined;
  const llm = await ScriptedLlm.start();
  try {
    server = await startDevServer({
      cli: runInfo().temporalCli,
      dbFile: join(dir, 'temporal.db'),
      port: await lowFreePort(),
      uiPort,
      uiCodecEndpoint: codec,
      logFile: join(dir, 'temporal.log'),
    });
    const config = testConfig(llm, { TEMPORAL_ADDRESS: server.address, CAIRN_ENCRYPTION_KEYS: keys });
    const client = await connectClient(server.address, config);
    const workflowId = `agent-task-${randomUUID().slice(0, 8)}`;
    try {
      // No worker polls this queue: the agent waits, its input in the first event.
      await client.workflow.start('agentWorkflow', {
        taskQueue: config.taskQueue,
        workflowId,
        args: [{ task: `Summarise ${MARKER}` }],
      });
    } finally {
      await closeClient(client);
    }
    const page = `${uiOrigin}/namespaces/default/workflows/${encodeURIComponent(workflowId)}`;

    launched = await launchChromium({ viewport: { width: 1280, height: 1000 } });
    const { context } = launched;

    const operator = await context.newPage();
    await withToken(operator, codec, OPERATOR);
    await operator.goto(page);
    await operator.getByText(MARKER).first().waitFor(WAIT);
    expect(audits.some((a) => a.principal === 'olga' && a.outcome === 'decoded' && a.keyIds.includes('ui'))).toBe(true);

    const viewer = await context.newPage();
    await withToken(viewer, codec, VIEWER);
    const refused = viewer.waitForResponse((r) => r.url().startsWith(`${codec}/decode`) && r.status() === 403, WAIT);
    await viewer.goto(page);
    await refused;
    await viewer.getByText(workflowId).first().waitFor(WAIT); // the page is there…
    expect(await viewer.getByText(MARKER).count()).toBe(0); // …without the input
    expect(audits.every((a) => a.principal === 'olga')).toBe(true);
  } finally {
    await launched?.close();
    await server?.stop();
    await new Promise((resolve) => http.close(resolve));
    await llm.close();
  }
});
