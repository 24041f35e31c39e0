/**
 * sendWhen (client/threads/thread-requests.ts), the answer of the message routes: once routed by
 * default; with `wait=recorded` as soon as the thread recorded the message, a refusal before that
 * still thrown, a failure after it the turn's (not the caller's), and a thread too old to name the
 * message answered once routed.
 */
import { sendWhen } from '../../client/threads/thread-requests';
import type { SendHooks } from '../../client/threads/thread-client';

type Routed = { messageId: string; disposition: 'answered' };
const routed: Routed = { messageId: 'msg-1', disposition: 'answered' };
const early = (threadId: string, messageId: string) => ({ threadId, messageId });

/** A send that calls `accepted` (when given a message id), then settles as `then` says. */
function send(accepted: string | undefined, then: Promise<Routed>) {
  const calls: SendHooks[] = [];
  const fn = (hooks: SendHooks) => {
    calls.push(hooks);
    if (accepted !== undefined) hooks.accepted?.('thread-a', accepted);
    return then;
  };
  return { fn, calls };
}

test('by default (and with `routed`) it answers with what the send resolves to, handing the send no hooks', async () => {
  for (const wait of [undefined, 'routed'] as const) {
    const s = send('msg-1', Promise.resolve(routed));
    await expect(sendWhen(wait, s.fn, early)).resolves.toEqual(routed);
    expect(s.calls).toEqual([{}]);
  }
});

test('`recorded` answers as soon as the message is recorded, before the send is routed', async () => {
  const never = new Promise<Routed>(() => undefined);
  await expect(sendWhen('recorded', send('msg-7', never).fn, early)).resolves.toEqual({
    threadId: 'thread-a',
    messageId: 'msg-7',
  });
});

test('`recorded`: a refusal before the message is recorded is thrown; a failure after it is not the caller’s', async () => {
  const refused = new Error('THREAD_CLOSED');
  await expect(sendWhen('recorded', send(undefined, Promise.reject(refused)).fn, early)).rejects.toBe(refused);
  const failedLater = Promise.reject(new Error('the model failed for good'));
  await expect(sendWhen('recorded', send('msg-2', failedLater).fn, early)).resolves.toEqual({
    threadId: 'thread-a',
    messageId: 'msg-2',
  });
});

test('`recorded` to a thread that never names the message answers once routed', async () => {
  await expect(sendWhen('recorded', send(undefined, Promise.resolve(routed)).fn, early)).resolves.toEqual(routed);
});
