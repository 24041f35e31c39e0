/**
 * Worker Deployments through `cairn deploy` against versioned workers on the dev server: a new
 * version is listed but not current (nothing runs on it yet), bad promotions are refused and
 * change nothing, `promote` makes it current; an agent then runs pinned to it — `deploy status`
 * counts it, `cairn show` and `cairn ls` name its version — and `promote --ramp` ramps a second
 * build while the first stays current: new agents then start on both.
 */
import { AgentClient } from '../../client/agents/agent-client';
import { describeDeployment, pinnedAgents, setCurrent } from '../../temporal/deployments';
import type { WorkerVersion } from '../../config/versioning-config';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { startAgent, waitForInteraction } from '../harness/agents';
import { plan, planReply, step } from '../harness/plans';
import { runCairn } from '../harness/cairn-cli';
import { uniqueId, withWorker } from '../harness/test-env';
import { waitUntil } from '../../testkit/wait-until';
import { appOver } from '../harness/http-app';

const bed = agentTestbed();

/** A fresh deployment per test (the dev server is shared), its CLI environment and a lookup. */
function deployment() {
  const deploymentName = uniqueId('deploy');
  const env = { CAIRN_TASK_QUEUE: bed.config.taskQueue, CAIRN_DEPLOYMENT_NAME: deploymentName };
  const status = () => describeDeployment(bed.client, 'default', deploymentName);
  const registered = (count: number) =>
    waitUntil(`${count} version(s) registered`, async () => ((await status())?.versions.length ?? 0) === count);
  return { deploymentName, env, status, registered };
}

test('a new version is listed, not current; bad promotions are refused and change nothing; promote makes it current', async () => {
  const { deploymentName, env, status, registered } = deployment();
  const version: WorkerVersion = { deploymentName, buildId: '1.0.0+aaaaaaa' };
  await withWorker(
    bed.config,
    async () => {
      await registered(1);
      const fresh = await runCairn(['deploy', 'status'], env);
      expect(fresh.code).toBe(0);
      expect(fresh.stdout).toContain(`deployment ${deploymentName}: current none`);
      expect(fresh.stdout).toMatch(/1\.0\.0\+aaaaaaa\s+inactive\s+0 agents pinned/);

      const unknown = await runCairn(['deploy', 'promote', '--build-id', '9.9.9'], env);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain(`deployment ${deploymentName} has no version 9.9.9`);
      const badRamp = await runCairn(['deploy', 'promote', '--build-id', version.buildId, '--ramp', '150%'], env);
      expect(badRamp.code).toBe(2);
      expect(badRamp.stderr).toContain('--ramp must be a percentage from 0 to 100; got "150%"');
      expect((await status())?.current).toBeUndefined();

      const promoted = await runCairn(['deploy', 'promote', '--build-id', version.buildId], env);
      expect(promoted.code).toBe(0);
      expect(promoted.stdout).toContain(`${version.buildId} is now current in deployment ${deploymentName}`);
      expect((await status())?.current).toBe(version.buildId);
    },
    undefined,
    { version },
  );
});

test('an agent runs pinned to the current version: status counts it, show and ls name it; a second build ramps', async () => {
  const { deploymentName, env, status, registered } = deployment();
  const version: WorkerVersion = { deploymentName, buildId: '1.0.0+aaaaaaa' };
  bed.llm.respondWith(byRoute({ plan: [planReply(plan([step('s1')]))] }));
  await withWorker(
    bed.config,
    async () => {
      await registered(1);
      await setCurrent(bed.client, 'default', version);
      const handle = await startAgent(bed.client, bed.config, {
        task: 'Wait at the plan check',
        mode: { confirmPlan: true },
      });
      await waitForInteraction(handle, 'plan.check');
      await waitUntil('the agent visible as pinned', async () => (await pinnedAgents(bed.client, version)) === 1);
      const agents = new AgentClient(bed.client, bed.config.taskQueue);
      await waitUntil('the agent listed with its version', async () =>
        (await agents.list()).some((a) => a.id === handle.workflowId && a.version === version.buildId),
      );

      const listed = await runCairn(['deploy', 'status'], env);
      expect(listed.stdout).toContain(`deployment ${deploymentName}: current ${version.buildId}`);
      expect(listed.stdout).toMatch(/1\.0\.0\+aaaaaaa\s+current\s+1 agents pinned/);
      const shown = await runCairn(['show', handle.workflowId], env);
      expect(shown.stdout).toContain(`version: ${version.buildId} (deployment ${deploymentName}, pinned)`);
      const json = JSON.parse((await runCairn(['show', handle.workflowId, '--json'], env)).stdout) as {
        version?: unknown;
      };
      expect(json.version).toEqual({ ...version, behavior: 'pinned' });
      // The HTTP state names it too (the full state; a poll for news with afterSeq does not).
      const app = appOver(agents);
      const state = (await (await app.request(`/api/agents/${handle.workflowId}`)).json()) as { version?: unknown };
      expect(state.version).toEqual({ ...version, behavior: 'pinned' });
      const news = await app.request(`/api/agents/${handle.workflowId}?afterSeq=0`);
      expect(((await news.json()) as { version?: unknown }).version).toBeUndefined();
      const ls = await runCairn(['ls'], env);
      expect(ls.stdout).toMatch(new RegExp(`${handle.workflowId}.*\\[1\\.0\\.0\\+aaaaaaa\\]`));
      await handle.terminate('test over');
    },
    undefined,
    { version },
  );

  // A second build joins; a ramp sends a share of new agents to it and keeps the current one:
  // with both builds' workers running, new agents start on each (Temporal picks by workflow id).
  const next: WorkerVersion = { deploymentName, buildId: '1.1.0+bbbbbbb' };
  bed.llm.respondWith(() => planReply(plan([step('s1')])));
  const bothBuilds = (body: () => Promise<void>) =>
    withWorker(bed.config, () => withWorker(bed.config, body, undefined, { version }), undefined, { version: next });
  await bothBuilds(async () => {
    await registered(2);
    const ramped = await runCairn(['deploy', 'promote', '--build-id', next.buildId, '--ramp', '25%'], env);
    expect(ramped.code).toBe(0);
    expect(await status()).toMatchObject({
      current: version.buildId,
      ramping: { buildId: next.buildId, percent: 25 },
    });
    expect((await runCairn(['deploy', 'status'], env)).stdout).toContain(`ramping ${next.buildId} at 25%`);

    const input = { task: 'Wait at the plan check', mode: { confirmPlan: true } };
    const handles = await Promise.all(
      Array.from({ length: RAMPED_AGENTS }, () => startAgent(bed.client, bed.config, input)),
    );
    const pinned = await waitUntil('every new agent pinned to a build', async () => {
      const counts = [await pinnedAgents(bed.client, version), await pinnedAgents(bed.client, next)];
      return counts[0]! + counts[1]! === RAMPED_AGENTS ? counts : undefined;
    });
    // Both builds took some: a 25 % ramp leaves none to the new build with odds 0.75^32 (1 in 10^4).
    expect(pinned[0]).toBeGreaterThan(0);
    expect(pinned[1]).toBeGreaterThan(0);
    await Promise.all(handles.map((h) => h.terminate('test over')));
  });
});

/** New agents started while the ramp is on. */
const RAMPED_AGENTS = 32;
