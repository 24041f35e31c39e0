/**
 * `cairn answer` through Cairn's HTTP API (CAIRN_API_URL set): the token's principal answers,
 * and the audit record names it with method `cli`. Straight to Temporal, an answer is recorded
 * as `temporal-signal`.
 */
import type { AgentState } from '../../../workflows/model/agent/agent-state';
import { resolveAnswer, type AnswerArgument } from './answer-shorthand';
import { ApiRefusal, CairnApi, type ApiTarget } from '../../cli/cairn-api';
import { EXIT } from '../../cli/cli-exit';
import { cliLog } from '../../cli/cli-log';
import { ClientError } from '../../client-error';
import { printLine } from '../../cli/terminal';

/** Answers `interactionId` of agent `id` over HTTP; prints the verdict and returns the exit code. */
export async function answerOverHttp(
  target: ApiTarget,
  id: string,
  interactionId: string,
  argument: AnswerArgument,
  by?: string,
): Promise<number> {
  const api = new CairnApi(target);
  let state: AgentState;
  try {
    state = await api.state(id);
  } catch (err) {
    if (!(err instanceof ApiRefusal)) throw err;
    cliLog().error(`cannot read ${id}: ${err.message}`);
    return EXIT.failed;
  }
  const interaction = state.interactions.find((i) => i.id === interactionId);
  const answer = resolveAnswer(argument, interaction, interactionId);
  try {
    await api.answer(id, { interactionId, answer, ...(by ? { by } : {}) });
  } catch (err) {
    const line = refusalLine(err);
    if (line === undefined) throw err;
    cliLog().error(`answer to ${interactionId} refused: ${line}`);
    return EXIT.failed;
  }
  printLine(`answer to ${interactionId} accepted`);
  return EXIT.ok;
}

/** The status and code of a refused answer, as the server gave them (a rejection comes as ClientError around it). */
function refusalLine(err: unknown): string | undefined {
  const refusal = err instanceof ClientError ? err.cause : err;
  return refusal instanceof ApiRefusal ? refusal.message : undefined;
}
