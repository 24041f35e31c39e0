/**
 * The one error the payload codecs throw: a payload that cannot be decoded (unknown key id,
 * wrong key, tampered or truncated bytes), or payloads that inflate past the decode budget. Its
 * message says which and never holds payload bytes or key material. A worker that meets one
 * fails the workflow task with this message (Temporal retries the task), it does not exit; the
 * codec server answers with its code.
 */
export class PayloadCodecError extends Error {
  /**
   * @param code the error code the HTTP API answers with (workflows/base/error-codes.ts):
   *   `PAYLOAD_UNDECODABLE` (422), or `DECODE_TOO_LARGE` (413) past the inflation budget.
   */
  constructor(
    message: string,
    readonly code: 'PAYLOAD_UNDECODABLE' | 'DECODE_TOO_LARGE' = 'PAYLOAD_UNDECODABLE',
  ) {
    super(message);
    this.name = 'PayloadCodecError';
  }
}
