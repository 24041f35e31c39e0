/**
 * Errors of the HTTP API: every failure leaves as `{ error: { code, message, field? } }` with a
 * status chosen from a stable code — client-library codes (INVALID_* → 400, NOT_FOUND → 404,
 * NOT_OPEN / CONFLICT → 409) plus the edge's own (401, 413, 415, 421, 429, 500). A rejected answer's
 * code and field are the ones the workflow's validator put in its failure. Tests match the code.
 */
import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ZodError } from 'zod';
import { firstIssuePath, issueLines } from '../../workflows/base/issue-lines';
import { ClientError, type ClientErrorCode } from '../client-error';
import type { ErrorCode } from '../../workflows/base/error-codes';
import type { Log } from '../redacted-log';

/** Every error code the API answers with: the client library's and the edge's own (all in error-codes.ts). */
export type ApiErrorCode =
  | ClientErrorCode
  | Extract<
      ErrorCode,
      | 'UNAUTHORIZED'
      | 'FORBIDDEN'
      | 'BY_MISMATCH'
      | 'PAYLOAD_TOO_LARGE'
      | 'UNSUPPORTED_MEDIA_TYPE'
      | 'HOST_NOT_ALLOWED'
      | 'PAYLOAD_UNDECODABLE'
      | 'DECODE_TOO_LARGE'
      | 'TOO_MANY_STREAMS'
      | 'SEND_RATE_LIMITED'
      | 'PATH_REFUSED'
      | 'UPLOAD_TOO_LARGE'
      | 'UPLOAD_TYPE_REFUSED'
      | 'UPLOAD_NAME_TOO_LONG'
      | 'INTERNAL'
    >;

/** The error body's inner object. */
export interface ApiErrorDetail {
  code: ApiErrorCode;
  message: string;
  field?: string;
}

const STATUS: Record<ApiErrorCode, ContentfulStatusCode> = {
  INVALID_INPUT: 400,
  INVALID_ANSWER: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  BY_MISMATCH: 400,
  NOT_FOUND: 404,
  NOT_OPEN: 409,
  SAME_APPROVER: 409,
  ROLE_REQUIRED: 403,
  CONFLICT: 409,
  AGENT_FINISHED: 409,
  THREAD_CLOSED: 409,
  THREAD_DEFINITION: 409,
  QUEUE_FULL: 409,
  AGENT_UNAVAILABLE: 503,
  // The model behind Cairn failed a thread's message for good (the turn is recorded failed).
  LLM_RATE_LIMITED: 502,
  LLM_UNAVAILABLE: 502,
  LLM_TIMEOUT: 502,
  LLM_AUTH: 502,
  LLM_REJECTED: 502,
  LLM_CONTEXT_EXCEEDED: 502,
  LLM_BAD_RESPONSE: 502,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  HOST_NOT_ALLOWED: 421,
  PAYLOAD_UNDECODABLE: 422,
  DECODE_TOO_LARGE: 413,
  TOO_MANY_STREAMS: 429,
  SEND_RATE_LIMITED: 429,
  PATH_REFUSED: 400,
  UPLOAD_TOO_LARGE: 413,
  UPLOAD_TYPE_REFUSED: 415,
  UPLOAD_NAME_TOO_LONG: 400,
  INTERNAL: 500,
};

/** A coded refusal a route handler throws (its typed responses leave no room for sendError's). */
export class ApiFailure extends Error {
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'ApiFailure';
  }
}

/** Answers with the error body and the status that belongs to `code`. */
export function sendError(c: Context, code: ApiErrorCode, message: string, field?: string): Response {
  const error: ApiErrorDetail = { code, message, ...(field ? { field } : {}) };
  return c.json({ error }, STATUS[code]);
}

/**
 * The validation hook for every route: a zod failure of a body, path, query or header becomes
 * 400 INVALID_INPUT naming the first bad field, with every issue as `path: message`.
 */
export function validationHook(result: { success: true } | { success: false; error: ZodError }, c: Context) {
  if (result.success) return undefined;
  const field = firstIssuePath(result.error) || undefined;
  const message = issueLines(result.error, '(body)').join('; ');
  return sendError(c, 'INVALID_INPUT', message, field);
}

/** Unknown routes. */
export const handleNotFound: NotFoundHandler = (c) =>
  sendError(c, 'NOT_FOUND', `no route ${c.req.method} ${c.req.path}`);

/**
 * Thrown errors: coded client errors keep their code; hono's own become their status's code.
 * Anything else is a 500, logged through the redacting log — with the request's own bearer token
 * and cookie values redacted too, should the error repeat them — and never sent to the client.
 */
export function errorHandler(log: Log): ErrorHandler {
  return (err, c) => {
    if (err instanceof ClientError || err instanceof ApiFailure) return sendError(c, err.code, err.message, err.field);
    // The body validator's media-type gate says only "Unsupported Media Type": say what is expected.
    if (err instanceof HTTPException && err.status === 415)
      return sendError(c, 'UNSUPPORTED_MEDIA_TYPE', 'expected a JSON body with "Content-Type: application/json"');
    if (err instanceof HTTPException) return sendError(c, codeOfStatus(err.status), err.message);
    log.error(`HTTP API error (${c.req.method} ${c.req.path})`, err, requestSecrets(c));
    return sendError(c, 'INTERNAL', 'internal error');
  };
}

/** The credentials a request carries: its Authorization value (and the token in it) and its cookie values. */
export function requestSecrets(c: Context): string[] {
  const authorization = c.req.header('authorization');
  const token = authorization?.replace(/^\S+\s+/, '');
  const cookies = (c.req.header('cookie') ?? '').split(';').map((pair) => pair.slice(pair.indexOf('=') + 1).trim());
  return [authorization, token, ...cookies].filter((s): s is string => s !== undefined && s.length > 0);
}

function codeOfStatus(status: number): ApiErrorCode {
  if (status === 400) return 'INVALID_INPUT';
  if (status === 401) return 'UNAUTHORIZED';
  if (status === 404) return 'NOT_FOUND';
  if (status === 413) return 'PAYLOAD_TOO_LARGE';
  return 'INTERNAL';
}
