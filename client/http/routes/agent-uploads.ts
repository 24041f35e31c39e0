/**
 * `POST /api/agents` as `multipart/form-data` (docs/contracts.md#uploads): the part `input` is
 * the agent input, as the JSON body would be; every part with a file name is a file for the
 * agent, stored as `inputs/<name>` in its folder and added to the input's `files`. The request's
 * size is held to its own limit before this runs (create-app.ts); here the count, each file's
 * size and type are checked, and nothing is stored unless the whole request is accepted and the
 * agent starts.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { randomUUID } from 'node:crypto';
import type { UploadLimits } from '../../../config/upload-config';
import { issueLines, firstIssuePath } from '../../../workflows/issue-lines';
import { agentWorkflowId } from '../../workflow-id';
import { checkUploads, inputPaths, storeThenStart, UploadRefusal, type SentFile } from '../../uploads/agent-uploads';
import type { AgentsPort } from '../agents-port';
import { ApiFailure } from '../errors';
import { AgentInputBody } from '../schemas';
import { startInput } from './start-input';
import { refuseForeignFields } from './start-fields';

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

/** Registers the multipart start; JSON starts go on to the route in agents.ts. */
export function registerUploadStart(app: OpenAPIHono, agents: AgentsPort, uploads: UploadSettings | undefined): void {
  app.on('POST', UPLOAD_PATH, async (c, next) => {
    const type = c.req.header('content-type');
    // The route documents a form body, which lets URL-encoded forms past its media-type gate: not one this takes.
    if ((type ?? '').trim().toLowerCase().startsWith('application/x-www-form-urlencoded'))
      throw new ApiFailure('UNSUPPORTED_MEDIA_TYPE', 'expected a JSON body, or multipart/form-data with files');
    if (!isMultipart(type)) return next();
    if (!uploads)
      throw new ApiFailure('UNSUPPORTED_MEDIA_TYPE', 'this server takes no uploads: send the input as JSON');
    const { sent, files } = await formParts(c);
    refuseForeignFields(sent);
    const checked = checkedFiles(files, uploads.limits);
    const parsed = AgentInputBody.safeParse(sent);
    if (!parsed.success) {
      const field = firstIssuePath(parsed.error) || undefined;
      throw new ApiFailure('INVALID_INPUT', issueLines(parsed.error, '(input)').join('; '), field);
    }
    const paths = inputPaths(checked);
    const withFiles = paths.length ? { ...parsed.data, files: [...(parsed.data.files ?? []), ...paths] } : parsed.data;
    const input = startInput(c, withFiles, sent);
    // The id is picked here: the files go to the agent's folder before it starts.
    const workflowId = agents.newAgentId?.(parsed.data.task) ?? agentWorkflowId('', randomUUID());
    const id = await storeThenStart(uploads.root, workflowId, checked, () => agents.start(input, { workflowId }));
    return c.json({ id, files: paths }, 201);
  });
}
