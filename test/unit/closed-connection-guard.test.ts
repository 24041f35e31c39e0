/**
 * A retry that fires after its connection was closed must end the call, not throw from a timer.
 * A lazy connection to a loopback port nobody listens on makes every call fail with UNAVAILABLE,
 * which the SDK retries after ~100 ms; the connection is closed once the first attempt failed,
 * before that retry fires.
 */
import { InterceptingCall, status, type Interceptor, type StatusObject } from '@grpc/grpc-js';
import { Connection } from '@temporalio/client';
import { createServer } from 'node:net';
import { CONNECTION_CLOSED_DETAILS, clientGrpcInterceptors } from '../../temporal/connection';

/** A loopback port that was free a moment ago and has no listener now. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return address.port;
}

test('a call whose retry comes after close() rejects with CANCELLED instead of throwing from a timer', async () => {
  // Innermost, below the retry and the guard: sees each attempt's status as it comes back.
  let failed = () => undefined as void;
  const firstFailure = new Promise<void>((resolve) => (failed = resolve));
  const observer: Interceptor = (options, nextCall) =>
    new InterceptingCall(nextCall(options), {
      start(metadata, listener, next) {
        next(metadata, {
          onReceiveStatus(received: StatusObject, nextStatus: (s: StatusObject) => void) {
            if (received.code !== status.OK) failed();
            nextStatus(received);
          },
        });
      },
    });
  const connection = Connection.lazy({
    address: `127.0.0.1:${await closedPort()}`,
    interceptors: [...clientGrpcInterceptors(), observer],
  });
  const call = connection.workflowService.getSystemInfo({});
  const settled = call.then(
    () => ({ code: -1, details: 'answered' }),
    (error: { code: number; details: string }) => ({ code: error.code, details: error.details }),
  );
  // Causal: closed once the first attempt has failed, so the SDK's retry is waiting on its timer.
  await firstFailure;
  await connection.close();
  const outcome = await settled;
  expect(outcome.code).toBe(status.CANCELLED);
  expect(outcome.details).toContain(CONNECTION_CLOSED_DETAILS);
});
