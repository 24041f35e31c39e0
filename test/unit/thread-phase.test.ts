/**
 * A thread's phase machine (workflows/thread/thread-phase.ts) as plain functions: the moves a
 * thread makes between idle, routing, a running turn and closed (and the ones it never makes);
 * the policy a message meets while a turn runs; and one-way steering — the messages steered into
 * a turn that its result does not name as heard go back in the queue, in message order.
 */
import {
  nextPhase,
  policyOutcome,
  requeue,
  unheard,
  type QueuedSend,
  type ThreadPhase,
} from '../../workflows/thread/thread-phase';
import type { Actor } from '../../workflows/contract/messages';

type Agent = { workflowId: string };
const agent: Agent = { workflowId: 'thread-a/turn-1' };
const ann = { id: 'ann', authenticatedBy: 'token' as const };
const actor = (id: string, roles: Actor['roles'] = ['operator']): Actor => ({
  id,
  roles,
  method: 'api',
  authenticatedBy: 'token',
});
const steer = (n: number): QueuedSend => ({ n, sent: { text: `steer ${n}`, policy: 'steer' } });

test('a message is routed from idle, then answered (back to idle) or started as a turn, which ends and is settled', () => {
  const idle: ThreadPhase<Agent> = { name: 'idle' };
  const routing = nextPhase(idle, { type: 'route', n: 1 });
  expect(routing).toEqual({ name: 'routing', n: 1 });
  expect(nextPhase(routing, { type: 'answered' })).toEqual({ name: 'idle' });
  const turn = nextPhase(routing, { type: 'started', agent, owner: ann });
  expect(turn).toEqual({ name: 'turn', n: 1, agent, owner: ann, steered: [] });
  const steered = nextPhase(turn, { type: 'steered', message: steer(2) });
  expect(steered).toMatchObject({ name: 'turn', steered: [steer(2)] });
  const ended = nextPhase(steered, { type: 'ended', ended: { end: { status: 'completed' }, heard: ['msg-2'] } });
  expect(ended).toMatchObject({ name: 'turn', ended: { heard: ['msg-2'] } });
  expect(nextPhase(ended, { type: 'settled' })).toEqual({ name: 'idle' });
  expect(nextPhase(idle, { type: 'close', reason: 'idle for 1 day' })).toEqual({
    name: 'closed',
    reason: 'idle for 1 day',
  });
});

test('the moves a thread never makes throw: two routings at once, a turn beside a turn, steering an ended turn, closing busy', () => {
  const routing: ThreadPhase<Agent> = { name: 'routing', n: 1 };
  const turn: ThreadPhase<Agent> = { name: 'turn', n: 1, agent, owner: undefined, steered: [] };
  const ended: ThreadPhase<Agent> = { ...turn, ended: { end: { status: 'completed' }, heard: [] } };
  expect(() => nextPhase(routing, { type: 'route', n: 2 })).toThrow('thread phase routing cannot take route');
  expect(() => nextPhase(turn, { type: 'route', n: 2 })).toThrow('cannot take route');
  expect(() => nextPhase(turn, { type: 'started', agent, owner: undefined })).toThrow('cannot take started');
  expect(() => nextPhase(ended, { type: 'steered', message: steer(2) })).toThrow('cannot take steered');
  expect(() => nextPhase(ended, { type: 'ended', ended: { end: { status: 'failed' } } })).toThrow('cannot take ended');
  expect(() => nextPhase(turn, { type: 'settled' })).toThrow('cannot take settled');
  expect(() => nextPhase(turn, { type: 'close', reason: 'x' })).toThrow('cannot take close');
  expect(() => nextPhase({ name: 'closed', reason: 'x' }, { type: 'route', n: 3 })).toThrow('cannot take route');
});

test("while a turn runs: `queue` by default, `reject`, and `steer` only from the turn's sender or an admin", () => {
  expect(policyOutcome({ text: 'x' }, ann)).toBe('queue');
  expect(policyOutcome({ text: 'x', policy: 'reject' }, ann)).toBe('reject');
  expect(policyOutcome({ text: 'x', policy: 'steer', actor: actor('ann') }, ann)).toBe('steer');
  expect(policyOutcome({ text: 'x', policy: 'steer', actor: actor('bob') }, ann)).toBe('not-owner');
  expect(policyOutcome({ text: 'x', policy: 'steer', actor: actor('root', ['admin']) }, ann)).toBe('steer');
  expect(policyOutcome({ text: 'x', policy: 'steer' }, undefined)).toBe('steer'); // both under nobody
});

test('one-way steering: what the turn heard stays answered; the rest go back in message order, told `steered`', () => {
  const steered = [steer(2), steer(3), steer(5)];
  // Heard: nothing goes back.
  expect(unheard(steered, { end: { status: 'completed' }, heard: ['msg-2', 'msg-3', 'msg-5'] })).toEqual([]);
  // Unheard (came after the last round): back in the queue, between the messages queued meanwhile.
  const back = unheard(steered, { end: { status: 'completed' }, heard: ['msg-3'] });
  expect(back).toEqual([steer(2), steer(5)]);
  const queue: QueuedSend[] = [{ n: 4, sent: { text: 'queued 4' }, told: 'queued' }];
  expect(requeue(queue, back)).toEqual([
    { ...steer(2), told: 'steered' },
    { n: 4, sent: { text: 'queued 4' }, told: 'queued' },
    { ...steer(5), told: 'steered' },
  ]);
  // A failed agent says nothing of what it heard: every message steered in goes back.
  expect(unheard(steered, { end: { status: 'failed', error: 'boom' } })).toEqual(steered);
});
