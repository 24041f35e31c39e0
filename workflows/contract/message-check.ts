/**
 * What a thread's message must hold beyond its shape, checked the same way by the `send`
 * update's validator (thread/thread-check.ts) and by the client library before it starts or
 * sends anything: its mode and limits as an agent reads them (they apply when it runs as a
 * task), and no files on a chat or steered message (only a task turn's agent reads files; a
 * steer hands the running steps text). Pure: safe in
 * workflow and client code.
 */
import { parseAgentInput } from '../model/agent/agent-input';
import type { SendInput } from '../model/thread/thread-schemas';

/** Why a well-formed message is refused (INVALID_INPUT), naming the field when there is one; undefined when it is fine. */
export function messageProblem(sent: SendInput): { message: string; field?: string } | undefined {
  const { text, mode, limits, files, kind, policy } = sent;
  const agent = parseAgentInput({ task: text, ...(mode ? { mode } : {}), ...(limits ? { limits } : {}) });
  if (!agent.ok) return { message: agent.errors.join('; ') };
  if (files?.length && kind === 'chat')
    return {
      message: 'a message with files runs as a task (a chat reply cannot read them): leave out kind or send "task"',
      field: 'kind',
    };
  if (files?.length && policy === 'steer')
    return {
      message:
        'a steered message reaches the running steps as text only (its files would be lost): send it with "queue"',
      field: 'policy',
    };
  return undefined;
}
