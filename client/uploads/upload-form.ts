/**
 * What the multipart routes share (docs/contracts.md#uploads): where uploads go, which requests
 * are uploads (held to their own size limit in create-app.ts), reading a form's `input` part and
 * files, and checking the files against the limits as coded ApiFailures. The routes are an agent's
 * start and a thread's opening and message; a module of its own, so no route imports another.
 */
import type { Context } from 'hono';
import type { UploadLimits } from '../../config/upload-config';
import { checkUploads, UploadRefusal, type SentFile } from './store-uploads';
import { ApiFailure } from '../http/errors';

/** Where uploads go and what a request may carry. */
export interface UploadSettings {
  /** The workspace root (CAIRN_WORKSPACE); each agent's files go to its folder under it. */
  root: string;
  limits: UploadLimits;
}

/** The route multipart starts arrive on. */
export const UPLOAD_PATH = '/api/agents';

/** Whether `contentType` is a multipart form. */
export const isMultipart = (contentType: string | undefined): boolean =>
  (contentType ?? '').trim().toLowerCase().startsWith('multipart/form-data');

/** The routes that take files: an agent's start, a thread's opening and a thread's message. */
const UPLOAD_ROUTES = [/^\/api\/agents$/, /^\/api\/threads$/, /^\/api\/threads\/[^/]+\/messages$/];

/** Whether the request is a multipart upload (the one request held to the upload limit, not the JSON one). */
export const isUploadRequest = (c: Context): boolean =>
  c.req.method === 'POST' &&
  UPLOAD_ROUTES.some((route) => route.test(c.req.path)) &&
  isMultipart(c.req.header('content-type'));

/**
 * The form's `input` part (parsed JSON: an agent input, or a thread's message) and files; any
 * other part is refused.
 */
export async function formParts(c: Context): Promise<{ sent: unknown; files: SentFile[] }> {
  let form: FormData;
  try {
    form = await c.req.formData();
  } catch {
    throw new ApiFailure('INVALID_INPUT', 'the multipart body cannot be read as a form');
  }
  let text: string | undefined;
  const files: SentFile[] = [];
  for (const [name, value] of form.entries()) {
    if (name === 'input') {
      if (text !== undefined)
        throw new ApiFailure('INVALID_INPUT', 'the form holds more than one "input" part', 'input');
      text = typeof value === 'string' ? value : await value.text();
    } else if (typeof value !== 'string') {
      // A browser sends an empty file input as a nameless, empty file: nothing was chosen.
      if (value.name === '' && value.size === 0) continue;
      files.push({ name: value.name, size: value.size, content: value });
    } else {
      const why = `unexpected form field ${JSON.stringify(name)}: send the agent input as the "input" part and files as parts with a file name`;
      throw new ApiFailure('INVALID_INPUT', why, name);
    }
  }
  if (text === undefined)
    throw new ApiFailure('INVALID_INPUT', 'the form has no "input" part (the agent input as JSON)', 'input');
  try {
    return { sent: JSON.parse(text) as unknown, files };
  } catch {
    throw new ApiFailure('INVALID_INPUT', 'the "input" part is not JSON', 'input');
  }
}

/** The files checked against the limits (names unique against `existing`); a refusal as its coded ApiFailure. */
export function checkedFiles(files: readonly SentFile[], limits: UploadLimits, existing?: readonly string[]) {
  try {
    return checkUploads(files, limits, existing);
  } catch (err) {
    if (err instanceof UploadRefusal) throw new ApiFailure(err.code, err.message, err.field);
    throw err;
  }
}
