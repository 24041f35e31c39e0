/**
 * How long a non-streamed front-door answer may take: a little less than the timeout the
 * client announces (Node's and Python's SDK headers), else than the SDKs' 10-minute default.
 */
import { answerSignal, answerWithinMs, MAX_CLIENT_TIMEOUT_S } from '../../client/threads/chat/client-timeout';

test.each([
  [{ 'x-stainless-timeout': '5' }, 4_500],
  [{ 'x-stainless-read-timeout': '600.0' }, 590_000],
  [{ 'x-stainless-timeout': '30', 'x-stainless-read-timeout': '5' }, 27_000],
  [{ 'x-stainless-timeout': '0.5' }, 1_000],
  [{}, 590_000],
  [{ 'x-stainless-timeout': 'soon' }, 590_000],
  [{ 'x-stainless-timeout': '-3', 'x-stainless-read-timeout': '20' }, 18_000],
  // Whole milliseconds, and never longer than 15 minutes however long the client says it waits.
  [{ 'x-stainless-timeout': '1.2345' }, 1_111],
  [{ 'x-stainless-timeout': '900' }, 890_000],
  [{ 'x-stainless-timeout': '2160000' }, 890_000],
  // Not a finite number: as if none were announced.
  [{ 'x-stainless-read-timeout': '1e400' }, 590_000],
])('headers %j: the answer goes within %d ms', (headers, ms) => {
  expect(answerWithinMs(new Headers(headers))).toBe(ms);
});

test.each(['1.2345', '1e10', '2160000', 'Infinity'])(
  'a client timeout of %s s makes a deadline of whole milliseconds within 15 minutes, which AbortSignal takes',
  (seconds) => {
    const headers = new Headers({ 'x-stainless-timeout': seconds });
    const ms = answerWithinMs(headers);
    expect([Number.isInteger(ms), ms <= MAX_CLIENT_TIMEOUT_S * 1000]).toEqual([true, true]);
    expect(answerSignal(new Request('http://127.0.0.1/v1/chat/completions', { headers })).aborted).toBe(false);
  },
);
