/**
 * `cairn answer` through Cairn's HTTP API (docs/operations.md#authentication-and-roles): with
 * CAIRN_API_URL the CLI sends CAIRN_TOKEN, so a viewer's token is refused (403 FORBIDDEN, exit 1,
 * nothing changed), no token is refused (401), and an approver's answer is audited under that
 * principal with method `cli` — and `cairn audit` prints it. The CLI runs as a real process; the
 * server is the real app.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { startAgent, stateOf, waitForInteraction, waitForState } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { runCairn } from '../harness/cairn-cli';
import { withWorker } from '../harness/test-env';
import { tokenApp } from '../harness/token-app';

const bed = agentTestbed();
const ANA = 'cli-token-of-ana-the-approver';
const VIC = 'cli-token-of-vic-the-viewer-0';

jest.setTimeout(120_000);

test('cairn answer sends CAIRN_TOKEN: a viewer is refused, an approver is audited as herself via cli', async () => {
  const app = tokenApp(bed.client, bed.config.taskQueue, [
    { principal: 'ana', name: 'Ana Silva', roles: ['approver'], token: ANA },
    { principal: 'vic', roles: ['viewer'], token: VIC },
  ]);
  const { server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
      resolve({ server: s, port: info.port }),
    );
  });
  const url = `http://127.0.0.1:${port}`;
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [finish('done')],
      summary: [reply.text('all done')],
    }),
  );
  try {
    await withWorker(bed.config, async () => {
      const agent = await startAgent(bed.client, bed.config, { task: 'Check me', mode: { confirmPlan: true } });
      const check = await waitForInteraction(agent, 'plan.check');
      const answer = ['answer', agent.workflowId, check.id, '{"decision":"confirm"}'];
      const before = await stateOf(agent);

      const viewer = await runCairn(answer, { CAIRN_API_URL: url, CAIRN_TOKEN: VIC });
      expect([viewer.code, viewer.stderr.trim()]).toEqual([
        1,
        expect.stringMatching(
          new RegExp(`^answer to ${check.id} refused: 403 FORBIDDEN: .*needs the approver or operator role`),
        ),
      ]);
      const nobody = await runCairn(answer, { CAIRN_API_URL: url });
      expect([nobody.code, nobody.stderr]).toEqual([1, expect.stringContaining('401 UNAUTHORIZED')]);
      const impostor = await runCairn([...answer, '--by', 'the-boss'], { CAIRN_API_URL: url, CAIRN_TOKEN: ANA });
      expect([impostor.code, impostor.stderr]).toEqual([1, expect.stringContaining('400 BY_MISMATCH (by)')]);
      expect(await stateOf(agent)).toEqual(before);

      const approver = await runCairn(answer, { CAIRN_API_URL: url, CAIRN_TOKEN: ANA });
      expect([approver.code, approver.stdout.trim()]).toEqual([0, `answer to ${check.id} accepted`]);
      const done = await waitForState(agent, 'the agent completes', (s) => s.phase === 'completed');
      expect(done.interactions.find((i) => i.id === check.id)).toMatchObject({
        by: 'ana',
        actor: { id: 'ana', name: 'Ana Silva', roles: ['approver'], method: 'cli' },
      });
      // cairn audit prints the decision with who made it and how.
      const audit = await runCairn(['audit', agent.workflowId], {});
      expect(audit.code).toBe(0);
      expect(audit.stdout).toMatch(
        new RegExp(
          `^\\S+Z  ${check.id} plan\\.check answered: confirm by ana \\(Ana Silva\\) \\[approver; cli\\]$`,
          'm',
        ),
      );
      expect(audit.stdout).toMatch(/ completed$/m);
    });
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

test('every command goes through the API with CAIRN_TOKEN: refused without a token, and cancel is audited as its principal', async () => {
  const OPS = 'cli-token-of-olga-the-operator';
  const app = tokenApp(bed.client, bed.config.taskQueue, [
    { principal: 'olga', name: 'Olga Ops', roles: ['operator'], token: OPS },
    { principal: 'vic', roles: ['viewer'], token: VIC },
  ]);
  const { server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
      resolve({ server: s, port: info.port }),
    );
  });
  // Temporal out of reach: whatever works, works through the API.
  const via = (token?: string) => ({
    CAIRN_API_URL: `http://127.0.0.1:${port}`,
    TEMPORAL_ADDRESS: '127.0.0.1:1',
    ...(token ? { CAIRN_TOKEN: token } : {}),
  });
  bed.llm.respondWith(byRoute({ plan: [planReply(plan([step('s1')]))], 'step:s1': [finish('done')] }));
  try {
    await withWorker(bed.config, async () => {
      const agent = await startAgent(bed.client, bed.config, { task: 'Hold on', mode: { confirmPlan: true } });
      const id = agent.workflowId;
      await waitForInteraction(agent, 'plan.check');

      for (const args of [['ls'], ['show', id], ['audit', id], ['cancel', id], ['pause', id]]) {
        const refused = await runCairn(args, via());
        expect([args[0], refused.code, refused.stderr]).toEqual([
          args[0],
          1,
          expect.stringMatching(/^401 UNAUTHORIZED: /),
        ]);
      }
      const listed = await runCairn(['ls', '--json'], via(VIC));
      expect(listed.code).toBe(0);
      expect((JSON.parse(listed.stdout) as { id: string }[]).map((a) => a.id)).toContain(id);
      const shown = await runCairn(['show', id, '--json'], via(VIC));
      expect([shown.code, (JSON.parse(shown.stdout) as { phase: string }).phase]).toEqual([0, 'awaiting_input']);
      const viewerCancel = await runCairn(['cancel', id], via(VIC));
      expect([viewerCancel.code, viewerCancel.stderr]).toEqual([1, expect.stringMatching(/^403 FORBIDDEN: /)]);
      expect((await stateOf(agent)).phase).toBe('awaiting_input');

      const cancelled = await runCairn(['cancel', id], via(OPS));
      expect([cancelled.code, cancelled.stdout.trim()]).toEqual([0, `cancellation of ${id} requested`]);
      const end = await waitForState(agent, 'the agent is cancelled', (s) => s.phase === 'cancelled');
      expect(end.events.at(-1)).toMatchObject({
        type: 'agent.finished',
        message: 'cancelled by olga',
        actor: { id: 'olga', name: 'Olga Ops', roles: ['operator'], method: 'cli' },
      });
      const audit = await runCairn(['audit', id], via(VIC));
      expect(audit.code).toBe(0);
      expect(audit.stdout).toMatch(/Z {2}cancelled by olga \(Olga Ops\) \[operator; cli\]$/m);
    });
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

test('the CLI prints no secret: a token a server echoes, a password in CAIRN_API_URL', async () => {
  const token = 'cli-secret-token-5e1f9a7c33';
  // A server (a proxy, say) whose refusal repeats the token it was sent.
  const echo = createServer((req, res) => {
    const sent = req.headers.authorization ?? '';
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 'UNAUTHORIZED', message: `unknown token ${sent.slice(7)} (${sent})` } }));
  });
  const port = await new Promise<number>((resolve) =>
    echo.listen(0, '127.0.0.1', () => resolve((echo.address() as AddressInfo).port)),
  );
  try {
    const echoed = await runCairn(['ls'], { CAIRN_API_URL: `http://127.0.0.1:${port}`, CAIRN_TOKEN: token });
    expect([echoed.code, echoed.stderr]).toEqual([
      1,
      expect.stringMatching(/^401 UNAUTHORIZED: unknown token \[redacted\]/),
    ]);
    expect(echoed.stdout + echoed.stderr).not.toContain(token);

    const password = 'pw-in-the-url-77';
    const inUrl = await runCairn(['cancel', 'some-agent'], {
      CAIRN_API_URL: `http://bob:${password}@127.0.0.1:${port}`,
      CAIRN_TOKEN: token,
    });
    expect([inUrl.code, inUrl.stderr]).toEqual([1, expect.stringContaining('http://bob:[redacted]@127.0.0.1')]);
    expect(inUrl.stdout + inUrl.stderr).not.toContain(password);
  } finally {
    await new Promise<void>((resolve) => echo.close(() => resolve()));
  }
});
