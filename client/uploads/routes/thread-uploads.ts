/**
 * `POST /api/threads` and `POST /api/threads/:id/messages` as `multipart/form-data`
 * (docs/contracts.md#uploads), as an agent's start takes it (agent-uploads.ts): the part `input`
 * is the message, every part with a file name a file stored as `inputs/<name>` in the thread's
 * folder — which all its turns share (config/agent-workspace.ts) — and added to the message's
 * `files`, so the turn that runs it is given them. Same limits and codes; a name already in the
 * thread's `inputs/` gets a suffix, never replacing an earlier message's file. Nothing stays
 * stored unless the message is taken.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { z } from 'zod';
import { firstIssuePath, issueLines } from '../../../workflows/base/issue-lines';
import { existingInputs, inputPaths, storeThenStart } from '../store-uploads';
import { ApiFailure } from '../../http/errors';
import { boundOf, fromSender, MessageBody, OpenBody, openerOf, sendWhen, waitOf } from '../../threads/thread-requests';
import type { ThreadsPort } from '../../threads/threads-port';
import { checkedFiles, formParts, isMultipart, type UploadSettings } from '../upload-form';

/** The form's message, checked as the JSON body would be, and its files checked against the limits and `existing`. */
async function messageForm<T extends { files?: string[] | undefined; by?: string | undefined }>(
  c: Context,
  schema: z.ZodType<T>,
  uploads: UploadSettings,
  threadId: string | undefined,
) {
  const { sent, files } = await formParts(c);
  const parsed = schema.safeParse(sent);
  if (!parsed.success) {
    const field = firstIssuePath(parsed.error) || undefined;
    throw new ApiFailure('INVALID_INPUT', issueLines(parsed.error, '(input)').join('; '), field);
  }
  const existing = threadId === undefined ? [] : await existingInputs(uploads.root, threadId);
  const checked = checkedFiles(files, uploads.limits, existing);
  const paths = inputPaths(checked);
  const body: T = paths.length ? { ...parsed.data, files: [...(parsed.data.files ?? []), ...paths] } : parsed.data;
  return { body: fromSender(c, body), checked, paths };
}

/** Registers the multipart forms of the two thread routes; JSON bodies go on to threads.ts. */
export function registerThreadUploads(
  app: OpenAPIHono,
  threads: ThreadsPort,
  uploads: UploadSettings | undefined,
): void {
  app.on('POST', '/api/threads', async (c, next) => {
    if (!isMultipart(c.req.header('content-type'))) return next();
    if (!uploads)
      throw new ApiFailure('UNSUPPORTED_MEDIA_TYPE', 'this server takes no uploads: send the message as JSON');
    const wait = waitOf(c);
    const { body, checked, paths } = await messageForm(c, OpenBody, uploads, undefined);
    if (checked.length > 0 && body.text === undefined)
      throw new ApiFailure('INVALID_INPUT', 'files come with a message: the "input" part needs its text', 'text');
    // The id is picked here: the files go to the thread's folder before its first message is sent.
    const workflowId = threads.newId(body.text);
    const opened = await storeThenStart(uploads.root, workflowId, checked, () =>
      sendWhen(
        wait,
        (hooks) => threads.open(body, { settings: openerOf(body), workflowId, ...boundOf(body), ...hooks }),
        (id, messageId) => ({ id, messageId }),
      ),
    );
    return c.json({ ...opened, ...(paths.length ? { files: paths } : {}) }, 201);
  });
  app.on('POST', '/api/threads/:id/messages', async (c, next) => {
    if (!isMultipart(c.req.header('content-type'))) return next();
    if (!uploads)
      throw new ApiFailure('UNSUPPORTED_MEDIA_TYPE', 'this server takes no uploads: send the message as JSON');
    const id = c.req.param('id');
    const wait = waitOf(c);
    const { body, checked, paths } = await messageForm(c, MessageBody, uploads, id);
    // A message the thread does not take (closed, no such thread, a bad body) leaves no file behind.
    const routed = await storeThenStart(uploads.root, id, checked, () =>
      sendWhen(
        wait,
        (hooks) => threads.send(id, body, hooks),
        (_, messageId) => ({ messageId }),
      ),
    );
    return c.json({ ...routed, ...(paths.length ? { files: paths } : {}) }, 202);
  });
}
