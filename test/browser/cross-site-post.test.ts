/**
 * The cross-site request guard (client/http/origin-guard.ts) in real Chromium, with a real second
 * origin: Cairn serves without authentication on 127.0.0.1 (the `npm start` default), and a page
 * on http://localhost:<other port> — another site to the browser — tries what any page can do
 * without asking: a body-less `fetch(…, { mode: 'no-cors' })` to pause the agent and another to
 * cancel it, and a form posting text/plain JSON to confirm its plan. Chromium sends them (with
 * `Origin` and `Sec-Fetch-Site: cross-site`); Cairn refuses every one, so the agent stays at its
 * plan check, unpaused and running.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { launchChromium } from '../harness/chromium';
import { agentTestbed } from '../harness/agent-testbed';
import { startAgent, stateOf, waitForInteraction } from '../harness/agents';
import { plan, planReply, step } from '../harness/plans';
import { withWorker } from '../harness/test-env';
import { waitUntil } from '../../testkit/wait-until';
import { testApp } from '../harness/http-app';

const bed = agentTestbed();

jest.setTimeout(120_000);

/** What the attacker's page does once loaded: three requests, then it says it is done. */
function attackerPage(agentUrl: string, interactionId: string): string {
  const answer = JSON.stringify({ interactionId, answer: { decision: 'confirm' } });
  return `<!doctype html><html><body>
<form id="f" method="post" enctype="text/plain" action="${agentUrl}/answers" target="sink">
  <input type="hidden" name='${answer.slice(0, -2)}' value='${answer.slice(-2)}'>
</form>
<iframe name="sink"></iframe>
<script>
  (async () => {
    await fetch(${JSON.stringify(`${agentUrl}/pause`)}, { method: 'POST', mode: 'no-cors' });
    await fetch(${JSON.stringify(`${agentUrl}/cancel`)}, { method: 'POST', mode: 'no-cors' });
    document.getElementById('f').submit();
    document.querySelector('iframe').addEventListener('load', () => (document.title = 'done'));
  })();
</script></body></html>`;
}

test('a page on another site cannot pause, cancel or answer an agent through the browser', async () => {
  await withWorker(bed.config, async () => {
    bed.llm.respondWith(() => planReply(plan([step('s1')])));
    const handle = await startAgent(bed.client, bed.config, { task: 'Stay put', mode: { confirmPlan: true } });
    const check = await waitForInteraction(handle, 'plan.check');

    const seen: string[] = [];
    const app = testApp(bed.client, bed.config.taskQueue);
    const cairn = await new Promise<{ server: ReturnType<typeof serve>; port: number }>((resolve) => {
      const s = serve(
        {
          fetch: async (req: Request) => {
            const res = await app.fetch(req);
            seen.push(`${req.method} ${new URL(req.url).pathname} ${res.status}`);
            return res;
          },
          port: 0,
          hostname: '127.0.0.1',
        },
        (info: AddressInfo) => resolve({ server: s, port: info.port }),
      );
    });
    const agentUrl = `http://127.0.0.1:${cairn.port}/api/agents/${encodeURIComponent(handle.workflowId)}`;
    const attacker = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(attackerPage(agentUrl, check.id));
    });
    const attackerPort = await new Promise<number>((resolve) =>
      attacker.listen(0, '127.0.0.1', () => resolve((attacker.address() as AddressInfo).port)),
    );
    const browser = await launchChromium();
    try {
      const { page } = browser;
      await page.goto(`http://localhost:${attackerPort}/`);
      await waitUntil('the page made its three requests', () => Promise.resolve(seen.length >= 3));
      await page.waitForFunction('document.title === "done"', undefined, { timeout: 30_000 });
      // Each reached Cairn, and each was refused.
      const path = `/api/agents/${handle.workflowId}`;
      expect(seen.sort()).toEqual([`POST ${path}/answers 403`, `POST ${path}/cancel 403`, `POST ${path}/pause 403`]);
      const state = await stateOf(handle);
      expect(state.phase).toBe('awaiting_input');
      expect(state.interactions.find((i) => i.id === check.id)?.status).toBe('open');
      expect(state.events.filter((e) => e.type === 'agent.paused')).toEqual([]);
      expect((await handle.describe()).status.name).toBe('RUNNING');
    } finally {
      await browser.close();
      await new Promise<void>((resolve) => attacker.close(() => resolve()));
      await new Promise<void>((resolve) => cairn.server.close(() => resolve()));
      // Still running unless a request got through and cancelled it.
      if ((await handle.describe()).status.name === 'RUNNING') await handle.terminate('test over');
    }
  });
});
