/**
 * gRPC interceptors for every Temporal client connection Cairn opens: the SDK's default retry,
 * and below it a guard for retries that fire after the connection was closed.
 *
 * The SDK retries a failed call (UNAVAILABLE, RESOURCE_EXHAUSTED, …) from a timer. When the
 * connection is closed while such a timer is pending — a CLI exiting, an HTTP server shutting
 * down, a test tearing down — the retry asks the closed channel for a new call, and grpc-js
 * throws "Channel has been shut down" from inside the timer: an uncaught exception that kills
 * the process. The guard turns that throw into a CANCELLED status on the call, so the caller
 * still waiting on it gets an ordinary rejection and nothing is thrown from a timer.
 */
import { InterceptingCall, Metadata, status, type Interceptor, type InterceptingListener } from '@grpc/grpc-js';
import {
  Connection,
  defaultGrpcRetryOptions,
  makeGrpcRetryInterceptor,
  type ConnectionOptions,
} from '@temporalio/client';

/** The details of the status a call gets when its connection was closed before it could start. */
export const CONNECTION_CLOSED_DETAILS = 'the Temporal connection was closed before this call could start';

/** The interface of the call an InterceptingCall wraps (grpc-js does not export its name). */
type NextCallInterface = NonNullable<ConstructorParameters<typeof InterceptingCall>[0]>;

/** A call that never reaches the network: it ends at once with CANCELLED, naming why. */
function closedCall(reason: unknown): InterceptingCall {
  const details = `${CONNECTION_CLOSED_DETAILS} (${reason instanceof Error ? reason.message : String(reason)})`;
  const ended: NextCallInterface = {
    cancelWithStatus() {},
    getPeer: () => '',
    start(_metadata: Metadata, listener?: Partial<InterceptingListener>) {
      listener?.onReceiveStatus?.({ code: status.CANCELLED, details, metadata: new Metadata() });
    },
    sendMessageWithContext() {},
    sendMessage() {},
    startRead() {},
    halfClose() {},
    getAuthContext: () => null,
  };
  return new InterceptingCall(ended);
}

/** Creating a call on a closed channel ends that call with CANCELLED instead of throwing. */
export const closedConnectionGuard: Interceptor = (options, nextCall) => {
  try {
    return new InterceptingCall(nextCall(options));
  } catch (error) {
    return closedCall(error);
  }
};

/** The interceptors for `Connection.connect`: the SDK's default retry, then the guard. */
export function clientGrpcInterceptors(): Interceptor[] {
  return [makeGrpcRetryInterceptor(defaultGrpcRetryOptions()), closedConnectionGuard];
}

/** `Connection.connect` with Cairn's client interceptors: every client connection opens here. */
export function connectTemporal(options: ConnectionOptions): Promise<Connection> {
  return Connection.connect({ ...options, interceptors: clientGrpcInterceptors() });
}
