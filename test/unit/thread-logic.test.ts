/**
 * A thread's pure parts: what a task turn's agent and a chat reply are told of the earlier turns
 * (cut from the newest), the `route-message` reply's check, a turn's end from its agent's result,
 * and the idle timeout in words (the phase machine: thread-phase.test.ts).
 */
import { ApplicationFailure, CancelledFailure, ChildWorkflowFailure, RetryState } from '@temporalio/common';
import { sendInputSchema, type Turn } from '../../workflows/contract/thread-contract';
import { checkMessageRoute, messageRouteRequest } from '../../workflows/model/thread/message-route';
import { chatMessages, MAX_CONTEXT_CHARS, turnTask, turnText } from '../../workflows/model/thread/thread-context';
import { endOfFailure, endOfResult, senderPrincipal } from '../../workflows/thread/thread-task';
import { describeMs } from '../../workflows/thread/thread-workflow';
import { ThreadBudget } from '../../workflows/model/thread/thread-budget';

const usage = { promptTokens: 1, completionTokens: 1, totalTokens: 2 };
const taskTurn = (n: number, result: string): Turn => ({
  messageId: `msg-${n}`,
  text: `task ${n}`,
  kind: 'task',
  status: 'completed',
  reply: `answer ${n}`,
  steps: [{ id: 's1', title: 'First', result }],
});

test('a task turn is told the earlier turns: messages, step results and replies; rejected ones are left out', () => {
  const rejected: Turn = { messageId: 'msg-2', text: 'never mind', status: 'rejected', disposition: 'rejected' };
  const task = turnTask('compare them', [taskTurn(1, 'Notion: $10'), rejected]);
  expect(task.startsWith('compare them\n')).toBe(true);
  expect(task).toContain('step s1 "First": Notion: $10');
  expect(task).toContain('reply: answer 1');
  expect(task).not.toContain('never mind');
  expect(turnTask('first', [])).toBe('first');
});

test('the context is cut from the oldest turn, within its bound, saying so; long parts are cut', () => {
  const earlier = Array.from({ length: 40 }, (_, i) => taskTurn(i + 1, 'x'.repeat(1_500)));
  const task = turnTask('go', earlier);
  expect(task.length).toBeLessThan(MAX_CONTEXT_CHARS + 500);
  expect(task).toContain('(older turns left out)');
  expect(task).toContain('[msg-40]');
  expect(task).not.toContain('[msg-1]');
  expect(turnText(taskTurn(1, 'y'.repeat(5_000)))).toContain('…[cut]');
});

test('the documented bounds: 12,000 characters of earlier turns from the newest, each part cut to 2,000', () => {
  // docs/contracts.md, "Threads" > Routing: the earlier turns "cut to 12,000 characters from the
  // newest (each part to 2,000)". Literals, not the module's constants: a changed one fails here.
  // Chat turns of exactly 1,000 characters each as the agent reads them: twelve fit, no more.
  const sized = (n: number): Turn => {
    const bare: Turn = { messageId: `msg-${n}`, text: '', kind: 'chat', status: 'completed', reply: 'ok' };
    return { ...bare, text: 'x'.repeat(1_000 - turnText(bare).length) };
  };
  const earlier = Array.from({ length: 20 }, (_, i) => sized(i + 1));
  expect(earlier.every((t) => turnText(t).length === 1_000)).toBe(true);
  const task = turnTask('go', earlier);
  const told = earlier.filter((t) => task.includes(`[${t.messageId}]`)).map((t) => t.messageId);
  // 12 × 1,000 parts (joined by newlines) is the bound: msg-9 … msg-20; the 13th newest is left out.
  expect(told).toEqual(Array.from({ length: 12 }, (_, i) => `msg-${i + 9}`));
  expect(task).toContain('(older turns left out)');

  const long = turnText(taskTurn(1, 'y'.repeat(5_000)));
  expect(long).toContain(`: ${'y'.repeat(2_000)} …[cut]`);
  expect(long).not.toContain('y'.repeat(2_001));
  expect(turnText(taskTurn(1, 'y'.repeat(2_000)))).not.toContain('…[cut]'); // exactly 2,000: whole
});

test('the documented bound: a message is at most 20,000 characters', () => {
  // docs/contracts.md, "Threads" > the send update: `"text": …, // 1–20000 characters, trimmed`.
  expect(sendInputSchema.safeParse({ text: 'm'.repeat(20_000) }).success).toBe(true);
  expect(sendInputSchema.safeParse({ text: ` ${'m'.repeat(20_000)} ` }).success).toBe(true); // trimmed first
  const over = sendInputSchema.safeParse({ text: 'm'.repeat(20_001) });
  expect(over.success ? [] : over.error.issues.map((i) => [i.path.join('.'), i.code])).toEqual([['text', 'too_big']]);
});

