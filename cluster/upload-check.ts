/**
 * Files on a cluster: a file uploaded through the web server (multipart `POST /api/agents`) is
 * stored in the agent's folder on the workspace the web server and both workers share, and a
 * step on a worker process reads it back with `read_file`. The step's model (the world's fake)
 * answers with what the tool returned, so the agent's answer holds the file's words only if the
 * worker found the file the web server wrote.
 */
import type { Client } from '@temporalio/client';
import { reply, type ReplyFunction } from '../testkit/fake-llm';
import type { Evidence } from '../chaos/verdict';
import { stepWorkflowId } from '../workflows/base/ids';

/** The task of the upload check's agent: how the fake tells its requests apart. */
export const UPLOAD_TASK = 'Cluster upload check: read the uploaded brief';
const FILE_NAME = 'brief.txt';

/** Answers the upload check's step (read the file, then finish with what it said); anything else falls through. */
export function withUploadCheck(fallback: ReplyFunction): ReplyFunction {
  return (request) => {
    const messages = request.body.messages;
    const ours = messages.some(
      (m) => m.role === 'user' && typeof m.content === 'string' && m.content.includes(UPLOAD_TASK),
    );
    if (!ours || request.headers['x-cairn-purpose'] !== 'step') return fallback(request);
    const read = messages.find((m) => m.role === 'tool');
    if (!read) return reply.toolCall('read_file', { path: `inputs/${FILE_NAME}` }, 'read-upload');
    const text = typeof read.content === 'string' ? read.content : JSON.stringify(read.content);
    return reply.toolCall('finish_step', { result: text }, 'finish-upload');
  };
}

/** What the check found: failures (broken promises), its evidence and notes. */
export interface UploadCheck {
  failures: string[];
  evidence: [Evidence];
  notes: string[];
}

/** Uploads a file through `webUrl`, waits for the agent, and checks a worker read it. */
export async function runUploadCheck(webUrl: string, client: Client): Promise<UploadCheck> {
  const words = `uploaded through the web server at ${new Date().toISOString()}`;
  const form = new FormData();
  form.append('input', JSON.stringify({ task: UPLOAD_TASK, mode: { plan: false }, tools: ['read_file'] }));
  form.append('file', new Blob([words], { type: 'text/plain' }), FILE_NAME);
  const response = await fetch(`${webUrl}/api/agents`, { method: 'POST', body: form });
  const body = (await response.json()) as { id?: string };
  if (response.status !== 201 || !body.id) {
    return {
      failures: [`the upload was refused: ${response.status} ${JSON.stringify(body)}`],
      evidence: [{ what: 'uploads read back by a step on a worker', found: 0, needed: 1 }],
      notes: [],
    };
  }
  const handle = client.workflow.getHandle(body.id);
  const result = (await handle.result()) as { status?: string; answer?: string };
  // The step's activities (read_file among them) are in the step workflow's history.
  const stepHistory = await client.workflow.getHandle(stepWorkflowId(body.id, 'task')).fetchHistory();
  const readers = (stepHistory.events ?? []).flatMap((e) => e.activityTaskStartedEventAttributes?.identity ?? []);
  const read = result.status === 'completed' && (result.answer ?? '').includes(words);
  return {
    failures: read ? [] : [`the step did not read the upload back: ${JSON.stringify(result).slice(0, 300)}`],
    evidence: [{ what: 'uploads read back by a step on a worker', found: read ? 1 : 0, needed: 1 }],
    notes: [
      `agent ${body.id}: stored by the web server, its activities ran on ${[...new Set(readers)].join(', ') || '?'}`,
    ],
  };
}
