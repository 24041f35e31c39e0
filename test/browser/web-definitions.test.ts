/**
 * The start form's agent definitions in real Chromium against the real HTTP API, worker and dev
 * server (docs/definitions.md): the server lists examples/agents' definitions, picking `support`
 * fills the planning checks from its mode and locks them (support does not let a start change
 * its mode), the start names the definition and sends no mode, the agent starts with its snapshot
 * (read back from history), and the agent page shows the definition, version and label.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { AgentClient } from '../../client/agents/agent-client';
import { loadDefinitionRegistry } from '../../client/definitions/load-definitions';
import { EMPTY_GRAPH_REGISTRY } from '../../client/graphs/graph-registry';
import { DEFAULT_QUERY_TIMEOUT_MS } from '../../client/unanswered-query';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { launchChromium } from '../harness/chromium';
import { appOver } from '../harness/http-app';
import { finish, plan, planReply, step } from '../harness/plans';
import { serveOnLoopback } from '../harness/sse-client';
import { startedInput } from '../harness/started-input';
import { withWorker } from '../harness/test-env';

const WAIT = { timeout: 30_000 };
const ROOT = join(__dirname, '..', '..');

const bed = agentTestbed();

jest.setTimeout(120_000);

const check = (page: Page, name: string) => page.locator(`#new-agent .checks [name="${name}"]`);

test('pick a definition on the start form: checks from its mode, locked; the agent runs it and its page names it', async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [finish('30 days')],
      summary: [reply.text('Within 30 days.')],
    }),
  );
  const registry = await loadDefinitionRegistry('examples/agents/index.ts', ROOT);
  const support = registry.get('support');
  if (!support) throw new Error('examples/agents has no support definition');
  const agents = new AgentClient(
    bed.client,
    bed.config.taskQueue,
    true,
    DEFAULT_QUERY_TIMEOUT_MS,
    EMPTY_GRAPH_REGISTRY,
    registry,
  );
  const served = await serveOnLoopback(appOver(agents));
  const browser = await launchChromium({ viewport: { width: 1280, height: 1000 } });
  const errors: string[] = [];
  browser.page.on('pageerror', (err) => errors.push(err.message));
  try {
    await withWorker(bed.config, async () => {
      const { page } = browser;
      await page.goto(`${served.url}/`);
      const picker = page.locator('select[name="definition"]');
      await picker.waitFor(WAIT);
      // The built-in one is not offered: "none" stands for it.
      expect(await picker.locator('option').allTextContents()).toEqual([
        'none: the built-in agent',
        ...registry
          .list()
          .filter((d) => d.definition.name !== 'cairn')
          .map(
            (d) =>
              `${d.definition.name}${d.definition.label ? ` (${d.definition.label})` : ''}: ${d.definition.description}`,
          ),
      ]);
      // The form's own defaults before: plan, ask and the plan check all on, none locked.
      expect(await check(page, 'confirmPlan').isChecked()).toBe(true);
      await picker.selectOption('support');
      // support's mode: { ask: true } — plan on (the default), ask on, no plan check; locked.
      for (const [name, on] of [
        ['plan', true],
        ['ask', true],
        ['confirmPlan', false],
      ] as const) {
        expect(await check(page, name).isChecked()).toBe(on);
        expect(await check(page, name).isDisabled()).toBe(true);
      }
      await page.locator('#task').fill('How long do I have to return a parcel?');
      await page.getByRole('button', { name: 'Start agent' }).click();
      await page.waitForURL(/\/agents\/[^/]+$/, WAIT);
      const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');

      const input = (await startedInput(bed.client, id)) as Record<string, unknown>;
      expect(input.definition).toEqual(support.snapshot);
      expect(input.mode).toEqual({ ask: true });
      const badge = page.locator('.meta .definition');
      await badge.waitFor(WAIT);
      expect(await badge.textContent()).toBe(
        `definition support ${support.snapshot.version.slice(0, 12)} (handbook v1)`,
      );
      expect(await badge.getAttribute('title')).toContain(support.snapshot.version);
      expect(await bed.client.workflow.getHandle(id).result()).toMatchObject({ status: 'completed' });
    });
    expect(errors).toEqual([]);
  } finally {
    await browser.close();
    await served.close();
  }
});
