/**
 * Approvals reused across a thread's turns, the pure parts: which approvals a turn hands on (the
 * approved tool approvals, with who approved), which of them stands for a later call (same
 * digest, same role, same number of approvers), and that the thread passes the newest on.
 */
import { approvalsGiven, matchingApproval, MAX_EARLIER_APPROVALS } from '../../workflows/model/tools/approval-reuse';
import { earlierApprovals } from '../../workflows/model/thread/thread-context';
import type { Interaction } from '../../workflows/model/interactions/interaction-types';
import type { Turn } from '../../workflows/contract/thread-contract';
import { fullActor } from '../harness/full-values';
import type { Principal } from '../../workflows/model/principal';

const approval = (id: string, decision: 'approve' | 'reject', extra: Partial<Interaction> = {}): Interaction =>
  ({
    id,
    kind: 'tool.approval',
    prompt: 'Allow write_file?',
    tool: 'write_file',
    arguments: { path: 'a.txt' },
    digest: `sha256:${id}`,
    status: 'answered',
    createdAt: 1,
    answeredAt: 2,
    answer: { decision, digest: `sha256:${id}` },
    by: 'ann',
    actor: fullActor,
    ...extra,
  }) as Interaction;

test('a turn hands on the calls people approved, with who approved and the policy outcome', () => {
  const given = approvalsGiven('t/turn-1', [
    approval('i1', 'approve'),
    approval('i2', 'reject'),
    approval('i3', 'approve', {
      role: 'finance',
      approvers: 2,
      approvals: [
        { actor: { ...fullActor, id: 'bob' }, at: 1 },
        { actor: { ...fullActor, id: 'cy' }, at: 2 },
      ],
    }),
    approval('i4', 'approve', { status: 'open' }),
  ]);
  expect(given).toEqual([
    { agentId: 't/turn-1', interactionId: 'i1', tool: 'write_file', digest: 'sha256:i1', approvers: 1, by: ['ann'] },
    {
      agentId: 't/turn-1',
      interactionId: 'i3',
      tool: 'write_file',
      digest: 'sha256:i3',
      role: 'finance',
      approvers: 2,
      by: ['bob', 'cy'],
    },
  ]);
});

/** A call of a turn run under nobody (authentication off) that may run twice. */
const anyone = { sender: undefined, idempotent: true };

test('an earlier approval stands only for the same digest under the same role and number of approvers', () => {
  const given = approvalsGiven('t/turn-1', [
    approval('i1', 'approve'),
    approval('i3', 'approve', { role: 'finance', approvers: 2 }),
  ]);
  expect(matchingApproval(given, 'sha256:i1', {}, anyone)?.interactionId).toBe('i1');
  expect(matchingApproval(given, 'sha256:i1', { approvers: 1 }, anyone)?.interactionId).toBe('i1');
  expect(matchingApproval(given, 'sha256:i1', { role: 'finance' }, anyone)).toBeUndefined();
  expect(matchingApproval(given, 'sha256:i1', { approvers: 2 }, anyone)).toBeUndefined();
  expect(matchingApproval(given, 'sha256:other', {}, anyone)).toBeUndefined();
  expect(matchingApproval(given, 'sha256:i3', { role: 'finance', approvers: 2 }, anyone)?.interactionId).toBe('i3');
  expect(matchingApproval(given, 'sha256:i3', { role: 'finance' }, anyone)).toBeUndefined();
  expect(matchingApproval(undefined, 'sha256:i1', {}, anyone)).toBeUndefined();
});

test('an earlier approval stands only for a turn of the same sender, in the same realm, and never for a call that is not idempotent', () => {
  const ann: Principal = { id: 'ann', roles: ['operator'], authenticatedBy: 'token' };
  const given = approvalsGiven('t/turn-1', [approval('i1', 'approve')], ann);
  expect(given[0]?.sender).toEqual({ id: 'ann', authenticatedBy: 'token' });
  const call = (sender: Principal | undefined, idempotent = true) => ({ sender, idempotent });
  expect(matchingApproval(given, 'sha256:i1', {}, call(ann))?.interactionId).toBe('i1');
  // Roles may differ between turns: the person is the same.
  expect(matchingApproval(given, 'sha256:i1', {}, call({ ...ann, roles: [] }))?.interactionId).toBe('i1');
  expect(matchingApproval(given, 'sha256:i1', {}, call(ann, false))).toBeUndefined();
  expect(matchingApproval(given, 'sha256:i1', {}, call({ ...ann, id: 'bob' }))).toBeUndefined();
  // The provider's "ann" is not the tokens file's.
  expect(matchingApproval(given, 'sha256:i1', {}, call({ ...ann, authenticatedBy: 'oidc-bearer' }))).toBeUndefined();
  expect(matchingApproval(given, 'sha256:i1', {}, call(undefined))).toBeUndefined();
  // A turn under nobody reuses only approvals of turns under nobody.
  expect(
    matchingApproval(approvalsGiven('t/turn-1', [approval('i1', 'approve')]), 'sha256:i1', {}, call(ann)),
  ).toBeUndefined();
  // An OpenID Connect session and a bearer token of the provider are one realm.
  const oidc = approvalsGiven('t/turn-1', [approval('i1', 'approve')], { ...ann, authenticatedBy: 'oidc-session' });
  expect(matchingApproval(oidc, 'sha256:i1', {}, call({ ...ann, authenticatedBy: 'oidc-bearer' }))).toBeDefined();
});

test('the thread passes on the approvals of its earlier turns, the newest that fit', () => {
  const turn = (n: number, count: number): Turn => ({
    messageId: `msg-${n}`,
    text: 'x',
    status: 'completed',
    approvals: approvalsGiven(
      `t/turn-${n}`,
      Array.from({ length: count }, (_, i) => approval(`i${i + 1}`, 'approve')),
    ),
  });
  expect(earlierApprovals([turn(1, 2), { messageId: 'msg-2', text: 'hi', status: 'completed' }]).length).toBe(2);
  const bounded = earlierApprovals([turn(1, 30), turn(2, 30)]);
  expect(bounded).toHaveLength(MAX_EARLIER_APPROVALS);
  expect(bounded.at(-1)).toMatchObject({ agentId: 't/turn-2', interactionId: 'i30' });
});

test("the thread passes a turn only the approvals of its own sender's earlier turns", () => {
  const ann: Principal = { id: 'ann', roles: ['operator'], authenticatedBy: 'token' };
  const bob = { ...ann, id: 'bob' };
  const turn = (n: number, sender?: Principal): Turn => ({
    messageId: `msg-${n}`,
    text: 'x',
    status: 'completed',
    approvals: approvalsGiven(`t/turn-${n}`, [approval(`i${n}`, 'approve')], sender),
  });
  const earlier = [turn(1, ann), turn(2, bob), turn(3)];
  expect(earlierApprovals(earlier, ann).map((a) => a.agentId)).toEqual(['t/turn-1']);
  expect(earlierApprovals(earlier, bob).map((a) => a.agentId)).toEqual(['t/turn-2']);
  expect(earlierApprovals(earlier).map((a) => a.agentId)).toEqual(['t/turn-3']);
});
