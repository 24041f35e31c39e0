/**
 * The one error the payload codecs throw: a payload that cannot be decoded (unknown key id,
 * wrong key, tampered or truncated bytes). Its message says which and never holds payload bytes
 * or key material. A worker that meets one fails the workflow task with this message (Temporal
 * retries the task), it does not exit; the codec server answers PAYLOAD_UNDECODABLE.
 */
export class PayloadCodecError extends Error {
  /** The error code the HTTP API answers with (workflows/error-codes.ts). */
  readonly code = 'PAYLOAD_UNDECODABLE';
  constructor(message: string) {
    super(message);
    this.name = 'PayloadCodecError';
  }
}
