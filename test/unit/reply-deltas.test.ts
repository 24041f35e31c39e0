/**
 * The front door's view of a chat reply as it streams (client/threads/chat/reply-deltas.ts): only
 * the text of its message's `chat` call is passed on; what did not stream is the rest of the
 * recorded reply; a retry after part of the reply went out stops the streaming, and the whole
 * reply follows.
 */
import { ReplyDeltas } from '../../client/threads/chat/reply-deltas';
import type { LiveHub, LiveListener } from '../../client/live/live-hub';
import type { LiveEvent } from '../../client/live/live-events';

/** A hub that hands the test its one listener. */
function fakeHub(): { hub: LiveHub; emit: (event: Omit<LiveEvent, 'offset'>) => void } {
  let listener: LiveListener | undefined;
  let offset = 0;
  const hub = {
    follow: (_id: string, _lastSeen: number | undefined, l: LiveListener) => {
      listener = l;
      return () => undefined;
    },
  } as unknown as LiveHub;
  return { hub, emit: (event) => listener?.event({ ...event, offset: offset++ }) };
}

const call = (messageId: string, attempt = 1, purpose = 'chat') => ({
  agentId: 'thread-a-1',
  messageId,
  modelCallId: 'thread-a-1/run/3',
  attempt,
  purpose,
});

test("only the text of its message's chat call goes out; the rest of the reply is what did not stream", () => {
  const { hub, emit } = fakeHub();
  const sent: string[] = [];
  const reply = new ReplyDeltas(hub, 'thread-a-1', 'msg-2', (text) => sent.push(text));
  emit({ type: 'delta', data: { ...call('msg-1'), channel: 'text', text: 'an older reply' } });
  emit({ type: 'delta', data: { ...call('msg-2', 1, 'route-message'), channel: 'text', text: '{"kind":"chat"}' } });
  emit({ type: 'call.started', data: { ...call('msg-2'), streaming: true } });
  emit({ type: 'delta', data: { ...call('msg-2'), channel: 'reasoning', text: 'thinking' } });
  emit({ type: 'delta', data: { ...call('msg-2'), channel: 'text', text: 'Hello ' } });
  emit({ type: 'delta', data: { ...call('msg-2'), channel: 'text', text: 'there' } });
  expect(sent).toEqual(['Hello ', 'there']);
  expect(reply.rest('Hello there, friend.')).toBe(', friend.');
  reply.stop();
});

test('a retry after part of the reply went out: nothing more streams, and the whole reply follows', () => {
  const { hub, emit } = fakeHub();
  const sent: string[] = [];
  const reply = new ReplyDeltas(hub, 'thread-a-1', 'msg-1', (text) => sent.push(text));
  emit({ type: 'delta', data: { ...call('msg-1'), channel: 'text', text: 'Half a rep' } });
  emit({ type: 'call.superseded', data: { ...call('msg-1'), by: 2 } });
  emit({ type: 'delta', data: { ...call('msg-1', 2), channel: 'text', text: 'A different reply.' } });
  expect(sent).toEqual(['Half a rep']);
  expect(reply.rest('A different reply.')).toBe('A different reply.');
  reply.stop();
});

/** Lets every pending promise callback run (one macrotask turn), without waiting on a clock. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

test("settle waits for the call's end, and not at all when nothing streamed", async () => {
  const { hub, emit } = fakeHub();
  const reply = new ReplyDeltas(hub, 'thread-a-1', 'msg-1', () => undefined);
  await reply.settle(60_000); // nothing streamed: at once (with a 60 s bound, the test's timeout says otherwise)
  emit({ type: 'call.started', data: { ...call('msg-1'), streaming: true } });
  let done = false;
  const settled = reply.settle(60_000).then(() => (done = true));
  // Causal: however many turns pass, it has not settled while the call has not ended...
  for (let i = 0; i < 5; i++) await turn();
  expect(done).toBe(false);
  // ...nor on another message's call ending...
  emit({ type: 'call.finished', data: { ...call('msg-2'), outcome: 'completed' } });
  await turn();
  expect(done).toBe(false);
  // ...and it settles once its own call ends.
  emit({ type: 'call.finished', data: { ...call('msg-1'), outcome: 'completed' } });
  await settled;
  expect(done).toBe(true);
  // Ended: a later settle is at once.
  await reply.settle(60_000);
  reply.stop();
});
