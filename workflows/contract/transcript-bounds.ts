/**
 * The pure rules of a step's transcript (contract/step-transcript.ts): how long text, reasoning,
 * arguments and results may be in a round (cut in the middle, with a marker), how the whole stays
 * within its byte bound (oldest rounds dropped, counted), and the `why` of an approval (the end of
 * the model's text before the call). Deterministic and free of Node built-ins: workflow code.
 */
import {
  TRANSCRIPT_MAX_BYTES,
  type TranscriptLog,
  type TranscriptRound,
  type TranscriptToolCall,
} from './step-transcript';

/** How a call ended, as the transcript tells it. */
export type SettledOutcome = Exclude<TranscriptToolCall['outcome'], 'pending'>;

/** The longest a round's text is kept (its first and last halves). */
export const TEXT_CHARS = 8000;
/** The longest a reasoning summary is kept. */
export const REASONING_CHARS = 2000;
/** The longest a tool call's arguments or result are kept (first and last 1000, as conversations keep tool output). */
export const CALL_CHARS = 2000;
/** What a round that alone is over the bound keeps of each call's arguments and result. */
const SQUEEZED_CHARS = 200;

/** The longest `why` of an approval: the last this many characters of the model's text. */
export const WHY_CHARS = 1000;
/** Starts a `why` that was cut: the model wrote more before it. */
export const WHY_MARKER = '[…] ';

/** `text`, or its first and last halves of `max` characters around a marker saying how much was cut. */
export function cutMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = Math.ceil(max / 2);
  const tail = max - head;
  const cut = text.length - max;
  return `${text.slice(0, head)}\n[… ${cut} characters cut …]\n${tail > 0 ? text.slice(-tail) : ''}`;
}

/** The UTF-8 length of `text` (no TextEncoder in workflow code's guarantees; surrogate pairs count 4). */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i += 1;
    } else bytes += 3;
  }
  return bytes;
}

/** The bytes a round takes in the transcript (its JSON, UTF-8). */
export function roundBytes(round: TranscriptRound): number {
  return utf8Bytes(JSON.stringify(round));
}

/** A round as the transcript keeps it: every field cut to its length. */
export function cutRound(round: TranscriptRound, callChars = CALL_CHARS): TranscriptRound {
  return {
    round: round.round,
    ...(round.text !== undefined ? { text: cutMiddle(round.text, TEXT_CHARS) } : {}),
    ...(round.reasoning !== undefined ? { reasoning: cutMiddle(round.reasoning, REASONING_CHARS) } : {}),
    toolCalls: round.toolCalls.map((call) => ({
      ...call,
      arguments: cutMiddle(call.arguments, callChars),
      ...(call.result !== undefined ? { result: cutMiddle(call.result, callChars) } : {}),
    })),
  };
}

/**
 * `log` within `maxBytes`: the oldest rounds dropped (and counted in `droppedRounds`) until the
 * rest fits. The newest round is always kept; one that alone is over the bound keeps less of
 * each call, then only its text, so the bound holds whatever the model did.
 */
export function boundTranscript(log: TranscriptLog, maxBytes = TRANSCRIPT_MAX_BYTES): TranscriptLog {
  const sizes = log.rounds.map(roundBytes);
  let total = sizes.reduce((a, b) => a + b, 0);
  let first = 0;
  while (total > maxBytes && first < log.rounds.length - 1) {
    total -= sizes[first] ?? 0;
    first += 1;
  }
  let rounds = log.rounds.slice(first);
  const last = rounds[0];
  if (rounds.length === 1 && last && total > maxBytes) {
    const squeezed = cutRound(last, SQUEEZED_CHARS);
    rounds = [roundBytes(squeezed) <= maxBytes ? squeezed : textOnly(squeezed, maxBytes)];
  }
  const dropped = (log.droppedRounds ?? 0) + first;
  return { rounds, ...(dropped > 0 ? { droppedRounds: dropped } : {}) };
}

/** A round with its text only (cut to fit): the last resort of a round of very many calls. */
function textOnly(round: TranscriptRound, maxBytes: number): TranscriptRound {
  // A quarter of the bound in characters: at most 4 bytes each, with room for the JSON around it.
  const text = cutMiddle(round.text ?? '', Math.floor(maxBytes / 4) - 200);
  return { round: round.round, ...(text !== '' ? { text } : {}), toolCalls: [] };
}

/**
 * The `why` of an approval: the last WHY_CHARS characters of the text the model wrote in the same
 * reply before its tool calls, marked when cut; undefined when it wrote none.
 */
export function approvalWhy(text: string | null | undefined): string | undefined {
  const written = text?.trim();
  if (!written) return undefined;
  return written.length <= WHY_CHARS ? written : `${WHY_MARKER}${written.slice(-WHY_CHARS)}`;
}

/** How a call's tool message reads as an outcome: tool errors start `error: `; a person's no is `rejected`. */
export function outcomeOf(content: string, rejected: boolean | undefined): SettledOutcome {
  if (!content.startsWith('error: ')) return 'ok';
  return rejected ? 'rejected' : 'error';
}
