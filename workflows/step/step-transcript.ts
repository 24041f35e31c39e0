/**
 * A step's transcript in workflow memory: a round is written when its model replies (its calls
 * pending) and each call settled as it finishes, so a step waiting for an approval already shows
 * the call and the text before it. Served by the `transcript` query — also by a closed step,
 * whose replay rebuilds it — and carried across continue-as-new. It sends no command and adds no
 * event: history per round stays as it was (docs/architecture/agent-path.md). The
 * step's latest line — the round, the model's last line of text, its calls and how they ended —
 * is the step workflow's current details, which the Temporal UI shows (no event either).
 */
import { setCurrentDetails, setHandler } from '@temporalio/workflow';
import { transcriptQuery, type TranscriptLog, type TranscriptRound } from '../contract/step-transcript';
import type { LlmToolCall } from '../model/llm/llm-types';
import { boundTranscript, cutRound, type SettledOutcome } from '../contract/transcript-bounds';

export class StepTranscript {
  private log: TranscriptLog;

  constructor(
    private readonly stepId: string,
    carried?: TranscriptLog,
  ) {
    this.log = carried ?? { rounds: [] };
  }

  /** Registers the `transcript` query; call once at workflow start. */
  serve(): this {
    setHandler(transcriptQuery, () => ({ stepId: this.stepId, ...this.log }));
    return this;
  }

  /** What the next run carries. */
  get carry(): TranscriptLog {
    return this.log;
  }

  /** Writes round `round` as its model replied: text, reasoning summary, the calls pending. */
  replied(round: number, text: string | null, reasoning: string | undefined, calls: LlmToolCall[]): void {
    const written = text?.trim();
    const entry: TranscriptRound = {
      round,
      ...(written ? { text: written } : {}),
      ...(reasoning?.trim() ? { reasoning: reasoning.trim() } : {}),
      toolCalls: calls.map((call) => ({
        callId: call.id,
        name: call.name,
        arguments: call.arguments,
        outcome: 'pending',
      })),
    };
    this.update([...this.log.rounds.filter((r) => r.round !== round), cutRound(entry)]);
  }

  /** Settles call `index` of round `round` with its outcome and what the model heard back. */
  settled(round: number, index: number, outcome: SettledOutcome, result: string): void {
    const rounds = this.log.rounds.map((r) => {
      if (r.round !== round) return r;
      const toolCalls = r.toolCalls.map((call, i) => (i === index ? { ...call, outcome, result } : call));
      return cutRound({ ...r, toolCalls });
    });
    this.update(rounds);
  }

  private update(rounds: TranscriptRound[]): void {
    this.log = boundTranscript({ ...this.log, rounds });
    const latest = this.log.rounds.at(-1);
    if (latest) setCurrentDetails(latestLine(latest));
  }
}

/** Characters of the model's last line shown in the current details. */
export const LATEST_LINE_CHARS = 200;

/**
 * A round as the step's current details (markdown): `**Round n**` and the model's last line of
 * text (cut), then one line per tool call with its outcome.
 */
export function latestLine(round: TranscriptRound): string {
  const lines = (round.text ?? '').split('\n').map((line) => line.trim());
  const last = lines.filter((line) => line.length > 0).at(-1);
  const said = last && last.length > LATEST_LINE_CHARS ? `${last.slice(0, LATEST_LINE_CHARS - 1)}…` : last;
  const calls = round.toolCalls.map((call) => `- \`${call.name}\` ${call.outcome}`);
  return [`**Round ${round.round}**${said ? ` — ${said}` : ''}`, ...calls].join('\n');
}
