/**
 * Thread messages per principal per minute (docs/contracts.md#http-api, SENDS_PER_MINUTE): the
 * 31st send within a minute is refused 429 SEND_RATE_LIMITED before it reaches a thread; another
 * principal is counted apart, and a minute later the sender may send again. On the app over a
 * threads port that answers at once, with the limiter's clock moved by the test.
 */
import type { AgentsPort } from '../../client/agents/agents-port';
import { SessionStore } from '../../client/http/auth/sessions';
import { sha256Hex, TokenTable } from '../../client/http/auth/token-table';
import { createApp } from '../../client/http/create-app';
import type { ThreadsPort } from '../../client/threads/threads-port';
import { SENDS_PER_MINUTE, SendRateLimiter } from '../../client/http/send-rate-limiter';
import { unusedThreads } from '../harness/config-errors';

const agents = { state: () => Promise.reject(new Error('no agent in these tests')) } as unknown as AgentsPort;

function app(now: () => number) {
  let sent = 0;
  const threads: ThreadsPort = {
    ...unusedThreads('only send is called'),
    send: () => Promise.resolve({ messageId: `msg-${++sent}`, disposition: 'queued' }),
  };
  const tokens = new TokenTable(
    ['ann', 'bo'].map((principal) => ({
      principal,
      roles: ['operator'],
      tokenSha256: sha256Hex(`${principal}-token`),
    })),
  );
  const built = createApp({
    version: 'test',
    temporalHealthy: () => Promise.resolve(true),
    agents,
    threads,
    auth: { mode: 'tokens', tokens, sessions: new SessionStore() },
    sendRate: new SendRateLimiter(SENDS_PER_MINUTE, now),
  });
  return (who: string) =>
    built.request('/api/threads/thread-x-00000000/messages', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${who}-token` },
      body: JSON.stringify({ text: 'hi', kind: 'chat' }),
    });
}

test('the limit as docs/contracts.md#http-api states it', () => {
  expect(SENDS_PER_MINUTE).toBe(30);
});

test('the 31st send of one principal within a minute is 429 SEND_RATE_LIMITED; another principal is counted apart; a minute on it is taken again', async () => {
  let now = 1_000_000;
  const send = app(() => now);
  for (let i = 0; i < 30; i++) {
    now += 1_000;
    expect((await send('ann')).status).toBe(202);
  }
  const refused = await send('ann');
  expect(refused.status).toBe(429);
  expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('SEND_RATE_LIMITED');
  // The oldest of the 30 leaves the window 31 s from now.
  expect(refused.headers.get('retry-after')).toBe('31');
  expect((await send('bo')).status).toBe(202);
  now += 31_000;
  expect((await send('ann')).status).toBe(202);
  expect((await send('ann')).status).toBe(429);
});