test('a chat reply hears the system prompt, the earlier turns as user/assistant pairs, then the message', () => {
  const chat: Turn = { messageId: 'msg-1', text: 'hi', kind: 'chat', status: 'completed', reply: 'hello' };
  const messages = chatMessages('and now?', [chat, taskTurn(2, 'done it')]);
  expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant', 'user']);
  expect(messages[2]?.content).toBe('hello');
  expect(messages[4]?.content).toContain('done it');
  expect(messages.at(-1)?.content).toBe('and now?');
});

test('route-message: the message alone after the instructions; the reply read tolerantly and checked', () => {
  expect(messageRouteRequest('do it').map((m) => m.role)).toEqual(['system', 'user']);
  expect(messageRouteRequest('do it')[1]?.content).toBe('do it');
  expect(checkMessageRoute('```json\n{"kind":"task","reason":"tools"}\n```')).toEqual({
    ok: true,
    route: { kind: 'task', reason: 'tools' },
  });
  expect(checkMessageRoute('{"kind":"maybe","reason":"?"}').ok).toBe(false);
  expect(checkMessageRoute('no json').ok).toBe(false);
  expect(checkMessageRoute(null).ok).toBe(false);
});

test("a turn's end: its agent's status, answer and steps; cancelled or failed when the agent threw", () => {
  expect(endOfResult({ status: 'completed', answer: 'ok', usage, steps: [{ id: 's1', title: 'T' }] })).toEqual({
    status: 'completed',
    reply: 'ok',
    steps: [{ id: 's1', title: 'T' }],
  });
  expect(endOfResult({ status: 'stopped', usage })).toEqual({ status: 'stopped' });
  const child = (cause: Error) =>
    new ChildWorkflowFailure(
      'ns',
      { workflowId: 'w', runId: 'r' },
      'agentWorkflow',
      RetryState.NON_RETRYABLE_FAILURE,
      cause,
    );
  expect(endOfFailure(child(new CancelledFailure('cancelled')))).toEqual({ status: 'cancelled' });
  expect(endOfFailure(child(ApplicationFailure.create({ type: 'PLAN_INVALID', message: 'bad plans' })))).toEqual({
    status: 'failed',
    error: 'bad plans',
  });
});

test("a task turn runs under its sender's principal, else the thread's", () => {
  const actor = { id: 'ann', roles: ['operator'], method: 'api' as const };
  expect(senderPrincipal({ text: 'x', actor }, { id: 'bo', roles: [] })).toEqual({ id: 'ann', roles: ['operator'] });
  expect(senderPrincipal({ text: 'x' }, { id: 'bo', roles: [] })).toEqual({ id: 'bo', roles: [] });
  expect(senderPrincipal({ text: 'x' })).toBeUndefined();
});

test('the idle timeout in words', () => {
  expect(describeMs(30 * 86_400_000)).toBe('30 days');
  expect(describeMs(3_600_000)).toBe('1 hour');
  expect(describeMs(1_500)).toBe('1500 ms');
});

test("a thread's budget: what is left caps a turn's own budget; spent, it refuses; none, nothing changes", () => {
  const none = new ThreadBudget(undefined);
  none.add({ promptTokens: 5_000, completionTokens: 0, totalTokens: 5_000, costUsd: 1 });
  expect(none.refusal()).toBeUndefined();
  expect(none.turnLimits({ maxReplans: 1 })).toEqual({ maxReplans: 1 });

  const budget = new ThreadBudget({ tokens: 1_000, costUsd: 2 });
  budget.add({ promptTokens: 600, completionTokens: 100, totalTokens: 700, costUsd: 0.5 });
  // What is left is also the most a raise may set: the sender's own ceiling only lowers it.
  const ceiling = { maxTokenBudget: 300, maxCostBudgetUsd: 1.5 };
  expect(budget.turnLimits(undefined)).toEqual({ tokenBudget: 300, costBudgetUsd: 1.5, ...ceiling });
  expect(budget.turnLimits({ tokenBudget: 100, costBudgetUsd: 9, maxReplans: 1 })).toEqual({
    tokenBudget: 100,
    costBudgetUsd: 1.5,
    maxReplans: 1,
    ...ceiling,
  });
  expect(budget.turnLimits({ maxTokenBudget: 200, maxCostBudgetUsd: 5 })).toMatchObject({
    maxTokenBudget: 200,
    maxCostBudgetUsd: 1.5,
  });
  expect(budget.refusal()).toBeUndefined();
  budget.add({ promptTokens: 300, completionTokens: 0, totalTokens: 300, costUsd: null });
  expect(budget.refusal()).toMatch(/budget is spent \(1000 tokens used\)/);
  // Carried over to the next run as it was.
  expect(new ThreadBudget({ tokens: 1_000 }, budget.usage).refusal()).toBeDefined();
});
