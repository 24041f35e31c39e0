/**
 * Errors the client library raises, with stable codes the HTTP API maps to statuses
 * (INVALID_* → 400, NOT_FOUND → 404, NOT_OPEN / CONFLICT → 409) and the CLI to exit codes.
 */
export type ClientErrorCode = 'INVALID_INPUT' | 'INVALID_ANSWER' | 'NOT_FOUND' | 'NOT_OPEN' | 'CONFLICT';

export class ClientError extends Error {
  constructor(
    readonly code: ClientErrorCode,
    message: string,
    /** The offending field, when there is one. */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'ClientError';
  }
}
