/**
 * `POST /api/agents` as `multipart/form-data` (docs/contracts.md#uploads): the part `input` is
 * the agent input, as the JSON body would be; every part with a file name is a file for the
 * agent, stored as `inputs/<name>` in its folder and added to the input's `files`. The request's
 * size is held to its own limit before this runs (create-app.ts); here the count, each file's
 * size and type are checked, and nothing is stored unless the whole request is accepted and the
 * agent starts.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import { randomUUID } from 'node:crypto';
import { issueLines, firstIssuePath } from '../../../workflows/base/issue-lines';
import { agentWorkflowId } from '../../workflow-id';
import { inputPaths, storeThenStart } from '../store-uploads';
import type { AgentsPort } from '../../agents/agents-port';
import { ApiFailure } from '../../http/errors';
import { AgentInputBody } from '../../http/schemas';
import { checkedFiles, formParts, isMultipart, UPLOAD_PATH, type UploadSettings } from '../upload-form';
import { startInput } from '../../agents/start-input';
import { refuseForeignFields } from '../../agents/start-fields';

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
