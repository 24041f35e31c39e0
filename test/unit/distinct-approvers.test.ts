/**
 * Who counts as one more person for an approval several people must give
 * (workflows/model/agent/distinct-approvers.ts): ids count within one sign-in realm — the tokens file or
 * the OpenID Connect provider, session and bearer alike — and never across; the shared
 * CAIRN_API_TOKEN, authentication off and an answer straight to Temporal count as nobody.
 */
import { approvesForSeveral, notAnotherPerson } from '../../workflows/model/agent/distinct-approvers';
import type { AnswerInput, Interaction } from '../../workflows/model/interactions/interaction-types';
import type { Actor } from '../../workflows/contract/messages';

type Approval = Extract<Interaction, { kind: 'tool.approval' }>;

const actor = (id: string, authenticatedBy?: Actor['authenticatedBy'], method: Actor['method'] = 'api'): Actor => ({
  id,
  roles: ['approver'],
  method,
  ...(authenticatedBy ? { authenticatedBy } : {}),
});

function approval(approvers: number, ...given: Actor[]): Approval {
  return {
    id: 'i1',
    kind: 'tool.approval',
    status: 'open',
    createdAt: 0,
    prompt: 'p',
    tool: 'write_file',
    arguments: {},
    digest: 'sha256:d',
    approvers,
    approvals: given.map((a, at) => ({ actor: a, at })),
  };
}

const approve = (who?: Actor): AnswerInput => ({
  interactionId: 'i1',
  answer: { decision: 'approve', digest: 'sha256:d' },
  ...(who ? { actor: who, by: who.id } : { by: 'someone' }),
});

/** The refusal as `CODE: message`, or `counts`. */
function verdict(interaction: Approval, input: AnswerInput): string {
  const check = notAnotherPerson(interaction, input);
  return check && !check.ok ? `${check.code}: ${check.error}` : 'counts';
}

test('only approvals of an approval that needs several people are judged', () => {
  expect(approvesForSeveral(approval(2), approve(actor('ana', 'token')))).toBe(true);
  expect(approvesForSeveral(approval(1), approve(actor('ana', 'token')))).toBe(false);
  const reject = { interactionId: 'i1', answer: { decision: 'reject', digest: 'sha256:d' } };
  expect(approvesForSeveral(approval(2), reject)).toBe(false);
  expect(approvesForSeveral(undefined, approve(actor('ana', 'token')))).toBe(false);
});

test('within one realm two ids are two people; session and bearer JWT are one realm', () => {
  expect(verdict(approval(2, actor('ana', 'token')), approve(actor('bob', 'token')))).toBe('counts');
  expect(verdict(approval(2, actor('sub-1', 'oidc-session', 'web')), approve(actor('sub-2', 'oidc-bearer')))).toBe(
    'counts',
  );
  expect(verdict(approval(3, actor('ana'), actor('bob')), approve(actor('carol')))).toBe('counts'); // older records
  expect(verdict(approval(2), approve(actor('ana', 'oidc-bearer')))).toBe('counts');
});

test('never across realms: a token principal and a provider subject may be one person', () => {
  expect(verdict(approval(2, actor('ana', 'token')), approve(actor('0f3a-ana', 'oidc-session', 'web')))).toMatch(
    /^SAME_APPROVER: i1 was first approved by someone signed in through API tokens; every approval of it must come from there too/,
  );
  expect(verdict(approval(2, actor('sub-1', 'oidc-bearer')), approve(actor('bob', 'token')))).toMatch(
    /^SAME_APPROVER: i1 was first approved by someone signed in through the OpenID Connect provider/,
  );
  expect(verdict(approval(2, actor('ana')), approve(actor('bob', 'token')))).toMatch(/^SAME_APPROVER: /);
});

test('the shared token, authentication off and an answer straight to Temporal count as nobody, first or later', () => {
  for (const given of [[], [actor('ana', 'token')]]) {
    const interaction = approval(2, ...given);
    expect(verdict(interaction, approve(actor('api-token', 'shared-token')))).toMatch(
      /^SAME_APPROVER: the shared CAIRN_API_TOKEN names no one person, so this approval cannot be one of the 2 different people i1 needs$/,
    );
    expect(verdict(interaction, approve(actor('anonymous', 'none')))).toMatch(
      /^SAME_APPROVER: with authentication off nobody is identified/,
    );
    expect(verdict(interaction, approve())).toMatch(/^SAME_APPROVER: an answer sent straight to Temporal names nobody/);
    expect(verdict(interaction, approve(actor('carol', undefined, 'temporal-signal')))).toMatch(/names nobody/);
  }
});
