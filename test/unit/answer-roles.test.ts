import { answerRolesSchema, missingRole, roleFor } from '../../workflows/interactions/answer-roles';
import type { Interaction } from '../../workflows/interactions/interaction-types';

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
const actor = (...roles: string[]) => ({ actor: { roles } });

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
