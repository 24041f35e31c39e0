/**
 * `cairn transcript <agent id> <step id>`: what a step's model said each round — its text, a
 * reasoning summary, each tool call with its arguments, outcome and (cut) result — oldest first;
 * `--json` for scripts. Model and tool text leaves through the terminal boundary like all output.
 */
import { TRANSCRIPT_MAX_BYTES, type StepTranscript } from '../../../workflows/contract/step-transcript';
import { withAgents } from './agent-commands';
import { EXIT } from '../../cli/cli-exit';
import { printLine } from '../../cli/terminal';

/** Indents every line of `text` by `by`. */
const indent = (text: string, by: string): string =>
  text
    .split('\n')
    .map((line) => `${by}${line}`)
    .join('\n');

/** A transcript as readable lines: a header per round, the text, the reasoning, then each call. */
export function formatTranscript(agentId: string, transcript: StepTranscript): string {
  const lines = [`${agentId} · step ${transcript.stepId}`];
  if (transcript.droppedRounds) {
    const kib = TRANSCRIPT_MAX_BYTES / 1024;
    lines.push(`(${transcript.droppedRounds} earlier round(s) left out: a transcript keeps at most ${kib} KiB)`);
  }
  if (transcript.rounds.length === 0) lines.push('(no round yet)');
  for (const round of transcript.rounds) {
    lines.push('', `round ${round.round}`);
    if (round.reasoning !== undefined) lines.push('  reasoning:', indent(round.reasoning, '    '));
    if (round.text !== undefined) lines.push('  said:', indent(round.text, '    '));
    for (const call of round.toolCalls) {
      lines.push(`  → ${call.name} ${call.arguments}  [${call.outcome}]`);
      if (call.result !== undefined) lines.push(indent(call.result, '      '));
    }
  }
  return lines.join('\n');
}

/** Prints step `stepId`'s transcript: from the HTTP API with CAIRN_API_URL (sending CAIRN_TOKEN), else from Temporal. */
export function transcriptCommand(id: string, stepId: string, options: { json?: boolean }): Promise<number> {
  return withAgents(async (agents) => {
    const transcript = await agents.transcript(id, stepId);
    printLine(options.json ? JSON.stringify(transcript, null, 2) : formatTranscript(id, transcript));
    return EXIT.ok;
  });
}
