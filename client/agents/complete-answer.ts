/**
 * What a script, a command line or an HTTP caller may leave out of an answer: a `tool.approval`
 * answer without `digest` gets that very interaction's digest. Each approval interaction asks
 * about one call, so its id already names the arguments; the answer still binds to them (other
 * arguments open another interaction with another digest, which this never fills in for).
 */
import type { Interaction } from '../../workflows/model/interactions/interaction-types';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `answer` with the interaction's digest filled in when it is an approval's and has none. */
export function completeAnswer(interaction: Interaction, answer: unknown): unknown {
  if (interaction.kind === 'tool.approval' && isRecord(answer) && answer.digest === undefined) {
    return { ...answer, digest: interaction.digest };
  }
  return answer;
}

/** Whether `answer` could be an approval's without its digest: worth reading the state for. */
export function mayLackDigest(answer: unknown): boolean {
  return (
    isRecord(answer) && answer.digest === undefined && (answer.decision === 'approve' || answer.decision === 'reject')
  );
}
