/**
 * Approval policies (docs/operations.md#approval-policies) on a real worker: a write the policy
 * allows runs with no interaction opened and is audited as the policy's rule; a denied call
 * never runs and the model hears the denial in its next request; a rule asking two people
 * refuses the same person twice (409 SAME_APPROVER, nothing changes) and passes with two, the
 * audit keeping both.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AuditEntry } from '../../client/agents/audit-entries';
import type { AgentState } from '../../workflows/model/agent/agent-state';
import { reply, said } from '../fake-llm/replies';
import { byRoute, routeOf } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { finish, plan, planReply, step } from '../harness/plans';
import { expectNothingChanged } from '../harness/nothing-changed';
import { withWorker } from '../harness/test-env';
import { waitUntil } from '../../testkit/wait-until';
import { recordHistory } from '../harness/histories';
import { stepWorkflowId } from '../../workflows/base/ids';
import { tokenApp } from '../harness/token-app';
import { agentFile } from '../harness/agents';

const dir = mkdtempSync(join(tmpdir(), 'cairn-policy-'));
const workspace = join(dir, 'workspace');
const policyFile = join(dir, 'policy.cedar');
writeFileSync(
  policyFile,
  `
@id("notes-are-free")
permit (principal, action == Action::"call", resource == Tool::"write_file")
when { context has path && context.path like "notes/*" };

@id("no-env-files")
forbid (principal, action, resource)
when { context has path && context.path like "*.env" };

@id("admins-agents-write-admin")
permit (principal in Role::"admin", action == Action::"call", resource == Tool::"write_file")
when { context has path && context.path like "admin/*" };

@id("deploy-by-admin")
@decision("ask")
@role("admin")
permit (principal, action == Action::"call", resource == Tool::"write_file")
when { context has path && context.path like "deploy/*" };

@id("config-needs-two")
@decision("ask")
@approvers("2")
permit (principal, action == Action::"call", resource == Tool::"write_file")
when { context has path && context.path like "config/*" };
`,
);

const bed = agentTestbed({ CAIRN_WORKSPACE: workspace, CAIRN_POLICY_FILE: policyFile });

const tokens = {
  ana: 'token-of-ana-the-approver-000',
  bob: 'token-of-bob-the-approver-000',
  ops: 'token-of-ops-0000000000',
  root: 'token-of-root-the-admin-0000',
};

function appFor(): OpenAPIHono {
  return tokenApp(bed.client, bed.config.taskQueue, [
    { principal: 'ana', name: 'Ana Silva', roles: ['approver'], token: tokens.ana },
    { principal: 'bob', name: 'Bob Stone', roles: ['approver'], token: tokens.bob },
    { principal: 'ops', roles: ['operator'], token: tokens.ops },
    { principal: 'root', roles: ['admin'], token: tokens.root },
  ]);
}

const as = (who: keyof typeof tokens) => ({ authorization: `Bearer ${tokens[who]}` });

function post(app: OpenAPIHono, path: string, body: unknown, who: keyof typeof tokens) {
  return app.request(path, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...as(who) },
  });
}

async function get<T>(app: OpenAPIHono, path: string): Promise<T> {
  const res = await app.request(path, { headers: as('ops') });
  if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
  return (await res.json()) as T;
}

const stateOf = (app: OpenAPIHono, id: string) => get<AgentState>(app, `/api/agents/${id}`);
const auditOf = async (app: OpenAPIHono, id: string) =>
  (await get<{ entries: AuditEntry[] }>(app, `/api/agents/${id}/audit`)).entries;

async function startAgent(app: OpenAPIHono, task: string, extra: Record<string, unknown> = {}): Promise<string> {
  const started = await post(app, '/api/agents', { task, ...extra }, 'ops');
  expect(started.status).toBe(201);
  return ((await started.json()) as { id: string }).id;
}

const finished = (app: OpenAPIHono, id: string) =>
  waitUntil('the agent completes', async () => ((await stateOf(app, id)).phase === 'completed' ? true : undefined));

test('an allowed write runs unasked and a denied one is refused: the model hears the rule, the audit names both', async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [
        reply.toolCall('write_file', { path: 'notes/today.md', content: 'hello' }),
        reply.toolCall('write_file', { path: 'prod.env', content: 'SECRET=1' }),
        finish('done'),
      ],
      summary: [reply.text('all done')],
    }),
  );
  await withWorker(bed.config, async () => {
    const app = appFor();
    const id = await startAgent(app, 'Write notes');
    await finished(app, id);
    const state = await stateOf(app, id);
    expect(state.interactions).toEqual([]);
    expect(readFileSync(agentFile(workspace, id, 'notes/today.md'), 'utf8')).toBe('hello');
    expect(existsSync(agentFile(workspace, id, 'prod.env'))).toBe(false);

    // The request after the denied call carries the denial as that call's tool result.
    const stepRequests = bed.llm.requests.filter((r) => routeOf(r) === 'step:s1');
    const last = stepRequests[stepRequests.length - 1]?.body.messages ?? [];
    const toolResults = last.flatMap((m) => (m.role === 'tool' && typeof m.content === 'string' ? [m.content] : []));
    expect(toolResults[toolResults.length - 1]).toMatch(/approval policy \(rule "no-env-files"\) denies this call/);

    const policy = (await auditOf(app, id)).filter((e) => e.kind === 'policy');
    expect(policy.map((e) => [e.decision, e.tool, e.rule])).toEqual([
      ['allow', 'write_file', 'notes-are-free'],
      ['deny', 'write_file', 'no-env-files'],
    ]);
    await recordHistory('agent-policy', bed.client.workflow.getHandle(id));
    await recordHistory('step-policy', bed.client.workflow.getHandle(stepWorkflowId(id, 's1')));
  });
});

test('two approvers: the same person twice is refused, two people pass, the audit keeps both', async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [
        said(
          'The app needs its config file.',
          reply.toolCall('write_file', { path: 'config/app.json', content: '{}' }),
        ),
        finish('done'),
      ],
      summary: [reply.text('all done')],
    }),
  );
  await withWorker(bed.config, async () => {
    const app = appFor();
    const id = await startAgent(app, 'Change the config');
    const interactionId = await waitUntil('the approval opens', async () => {
      const open = (await stateOf(app, id)).interactions.find((i) => i.kind === 'tool.approval');
      return open?.id;
    });
    const opened = (await stateOf(app, id)).interactions.find((i) => i.id === interactionId);
    if (opened?.kind !== 'tool.approval') throw new Error('no approval');
    expect([opened.rule, opened.approvers]).toEqual(['config-needs-two', 2]);
    const approve = { decision: 'approve', digest: opened.digest };
    const answers = `/api/agents/${id}/answers`;

    const first = await post(app, answers, { interactionId, answer: approve }, 'ana');
    expect(first.status).toBe(200);
    const afterFirst = (await stateOf(app, id)).interactions.find((i) => i.id === interactionId);
    expect(afterFirst?.status).toBe('open');
    expect(existsSync(agentFile(workspace, id, 'config/app.json'))).toBe(false);

    const again = await expectNothingChanged(
      () => stateOf(app, id),
      bed.llm,
      interactionId,
      async () => {
        const res = await post(app, answers, { interactionId, answer: approve }, 'ana');
        return [res.status, ((await res.json()) as { error: { code: string } }).error.code];
      },
    );
    expect(again).toEqual([409, 'SAME_APPROVER']);

    const second = await post(app, answers, { interactionId, answer: approve }, 'bob');
    expect(second.status).toBe(200);
    await finished(app, id);
    expect(readFileSync(agentFile(workspace, id, 'config/app.json'), 'utf8')).toBe('{}');

    const approvals = (await auditOf(app, id)).filter((e) => e.what.startsWith('tool.approval approved'));
    expect(approvals.map((e) => [e.actor?.id, e.actor?.name, e.rule])).toEqual([
      ['ana', 'Ana Silva', 'config-needs-two'],
      ['bob', 'Bob Stone', 'config-needs-two'],
    ]);
    const policy = (await auditOf(app, id)).filter((e) => e.kind === 'policy');
    expect(policy.map((e) => [e.decision, e.rule])).toEqual([['ask', 'config-needs-two']]);
  });
});

test("the agent's principal is the signed-in one (a body naming one is refused); a rule's role is required of the approver", async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [
        reply.toolCall('write_file', { path: 'admin/a.txt', content: 'a' }),
        reply.toolCall('write_file', { path: 'deploy/b.txt', content: 'b' }),
        finish('done'),
      ],
      summary: [reply.text('all done')],
    }),
  );
  await withWorker(bed.config, async () => {
    const app = appFor();
    // An operator claiming to be an admin in the body is refused; started without the claim, the
    // admins-only allow rule does not apply to her.
    const claimed = await post(
      app,
      '/api/agents',
      { task: 'Write admin files', principal: { id: 'root', roles: ['admin'] } },
      'ops',
    );
    expect(claimed.status).toBe(400);
    expect(((await claimed.json()) as { error: { code: string; field?: string } }).error).toMatchObject({
      code: 'INVALID_INPUT',
      field: 'principal',
    });
    const id = await startAgent(app, 'Write admin files');
    const approval = (n: number) =>
      waitUntil(`approval ${n} opens`, async () => {
        const open = (await stateOf(app, id)).interactions.filter((i) => i.kind === 'tool.approval');
        const found = open[n - 1];
        return found?.kind === 'tool.approval' && found.status === 'open' ? found : undefined;
      });
    const answers = `/api/agents/${id}/answers`;
    const first = await approval(1);
    expect([first.rule, first.role]).toEqual(['default', undefined]);
    expect(
      (
        await post(
          app,
          answers,
          { interactionId: first.id, answer: { decision: 'approve', digest: first.digest } },
          'ana',
        )
      ).status,
    ).toBe(200);

    const second = await approval(2);
    expect([second.rule, second.role]).toEqual(['deploy-by-admin', 'admin']);
    const approve = { interactionId: second.id, answer: { decision: 'approve', digest: second.digest } };
    const refused = await expectNothingChanged(
      () => stateOf(app, id),
      bed.llm,
      second.id,
      async () => {
        const res = await post(app, answers, approve, 'ana');
        return [res.status, ((await res.json()) as { error: { code: string } }).error.code];
      },
    );
    expect(refused).toEqual([403, 'ROLE_REQUIRED']);
    expect((await post(app, answers, approve, 'root')).status).toBe(200);
    await finished(app, id);
    expect(readFileSync(agentFile(workspace, id, 'deploy/b.txt'), 'utf8')).toBe('b');
    const policy = (await auditOf(app, id)).filter((e) => e.kind === 'policy');
    expect(policy.map((e) => [e.decision, e.rule])).toEqual([
      ['ask', 'default'],
      ['ask', 'deploy-by-admin'],
    ]);
  });
});
