/**
 * Two approvals need two people, not two credentials (docs/operations.md#two-person-approvals):
 * on a real worker, an approval policy asks two people; after Ana approved with her API token,
 * the shared CAIRN_API_TOKEN, Ana again through the OpenID Connect provider (another id, maybe
 * the same person) and an answer signal sent straight to Temporal are each refused and change
 * nothing but the timeline; Bob's token is the second approval, and the write runs once.
 */
import { oidcSettings } from '../harness/oidc-provider';
import { mkdtempSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AuditEntry } from '../../client/agents/audit-entries';
import { createAuthenticator } from '../../client/http/auth/create-authenticator';
import { sha256Hex } from '../../client/http/auth/token-table';
import type { AgentState } from '../../workflows/model/agent/agent-state';
import { answerSignal } from '../../workflows/contract/messages';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { finish, plan, planReply, step } from '../harness/plans';
import { recordHistory } from '../harness/histories';
import { startJwtIssuer, type JwtIssuer } from '../harness/jwt-issuer';
import { expectNothingChanged } from '../harness/nothing-changed';
import { expectReplaysItself } from '../harness/replays-itself';
import { withWorker } from '../harness/test-env';
import { waitUntil } from '../../testkit/wait-until';
import { agentFile } from '../harness/agents';
import { testApp } from '../harness/http-app';

const dir = mkdtempSync(join(tmpdir(), 'cairn-people-'));
const workspace = join(dir, 'workspace');
const policyFile = join(dir, 'policy.cedar');
writeFileSync(
  policyFile,
  `
@id("config-needs-two")
@decision("ask")
@approvers("2")
permit (principal, action == Action::"call", resource == Tool::"write_file")
when { context has path && context.path like "config/*" };
`,
);

const bed = agentTestbed({ CAIRN_WORKSPACE: workspace, CAIRN_POLICY_FILE: policyFile });
const CLIENT_ID = 'cairn-people-test';
const SHARED_TOKEN = 'the-shared-admin-token-of-this-test';
const tokens = { ana: 'token-of-ana-the-approver-000', bob: 'token-of-bob-the-approver-000' };

let issuer: JwtIssuer;
beforeAll(async () => {
  issuer = await startJwtIssuer(CLIENT_ID);
});
afterAll(async () => {
  await issuer.close();
});

/** Tokens (a file and CAIRN_API_TOKEN) beside the provider's bearer JWTs, as one server takes them. */
async function appFor(): Promise<OpenAPIHono> {
  const tokensFile = join(dir, 'tokens.json');
  writeFileSync(
    tokensFile,
    JSON.stringify([
      { principal: 'ana', name: 'Ana Silva', roles: ['approver'], tokenSha256: sha256Hex(tokens.ana) },
      { principal: 'bob', name: 'Bob Stone', roles: ['approver', 'operator'], tokenSha256: sha256Hex(tokens.bob) },
    ]),
  );
  const oidc = oidcSettings(issuer.issuer, { clientId: CLIENT_ID, scopes: 'openid' });
  const auth = await createAuthenticator({ mode: 'oidc', tokensFile, apiToken: SHARED_TOKEN, oidc }, '127.0.0.1');
  return testApp(bed.client, bed.config.taskQueue, { auth });
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

function post(app: OpenAPIHono, path: string, body: unknown, token: string) {
  return app.request(path, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...bearer(token) },
  });
}

async function get<T>(app: OpenAPIHono, path: string): Promise<T> {
  const res = await app.request(path, { headers: bearer(tokens.bob) });
  if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
  return (await res.json()) as T;
}

const stateOf = (app: OpenAPIHono, id: string) => get<AgentState>(app, `/api/agents/${id}`);

test('two approvals need two people: the shared token, the same person by the provider and a signal do not count', async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [reply.toolCall('write_file', { path: 'config/app.json', content: '{}' }), finish('done')],
      summary: [reply.text('all done')],
    }),
  );
  await withWorker(bed.config, async () => {
    const app = await appFor();
    const started = await post(app, '/api/agents', { task: 'Change the config' }, tokens.bob);
    expect(started.status).toBe(201);
    const { id } = (await started.json()) as { id: string };
    const opened = await waitUntil('the approval opens', async () => {
      const found = (await stateOf(app, id)).interactions.find((i) => i.kind === 'tool.approval');
      return found?.kind === 'tool.approval' ? found : undefined;
    });
    expect(opened.approvers).toBe(2);
    const approve = { interactionId: opened.id, answer: { decision: 'approve', digest: opened.digest } };
    const answers = `/api/agents/${id}/answers`;

    expect((await post(app, answers, approve, tokens.ana)).status).toBe(200);
    const refusedWith = (token: string) =>
      expectNothingChanged(
        () => stateOf(app, id),
        bed.llm,
        opened.id,
        async () => {
          const res = await post(app, answers, approve, token);
          const body = (await res.json()) as { error?: { code: string } };
          return [res.status, body.error?.code];
        },
      );
    // The shared CAIRN_API_TOKEN (an admin) names no one person.
    expect(await refusedWith(SHARED_TOKEN)).toEqual([409, 'SAME_APPROVER']);
    // Ana again, signed in through the provider: another id, but Cairn cannot tell she is not Ana.
    const anaAtProvider = await issuer.sign('0f3a9c-ana', { roles: ['approver'], name: 'Ana Silva' });
    expect(await refusedWith(anaAtProvider)).toEqual([409, 'SAME_APPROVER']);

    // Straight to Temporal: a signal names whoever its `by` says — it is refused on the timeline.
    await bed.client.workflow.getHandle(id).signal(answerSignal, { ...approve, by: 'carol' });
    const rejected = await waitUntil('the signal is rejected', async () => {
      const state = await stateOf(app, id);
      return state.events.find((e) => e.type === 'answer.rejected' && e.message.includes(opened.id));
    });
    expect(rejected.message).toContain('names nobody Cairn identified');
    const afterSignal = await stateOf(app, id);
    const stillOpen = afterSignal.interactions.find((i) => i.id === opened.id);
    expect(stillOpen?.status).toBe('open');
    expect(stillOpen?.kind === 'tool.approval' ? stillOpen.approvals?.map((a) => a.actor.id) : []).toEqual(['ana']);
    expect(existsSync(agentFile(workspace, id, 'config/app.json'))).toBe(false);

    // Bob, another principal of the tokens file: the second person.
    expect((await post(app, answers, approve, tokens.bob)).status).toBe(200);
    await waitUntil('the agent completes', async () =>
      (await stateOf(app, id)).phase === 'completed' ? true : undefined,
    );
    expect(readFileSync(agentFile(workspace, id, 'config/app.json'), 'utf8')).toBe('{}');
    const { entries } = await get<{ entries: AuditEntry[] }>(app, `/api/agents/${id}/audit`);
    const approvals = entries.filter((e) => e.what.startsWith('tool.approval approved'));
    expect(approvals.map((e) => [e.actor?.id, e.actor?.authenticatedBy])).toEqual([
      ['ana', 'token'],
      ['bob', 'token'],
    ]);

    const handle = bed.client.workflow.getHandle(id);
    await expectReplaysItself(handle);
    // The kept history of the patch that stopped counting a signal as a person (cairn-approval-people).
    await recordHistory('agent-approval-people', handle);
  });
});
