/**
 * The pure rules of a step's transcript (workflows/contract/transcript-bounds.ts): fields cut in the
 * middle with a marker, the whole within its byte bound with the oldest rounds dropped and
 * counted, a lone huge round squeezed, and an approval's `why` (the end of the model's text).
 */
import { TRANSCRIPT_MAX_BYTES, type TranscriptRound } from '../../workflows/contract/step-transcript';
import { LATEST_LINE_CHARS, latestLine } from '../../workflows/step/step-transcript';
import {
  approvalWhy,
  boundTranscript,
  CALL_CHARS,
  cutMiddle,
  cutRound,
  outcomeOf,
  roundBytes,
  TEXT_CHARS,
  utf8Bytes,
  WHY_CHARS,
  WHY_MARKER,
} from '../../workflows/contract/transcript-bounds';

const round = (n: number, text: string, calls = 0, result = 'ok'): TranscriptRound => ({
  round: n,
  text,
  toolCalls: Array.from({ length: calls }, () => ({ name: 'write_file', arguments: '{}', outcome: 'ok', result })),
});
const totalBytes = (rounds: TranscriptRound[]) => rounds.reduce((s, r) => s + roundBytes(r), 0);

test('cutMiddle keeps short text, and the first and last halves of long text around a marker naming the cut', () => {
  expect(cutMiddle('short', 10)).toBe('short');
  const long = `${'a'.repeat(600)}${'b'.repeat(600)}`;
  const cut = cutMiddle(long, 100);
  expect(cut.startsWith('a'.repeat(50))).toBe(true);
  expect(cut.endsWith('b'.repeat(50))).toBe(true);
  expect(cut).toContain(`[… ${long.length - 100} characters cut …]`);
});

test('utf8Bytes counts as UTF-8 does', () => {
  for (const text of ['plain', 'é', '€ and 😀', '']) expect(utf8Bytes(text)).toBe(Buffer.byteLength(text, 'utf8'));
});

test('cutRound cuts text, arguments and results to their lengths', () => {
  const big = 'x'.repeat(50_000);
  const cut = cutRound({
    round: 3,
    text: big,
    reasoning: big,
    toolCalls: [{ name: 't', arguments: big, outcome: 'ok', result: big }],
  });
  expect(cut.text?.length).toBeLessThan(TEXT_CHARS + 100);
  expect(cut.toolCalls[0]?.arguments.length).toBeLessThan(CALL_CHARS + 100);
  expect(cut.toolCalls[0]?.result?.length).toBeLessThan(CALL_CHARS + 100);
  expect(cut.round).toBe(3);
});

test('within the bound nothing is dropped; over it the oldest rounds go, counted, and the rest fits', () => {
  const small = [round(1, 'hi'), round(2, 'there')];
  expect(boundTranscript({ rounds: small })).toEqual({ rounds: small });
  const rounds = Array.from({ length: 40 }, (_, i) => round(i + 1, 'é'.repeat(3000), 1, 'r'.repeat(1500)));
  expect(totalBytes(rounds)).toBeGreaterThan(TRANSCRIPT_MAX_BYTES);
  const bounded = boundTranscript({ rounds });
  expect(totalBytes(bounded.rounds)).toBeLessThanOrEqual(TRANSCRIPT_MAX_BYTES);
  // The newest rounds stay, in order, and the dropped ones are counted.
  const kept = bounded.rounds.map((r) => r.round);
  expect(kept.at(-1)).toBe(40);
  expect(kept[0]).toBe(41 - kept.length);
  expect(bounded.droppedRounds).toBe(40 - kept.length);
  // One more round drops more: the count adds up across bounds.
  const again = boundTranscript({ ...bounded, rounds: [...bounded.rounds, round(41, 'é'.repeat(3000), 1)] });
  expect((again.droppedRounds ?? 0) + again.rounds.length).toBe(41);
});

test('a lone round over the bound is squeezed until it fits, never dropped', () => {
  const huge = round(7, 'words '.repeat(3000), 200, 'z'.repeat(CALL_CHARS));
  const bounded = boundTranscript({ rounds: [cutRound(huge)] });
  expect(bounded.rounds.map((r) => r.round)).toEqual([7]);
  expect(totalBytes(bounded.rounds)).toBeLessThanOrEqual(TRANSCRIPT_MAX_BYTES);
  expect(bounded.droppedRounds).toBeUndefined();
  const tiny = boundTranscript({ rounds: [cutRound(huge)] }, 4000);
  expect(totalBytes(tiny.rounds)).toBeLessThanOrEqual(4000);
  expect(tiny.rounds[0]?.text).toContain('words');
});

test("approvalWhy: the model's text up to 1000 characters, else its last 1000 marked; absent without text", () => {
  expect(approvalWhy(null)).toBeUndefined();
  expect(approvalWhy('   \n')).toBeUndefined();
  expect(approvalWhy('  I need to write the notes.  ')).toBe('I need to write the notes.');
  const long = `${'start '.repeat(300)}the reason at the end`;
  const why = approvalWhy(long);
  expect(why?.startsWith(WHY_MARKER)).toBe(true);
  expect(why?.slice(WHY_MARKER.length)).toBe(long.slice(-WHY_CHARS));
  expect(why?.endsWith('the reason at the end')).toBe(true);
});

test("outcomeOf: tool errors are errors, a person's no is rejected, the rest ok", () => {
  expect(outcomeOf('done', undefined)).toBe('ok');
  expect(outcomeOf('error: boom', undefined)).toBe('error');
  expect(outcomeOf('error: the user rejected this call', true)).toBe('rejected');
});

describe("a step's latest line (its current details)", () => {
  test('the round, the last non-empty line of text, each call with its outcome', () => {
    const round = {
      round: 3,
      text: 'First I read.\nThen I write the brief.\n\n',
      toolCalls: [
        { name: 'read_file', arguments: '{}', outcome: 'ok' as const },
        { name: 'write_file', arguments: '{}', outcome: 'pending' as const },
      ],
    };
    expect(latestLine(round)).toBe('**Round 3** — Then I write the brief.\n- `read_file` ok\n- `write_file` pending');
  });

  test('a long line is cut to LATEST_LINE_CHARS; no text, only the round', () => {
    const long = latestLine({ round: 1, text: 'x'.repeat(500), toolCalls: [] });
    expect(long).toBe(`**Round 1** — ${'x'.repeat(LATEST_LINE_CHARS - 1)}…`);
    expect(latestLine({ round: 2, toolCalls: [] })).toBe('**Round 2**');
  });
});
