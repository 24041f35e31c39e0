/** A thread's current details (workflows/model/thread/thread-details.ts): its newest turns and what it waits on. */
import { DETAILS_TURNS, threadDetails } from '../../workflows/model/thread/thread-details';
import type { Turn } from '../../workflows/contract/thread-contract';

const turn = (n: number, extra: Partial<Turn> = {}): Turn => ({
  messageId: `msg-${n}`,
  text: `message ${n}`,
  status: 'completed',
  kind: 'chat',
  ...extra,
});

test('a running turn with messages queued behind it; each line its mark, kind, sender, agent and text', () => {
  const turns = [
    turn(1, { by: 'ann' }),
    turn(2, { kind: 'task', status: 'running', agentId: 't/turn-2', text: `Summarise\n${'the notes '.repeat(10)}` }),
    turn(3, { kind: undefined, status: 'queued', by: 'bob' }),
  ];
  expect(threadDetails('Notes', turns, { name: 'turn', messageId: 'msg-2', agentId: 't/turn-2' })).toBe(
    [
      '**Notes** · 3 turns',
      '- ● msg-1 chat · ann: message 1',
      `- ◔ msg-2 task → \`t/turn-2\`: Summarise ${'the notes '.repeat(4)}the notes…`,
      '- ○ msg-3 queued · bob: message 3',
      '',
      'Waiting on: its running turn msg-2, agent `t/turn-2` (1 message queued behind it)',
    ].join('\n'),
  );
});

test('idle, routing and closed say so; only the newest turns are listed', () => {
  const many = Array.from({ length: DETAILS_TURNS + 2 }, (_, i) => turn(i + 1));
  const idle = threadDetails('Long', many, { name: 'idle' }).split('\n');
  expect(idle[0]).toBe(`**Long** · ${DETAILS_TURNS + 2} turns`);
  expect(idle[1]).toBe('(2 older not shown)');
  expect(idle[2]).toBe('- ● msg-3 chat: message 3');
  expect(idle.at(-1)).toBe('Waiting on: the next message');
  const routing = threadDetails('One', [turn(1, { kind: undefined, status: 'routing' })], {
    name: 'routing',
    messageId: 'msg-1',
  });
  expect(routing).toBe('**One** · 1 turn\n- ◌ msg-1 routing: message 1\n\nWaiting on: msg-1 being answered or started');
  expect(threadDetails('One', [turn(1)], { name: 'closed', reason: 'idle for 30 days' })).toMatch(
    /\nClosed: idle for 30 days$/,
  );
});
