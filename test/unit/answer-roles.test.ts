import { answerRolesSchema, missingRole, roleFor, whoAnswers } from '../../workflows/model/interactions/answer-roles';
import type { Interaction } from '../../workflows/model/interactions/interaction-types';

const planCheck = (role?: string): Interaction => ({
  kind: 'plan.check',
  prompt: 'ok?',
  plan: { task: 'g', language: 'en', replan: [], steps: [{ id: 's1', title: 't', description: 'd', depends_on: [] }] },
  revision: 1,
  id: 'i1',
  status: 'open',
  createdAt: 0,
  ...(role !== undefined ? { role } : {}),
});
const actor = (...roles: string[]) => ({ actor: { id: 'someone', roles, method: 'api', authenticatedBy: 'token' } });

test('roleFor: ask kinds share the ask entry; unnamed kinds have no role', () => {
  const roles = answerRolesSchema.parse({ ask: 'operator', budget: 'admin' });
  expect(roleFor('ask.form', roles)).toBe('operator');
  expect(roleFor('ask.select', roles)).toBe('operator');
  expect(roleFor('budget', roles)).toBe('admin');
  expect(roleFor('plan.check', roles)).toBeUndefined();
  expect(roleFor('plan.check', undefined)).toBeUndefined();
});

test('answerRoles: approvals never below approver, unknown kinds and roles refused', () => {
  expect(answerRolesSchema.safeParse({ 'tool.approval': 'operator' }).success).toBe(false);
  expect(answerRolesSchema.safeParse({ 'tool.approval': 'admin' }).success).toBe(true);
  expect(answerRolesSchema.safeParse({ 'plan.check': 'viewer' }).success).toBe(false);
  expect(answerRolesSchema.safeParse({ 'ask.query': 'operator' }).success).toBe(false);
});

test('missingRole: through Cairn the default is approver; admin meets anything; a signal meets no named role', () => {
  expect(missingRole(planCheck(), actor('operator'), false)).toBe('approver');
  expect(missingRole(planCheck(), actor('approver'), false)).toBeUndefined();
  expect(missingRole(planCheck('operator'), actor('operator'), false)).toBeUndefined();
  expect(missingRole(planCheck('operator'), actor('approver'), false)).toBe('operator');
  expect(missingRole(planCheck('operator'), actor('admin'), false)).toBeUndefined();
  expect(missingRole(planCheck(), {}, false)).toBeUndefined();
  expect(missingRole(planCheck('operator'), {}, false)).toBe('operator');
  // Saying no to an approval needs only the default role.
  expect(missingRole(planCheck('admin'), actor('approver'), true)).toBeUndefined();
  expect(missingRole(planCheck('admin'), actor('operator'), true)).toBe('approver');
});

test('missingRole: approving a tool call needs approver whatever role a policy names besides it', () => {
  const approval = (role?: string): Interaction => ({
    kind: 'tool.approval',
    prompt: 'Allow write_file?',
    tool: 'write_file',
    arguments: {},
    digest: 'd',
    id: 'i2',
    status: 'open',
    createdAt: 0,
    ...(role !== undefined ? { role } : {}),
  });
  expect(missingRole(approval('operator'), actor('operator'), false)).toBe('approver');
  expect(missingRole(approval('operator'), actor('operator', 'approver'), false)).toBeUndefined();
  expect(missingRole(approval('admin'), actor('approver'), false)).toBe('admin');
  expect(missingRole(approval(), actor('admin'), false)).toBeUndefined();
  expect(missingRole(approval('operator'), actor('operator'), true)).toBe('approver');
});

const question = (extra: Partial<Extract<Interaction, { kind: 'ask.query' }>> = {}): Interaction => ({
  kind: 'ask.query',
  prompt: 'Who reads it?',
  id: 'i3',
  status: 'open',
  createdAt: 0,
  ...extra,
});

test("whoAnswers: a question with no role named is asked of the agent's starter signed in as one person; else of nobody", () => {
  const ops = { id: 'ops', roles: ['operator'], authenticatedBy: 'token' as const };
  expect(whoAnswers(question(), { principal: ops })).toEqual({ askedOf: { id: 'ops', authenticatedBy: 'token' } });
  expect(whoAnswers(question(), {})).toEqual({});
  // The shared token, authentication off, or a principal kept without its sign-in name nobody.
  expect(whoAnswers(question(), { principal: { ...ops, authenticatedBy: 'shared-token' } })).toEqual({});
  expect(whoAnswers(question(), { principal: { ...ops, authenticatedBy: 'none' } })).toEqual({});
  expect(whoAnswers(question(), { principal: { id: 'ops', roles: ['operator'] } })).toEqual({});
  expect(whoAnswers(question(), { principal: ops, answerRoles: answerRolesSchema.parse({ ask: 'operator' }) })).toEqual(
    { role: 'operator' },
  );
  expect(whoAnswers(planCheck(), { principal: ops })).toEqual({});
  expect(whoAnswers(planCheck('operator'), { principal: ops })).toEqual({ role: 'operator' });
});

test('missingRole: the person a question is asked of answers it without a role, signed in the same realm; nobody else', () => {
  const asked = question({ askedOf: { id: 'ops', authenticatedBy: 'oidc-session' } });
  const as = (id: string, authenticatedBy: string, method = 'api') => ({
    actor: { id, roles: ['operator'], method, authenticatedBy },
  });
  expect(missingRole(asked, as('ops', 'oidc-session', 'web'), false)).toBeUndefined();
  expect(missingRole(asked, as('ops', 'oidc-bearer'), false)).toBeUndefined();
  // The same id from the tokens file is another realm: maybe another person.
  expect(missingRole(asked, as('ops', 'token'), false)).toBe('approver');
  // Another operator, the shared token, authentication off, a signal: the default role as before.
  expect(missingRole(asked, as('ops2', 'oidc-session'), false)).toBe('approver');
  expect(missingRole(asked, as('ops', 'shared-token'), false)).toBe('approver');
  expect(missingRole(asked, as('ops', 'none'), false)).toBe('approver');
  expect(missingRole(asked, as('ops', 'oidc-session', 'temporal-signal'), false)).toBe('approver');
  const byToken = question({ askedOf: { id: 'ops', authenticatedBy: 'token' } });
  expect(missingRole(byToken, as('ops', 'token'), false)).toBeUndefined();
  expect(missingRole(byToken, as('ops', 'oidc-bearer'), false)).toBe('approver');
  // A question nobody was named for, and a role named on the question itself, are as before.
  expect(missingRole(question(), as('ops', 'token'), false)).toBe('approver');
  expect(
    missingRole(
      question({ askedOf: { id: 'ops', authenticatedBy: 'token' }, role: 'admin' }),
      as('ops', 'token'),
      false,
    ),
  ).toBe('admin');
});
