/**
 * The `budget` interaction answered with `cairn answer` as a real process, both ways the CLI
 * sends answers: through Cairn's HTTP API with a token (the audit names the principal with
 * method `cli`), and straight to Temporal (method `temporal-signal`, the `--by` it claims). A
 * `raise` lets the held step go on and the agent completes; a `stop` ends it `stopped` with no
 * further model call. `cairn audit` prints each decision with who made it, and the pauses.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { AuditEntry } from '../../client/agents/audit-entries';
import { agentTestbed } from '../harness/agent-testbed';
import { stateOf, waitForState } from '../harness/agents';
import { BUDGET, REQUESTS_WHEN_HELD, startHeldOnBudget } from '../harness/budget-crossing';
import { runCairn } from '../harness/cairn-cli';
import { expectNothingChanged } from '../harness/nothing-changed';
import { withWorker } from '../harness/test-env';
import { tokenApp } from '../harness/token-app';

const bed = agentTestbed();
const ANA = 'budget-cli-token-of-ana-approver';

/** `cairn audit --json` of agent `id`. */
async function cliAudit(id: string): Promise<AuditEntry[]> {
  const audit = await runCairn(['audit', id, '--json'], {});
  expect(audit.code).toBe(0);
  return (JSON.parse(audit.stdout) as { entries: AuditEntry[] }).entries;
}

test('cairn answer over the HTTP API: a raise too low is refused and changes nothing; a raise is audited as the principal via cli', async () => {
  const app = tokenApp(bed.client, bed.config.taskQueue, [
    { principal: 'ana', name: 'Ana Silva', roles: ['approver'], token: ANA },
  ]);
  const { server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
      resolve({ server: s, port: info.port }),
    );
  });
  const env = { CAIRN_API_URL: `http://127.0.0.1:${port}`, CAIRN_TOKEN: ANA };
  try {
    await withWorker(bed.config, async () => {
      const { handle, budget } = await startHeldOnBudget(bed);
      const answer = (json: object) => runCairn(['answer', handle.workflowId, budget.id, JSON.stringify(json)], env);

      const low = await expectNothingChanged(
        () => stateOf(handle),
        bed.llm,
        budget.id,
        () => answer({ decision: 'raise', tokenBudget: BUDGET.usedWhenHeld }),
      );
      expect([low.code, low.stderr]).toEqual([1, expect.stringContaining('400 INVALID_ANSWER')]);

      const raised = await answer({ decision: 'raise', tokenBudget: 1000 });
      expect([raised.code, raised.stdout.trim()]).toEqual([0, `answer to ${budget.id} accepted`]);
      expect(await handle.result()).toMatchObject({ status: 'completed' });
      const state = await stateOf(handle);
      expect(state.tokenBudget).toBe(1000);
      const actor = { id: 'ana', name: 'Ana Silva', roles: ['approver'], method: 'cli' };
      expect(state.interactions.find((i) => i.id === budget.id)).toMatchObject({
        status: 'answered',
        answer: { decision: 'raise', tokenBudget: 1000 },
        by: 'ana',
        actor,
      });
      const entries = await cliAudit(handle.workflowId);
      expect(entries.find((e) => e.interactionId === budget.id)).toMatchObject({
        what: 'budget answered',
        decision: 'raise',
        by: 'ana',
        actor,
      });
      expect(entries.map((e) => e.what)).toEqual([
        'paused (budget)',
        'budget answered',
        'budget hold lifted',
        'completed',
      ]);
    });
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

test('cairn answer straight to Temporal: a stop while also paused by cairn pause ends the agent stopped, no further call; audited as temporal-signal', async () => {
  const env = { CAIRN_TASK_QUEUE: bed.config.taskQueue };
  await withWorker(bed.config, async () => {
    const { handle, budget } = await startHeldOnBudget(bed);
    const id = handle.workflowId;
    expect((await runCairn(['pause', id, '--by', 'ops', '--reason', 'night'], env)).code).toBe(0);
    await waitForState(handle, 'held for both', (s) => s.hold?.reasons.length === 2);

    const stop = await runCairn(['answer', id, budget.id, '{"decision":"stop"}', '--by', 'carol'], env);
    expect([stop.code, stop.stdout.trim()]).toEqual([0, `answer to ${budget.id} accepted`]);
    expect((await handle.result()).status).toBe('stopped');
    const state = await stateOf(handle);
    expect(state).toMatchObject({ phase: 'stopped', stopReason: 'budget' });
    expect(state.hold).toBeUndefined();
    expect(bed.llm.requests).toHaveLength(REQUESTS_WHEN_HELD);
    expect(state.interactions.find((i) => i.id === budget.id)).toMatchObject({
      status: 'answered',
      answer: { decision: 'stop' },
      by: 'carol',
      actor: { id: 'carol', roles: [], method: 'temporal-signal' },
    });

    const audit = await runCairn(['audit', id], {});
    expect(audit.code).toBe(0);
    const lines = audit.stdout.trim().split('\n');
    expect(lines.map((l) => l.replace(/^\S+Z {2}/, ''))).toEqual([
      'paused (budget)',
      'paused (pause) by ops: night',
      `${budget.id} budget answered: stop by carol [no role; temporal-signal]`,
      'stopped: budget',
    ]);
  });
});
