/**
 * How long a non-streamed front-door answer may take: a little less than the timeout the
 * client announces (Node's and Python's SDK headers), else than the SDKs' 10-minute default.
 */
import { answerWithinMs } from '../../client/http/chat/client-timeout';

test.each([
  [{ 'x-stainless-timeout': '5' }, 4_500],
  [{ 'x-stainless-read-timeout': '600.0' }, 590_000],
  [{ 'x-stainless-timeout': '30', 'x-stainless-read-timeout': '5' }, 27_000],
  [{ 'x-stainless-timeout': '0.5' }, 1_000],
  [{}, 590_000],
  [{ 'x-stainless-timeout': 'soon' }, 590_000],
  [{ 'x-stainless-timeout': '-3', 'x-stainless-read-timeout': '20' }, 18_000],
])('headers %j: the answer goes within %d ms', (headers, ms) => {
  expect(answerWithinMs(new Headers(headers))).toBe(ms);
});
