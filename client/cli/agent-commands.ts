/**
 * `cairn ls`, `show`, `watch`, `answer`, `cancel`, `pause` and `resume`: thin commands over the client library.
 * Each resolves with its exit code (see cli-exit.ts).
 */
import { loadConfigOrExit } from '../../config/load-config-or-exit';
import type { AgentPhase } from '../../workflows/agent/agent-state';
import { AGENT_PHASES, isTerminalPhase } from '../../workflows/state/agent-phases';
import { AgentClient } from '../agent-client';
import { ClientError } from '../client-error';
import { completeAnswer } from './answer-source';
import { answerOverHttp, cliApi } from './http-answer';
import { EXIT, UsageError, exitCodeOf, parseJsonArgument } from './cli-exit';
import { formatAgentList, formatEvent, formatState } from './render';

/** The phases `--phase` accepts. */
export const PHASES: readonly AgentPhase[] = AGENT_PHASES;

/** Runs `body` with a connected client, closing it afterwards. */
async function withClient<T>(body: (client: AgentClient) => Promise<T>): Promise<T> {
  const client = await AgentClient.connect(loadConfigOrExit());
  try {
    return await body(client);
  } finally {
    await client.close();
  }
}

/** `cairn ls`: agents, newest first, by phase and/or waiting for input. */
export function listCommand(options: { phase?: string; waiting?: boolean; json?: boolean }): Promise<number> {
  const phase = options.phase;
  if (phase !== undefined && !PHASES.some((p) => p === phase)) {
    throw new UsageError(`--phase must be one of ${PHASES.join(', ')}; got "${phase}"`);
  }
  return withClient(async (client) => {
    const agents = await client.list({
      ...(phase !== undefined ? { phase: phase as AgentPhase } : {}),
      ...(options.waiting ? { awaitingInput: true } : {}),
    });
    console.log(options.json ? JSON.stringify(agents, null, 2) : formatAgentList(agents));
    return EXIT.ok;
  });
}

/** `cairn show <id>`: the agent's state. */
export function showCommand(id: string, options: { json?: boolean }): Promise<number> {
  return withClient(async (client) => {
    const state = await client.state(id);
    const version = await client.version(id);
    const on = version ? `version: ${version.buildId} (deployment ${version.deploymentName}, ${version.behavior})` : '';
    console.log(
      options.json
        ? JSON.stringify({ id, ...state, ...(version ? { version } : {}) }, null, 2)
        : [formatState(id, state), ...(on ? [on] : [])].join('\n'),
    );
    return EXIT.ok;
  });
}

/** `cairn watch <id>`: timeline events until the agent ends; exits like `run` by how it ended. */
export function watchCommand(id: string, options: { json?: boolean }): Promise<number> {
  return withClient(async (client) => {
    for await (const event of client.watch(id)) {
      console.log(options.json ? JSON.stringify(event) : formatEvent(event));
    }
    const { phase } = await client.state(id, Number.MAX_SAFE_INTEGER);
    return isTerminalPhase(phase) ? exitCodeOf(phase) : EXIT.ok;
  });
}

/**
 * `cairn answer <id> <interactionId> '<json>'`: by update (the verdict at once) or, with
 * `--signal`, fire-and-forget. A `tool.approval` answer without `digest` gets the open one's.
 */
export function answerCommand(
  id: string,
  interactionId: string,
  json: string,
  options: { by?: string; signal?: boolean },
): Promise<number> {
  const raw = parseJsonArgument('the answer', json);
  const api = cliApi();
  if (api) return answerOverHttp(api, id, interactionId, raw, options.by);
  return withClient(async (client) => {
    const interaction = (await client.state(id, Number.MAX_SAFE_INTEGER)).interactions.find(
      (i) => i.id === interactionId,
    );
    const answer = interaction ? completeAnswer(interaction, raw) : raw;
    const input = { interactionId, answer, ...(options.by ? { by: options.by } : {}) };
    try {
      await client.answer(id, input, options.signal ? 'signal' : 'update');
    } catch (err) {
      const line = err instanceof ClientError ? refusalLine(interactionId, err) : undefined;
      if (line === undefined) throw err;
      console.error(line);
      return EXIT.failed;
    }
    console.log(options.signal ? `answer to ${interactionId} sent` : `answer to ${interactionId} accepted`);
    return EXIT.ok;
  });
}

/** What `cairn answer` prints for a refused answer, by its code; `undefined` for other errors. */
function refusalLine(interactionId: string, err: ClientError): string | undefined {
  if (err.code === 'NOT_OPEN') return `${interactionId} is not open: ${err.message}`;
  if (err.code !== 'INVALID_ANSWER') return undefined;
  return `answer to ${interactionId} rejected${err.field ? ` (${err.field})` : ''}: ${err.message}`;
}

/** `cairn cancel <id>`: requests cancellation; running steps stop, finished work is kept. */
export function cancelCommand(id: string): Promise<number> {
  return withClient(async (client) => {
    await client.cancel(id);
    console.log(`cancellation of ${id} requested`);
    return EXIT.ok;
  });
}

/**
 * `cairn pause <id>` / `cairn resume <id>`: no new model or tool call starts in the agent's tree
 * until resumed; open questions stay answerable. An agent that has ended is refused (exit 1).
 */
export function holdCommand(action: 'pause' | 'resume', id: string, options: { by?: string; reason?: string }) {
  return withClient(async (client) => {
    const request = {
      ...(options.by !== undefined ? { by: options.by } : {}),
      ...(options.reason !== undefined ? { reason: options.reason } : {}),
    };
    await client[action](id, request);
    console.log(`${action} of ${id} requested`);
    return EXIT.ok;
  });
}
