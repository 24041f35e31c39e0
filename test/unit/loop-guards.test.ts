/** The step's loop guards as pure state: per-reply cap, identical calls, the error budget, approval memory. */
import { DEFAULT_LOOP_GUARDS } from '../../workflows/base/loop-guard-limits';
import { callDigest, LoopGuards } from '../../workflows/step/loop-guards';

const call = (name: string, args: string, id = 'c') => ({ id, name, arguments: args });

test('calls of one reply beyond the cap are refused and not counted as made', () => {
  const guards = new LoopGuards({ maxToolCallsPerReply: 2 });
  const refusals = [0, 1, 2, 3].map((i) => guards.refusal(call('read_file', `{"path":"f${i}"}`), i));
  expect(refusals.slice(0, 2)).toEqual([undefined, undefined]);
  expect(refusals[2]).toMatch(/^not run: at most 2 tool calls of one reply run, and this was call 3/);
  expect(Object.keys(guards.state.calls)).toHaveLength(2);
});

test('an identical call runs maxIdenticalCalls times, then is refused; key order does not matter, finish_step never is', () => {
  const guards = new LoopGuards({ maxIdenticalCalls: 2 });
  expect(guards.refusal(call('read_file', '{"path":"a","max":1}'), 0)).toBeUndefined();
  expect(guards.refusal(call('read_file', '{"max":1, "path":"a"}'), 0)).toBeUndefined();
  expect(guards.refusal(call('read_file', '{"path":"a","max":1}'), 0)).toMatch(/already made 2 times in this step/);
  expect(guards.refusal(call('read_file', '{"path":"b","max":1}'), 0)).toBeUndefined();
  for (let i = 0; i < 5; i++) expect(guards.refusal(call('finish_step', '{"result":"x"}'), 0)).toBeUndefined();
  expect(callDigest(call('a', '{}'))).not.toBe(callDigest(call('b', '{}')));
});

test('the error budget is spent at maxToolErrors', () => {
  const guards = new LoopGuards({ maxToolErrors: 3 });
  expect([guards.failed(), guards.failed(), guards.failed()]).toEqual([false, false, true]);
  expect(guards.budgetError('s1')).toMatch(/^step s1 ended after 3 failed tool calls \(the limit is 3\)/);
});

test('approval decisions and counts are remembered, and carried state is copied, not shared', () => {
  const first = new LoopGuards(undefined);
  expect(first.limits).toEqual(DEFAULT_LOOP_GUARDS);
  first.rememberApproval('sha256:a', 'approve');
  first.rememberApproval('sha256:b', 'reject');
  first.refusal(call('read_file', '{}'), 0);
  const carried = JSON.parse(JSON.stringify(first.state)) as typeof first.state;
  const next = new LoopGuards(undefined, carried);
  expect([next.approvalOf('sha256:a'), next.approvalOf('sha256:b'), next.approvalOf('sha256:c')]).toEqual([
    'approve',
    'reject',
    undefined,
  ]);
  next.rememberApproval('sha256:c', 'approve');
  expect(carried.approvals['sha256:c']).toBeUndefined();
});

test('notes are handed over once', () => {
  const guards = new LoopGuards();
  guards.note('one');
  expect(guards.takeNotes()).toEqual(['one']);
  expect(guards.takeNotes()).toEqual([]);
});
