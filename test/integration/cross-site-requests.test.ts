/**
 * The cross-site request guard (client/http/origin-guard.ts) over real HTTP, served as `npm
 * start` serves it by default — no authentication, on loopback — with a real agent waiting at
 * its plan check. A request another site's page could make (a foreign `Origin`, `Origin: null`,
 * `Sec-Fetch-Site: cross-site` or `same-site`) is refused with 403 on every route that changes
 * something, body or not, and the agent is untouched; the page's own requests (its origin,
 * `same-origin`) and requests with neither header (CLI, scripts) pass. The codec routes read
 * JSON only.
 */
import { request } from 'node:http';
import { serveApi, type ApiServer } from '../../client/http/serve-api';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { startAgent, stateOf, waitForInteraction } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { testConfig, withWorker } from '../harness/test-env';
import { freePort } from '../../testkit/free-port';

const bed = agentTestbed();

interface Answered {
  status: number;
  code?: string;
}

/** One POST to the loopback listener with exactly these headers. */
function post(port: number, path: string, headers: Record<string, string>, body?: string): Promise<Answered> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let code: string | undefined;
        try {
          code = (JSON.parse(text) as { error?: { code?: string } }).error?.code;
        } catch {
          code = undefined;
        }
        resolve({ status: res.statusCode ?? 0, ...(code ? { code } : {}) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

test('another site cannot pause, cancel, answer or start anything, even with no authentication; its own page can', async () => {
  bed.llm.respondWith(
    byRoute({ plan: [planReply(plan([step('s1')]))], 'step:s1': [finish('done')], summary: [reply.text('ok')] }),
  );
  await withWorker(bed.config, async () => {
    const port = await freePort();
    const api: ApiServer = await serveApi(
      testConfig(bed.llm, { CAIRN_HTTP_PORT: String(port), CAIRN_TASK_QUEUE: bed.config.taskQueue }),
    );
    try {
      const handle = await startAgent(bed.client, bed.config, { task: 'Hold still', mode: { confirmPlan: true } });
      const check = await waitForInteraction(handle, 'plan.check');
      const base = `/api/agents/${handle.workflowId}`;
      const own = `http://127.0.0.1:${port}`;
      const json = { 'content-type': 'application/json' };
      const confirm = JSON.stringify({ interactionId: check.id, answer: { decision: 'confirm' } });

      const foreign: Record<string, string>[] = [
        { origin: 'http://evil.example' },
        { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' },
        { 'sec-fetch-site': 'cross-site' },
        // Another port of this machine is the same site, not the same origin.
        { origin: `http://127.0.0.1:${port + 1}`, 'sec-fetch-site': 'same-site' },
        { 'sec-fetch-site': 'same-site' },
        { origin: 'null' },
        // An own Origin does not outweigh the browser's word that another site sent it.
        { origin: own, 'sec-fetch-site': 'cross-site' },
      ];
      for (const headers of foreign) {
        const attempts: [string, Record<string, string>, string | undefined][] = [
          // Body-less, as `fetch(url, { method: 'POST', mode: 'no-cors' })` sends them.
          [`${base}/pause`, {}, undefined],
          [`${base}/cancel`, {}, undefined],
          [`${base}/answers`, json, confirm],
          ['/api/agents', json, JSON.stringify({ task: 'planted' })],
          ['/codec/encode', json, JSON.stringify({ payloads: [] })],
        ];
        for (const [path, extra, body] of attempts) {
          const res = await post(port, path, { ...extra, ...headers }, body);
          expect({ headers, path, ...res }).toEqual({ headers, path, status: 403, code: 'FORBIDDEN' });
        }
      }
      const untouched = await stateOf(handle);
      expect(untouched.phase).toBe('awaiting_input');
      expect(untouched.events.filter((e) => e.type === 'agent.paused')).toEqual([]);
      expect((await handle.describe()).status.name).toBe('RUNNING');

      // The page's own request, and one with neither header (the CLI, a script), go through.
      expect(await post(port, `${base}/pause`, { origin: own, 'sec-fetch-site': 'same-origin' })).toEqual({
        status: 202,
      });
      expect(await post(port, `${base}/resume`, {})).toEqual({ status: 202 });
      expect((await post(port, `${base}/answers`, { ...json, origin: own }, confirm)).status).toBe(200);
      expect(await handle.result()).toMatchObject({ status: 'completed' });
    } finally {
      await api.close();
    }
  });
});

test('the codec routes read JSON only: any other media type, or none, is 415', async () => {
  const port = await freePort();
  const api = await serveApi(testConfig(bed.llm, { CAIRN_HTTP_PORT: String(port) }));
  try {
    const body = JSON.stringify({ payloads: [] });
    for (const path of ['/codec/encode', '/codec/decode']) {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
        expect({ path, type, ...(await post(port, path, { 'content-type': type }, body)) }).toEqual({
          path,
          type,
          status: 415,
          code: 'UNSUPPORTED_MEDIA_TYPE',
        });
      }
      expect({ path, ...(await post(port, path, {}, body)) }).toEqual({
        path,
        status: 415,
        code: 'UNSUPPORTED_MEDIA_TYPE',
      });
      expect(await post(port, path, { 'content-type': 'application/json; charset=utf-8' }, body)).toEqual({
        status: 200,
      });
    }
  } finally {
    await api.close();
  }
});
