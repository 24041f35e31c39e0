/**
 * Every workflow message handler parses its payload before touching state: garbage is refused
 * with a `path: message` reason and never throws (a throw in a signal handler fails the workflow
 * task on every retry and wedges the agent).
 */
import fc from 'fast-check';
import {
  parseAnswerInput,
  parseStepAnswer,
  parseStepInteraction,
  parseStepProgress,
} from '../../workflows/contract/message-payloads';

const parsers = { parseAnswerInput, parseStepAnswer, parseStepInteraction, parseStepProgress };
const GARBAGE: unknown[] = [null, undefined, 0, 'x', true, [], [1, 2], {}, { stepId: 5 }, Number.NaN];

const usage = { promptTokens: 1, completionTokens: 2, totalTokens: 3 };
const record = { callId: 'c1', name: 'read_file', arguments: '{}', outcome: 'ok', durationMs: 4 };

describe.each(Object.entries(parsers))('%s', (_name, parse) => {
  it.each(GARBAGE.map((value) => [JSON.stringify(value) ?? String(value), value]))(
    'refuses %s with a reason',
    (_label, value) => {
      const parsed = parse(value);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.error).toMatch(/^[\w.]+: /);
    },
  );

  it('never throws, whatever arrives', () => {
    fc.assert(fc.property(fc.anything(), (value) => void parse(value)));
  });
});

describe('parseAnswerInput', () => {
  it('keeps a well-formed answer input, leaving the answer itself to the per-kind check', () => {
    expect(parseAnswerInput({ interactionId: 'i1', answer: 'anything', by: 'ann' })).toEqual({
      ok: true,
      value: { interactionId: 'i1', answer: 'anything', by: 'ann' },
    });
  });

  it('refuses a malformed payload as an invalid answer, naming the broken field', () => {
    expect(parseAnswerInput({ interactionId: '', answer: {} })).toEqual({
      ok: false,
      code: 'INVALID_ANSWER',
      field: 'interactionId',
      error: 'interactionId: must not be empty',
    });
    expect(parseAnswerInput({ interactionId: 'i1', answer: {}, by: 7 })).toMatchObject({
      ok: false,
      code: 'INVALID_ANSWER',
      field: 'by',
      error: /^by: /,
    });
    expect(parseAnswerInput('i1')).toMatchObject({ ok: false, code: 'INVALID_ANSWER', field: 'payload' });
  });
});

describe('parseStepProgress', () => {
  const good = { stepId: 's1', round: 2, usage, toolCalls: [record] };

  it('keeps a round report', () => {
    expect(parseStepProgress(good)).toEqual({ ok: true, value: good });
  });

  it.each([
    ['toolCalls is a number', { ...good, toolCalls: 5 }, /^toolCalls: /],
    ['a negative round', { ...good, round: -1 }, /^round: must not be negative/],
    ['usage missing a count', { ...good, usage: { promptTokens: 1 } }, /^usage\.completionTokens: /],
    [
      'a record with an unknown outcome',
      { ...good, toolCalls: [{ ...record, outcome: 'maybe' }] },
      /^toolCalls\.0\.outcome: /,
    ],
  ])('refuses %s', (_what, value, error) => {
    expect(parseStepProgress(value)).toMatchObject({ ok: false, error });
  });
});

describe('parseStepInteraction', () => {
  const envelope = { stepId: 's1', requestId: 'call-1' };

  it('opens the ask kinds with the rules of ask_user applied', () => {
    expect(
      parseStepInteraction({
        ...envelope,
        spec: { kind: 'ask.select', prompt: 'Which?', options: ['a', 'b'], multiple: false },
      }),
    ).toEqual({
      ok: true,
      value: { ...envelope, spec: { kind: 'ask.select', prompt: 'Which?', options: ['a', 'b'], multiple: false } },
    });
    expect(parseStepInteraction({ ...envelope, spec: { kind: 'ask.query', prompt: 'Why?' } })).toMatchObject({
      ok: true,
    });
  });

  it('opens a tool approval', () => {
    const spec = {
      kind: 'tool.approval',
      prompt: 'Allow?',
      tool: 'write_file',
      arguments: { path: 'a' },
      digest: 'd1',
    };
    expect(parseStepInteraction({ ...envelope, spec })).toEqual({ ok: true, value: { ...envelope, spec } });
  });

  it.each([
    [
      'an ask.select with no options',
      { kind: 'ask.select', prompt: 'Which?', options: [], multiple: false },
      /^spec\.options: /,
    ],
    [
      'an ask.form field of an unknown type',
      { kind: 'ask.form', prompt: 'Fill', fields: [{ key: 'a', label: 'A', type: 'x' }] },
      /^spec\.fields\.0\.type: /,
    ],
    [
      'a plan check (only the agent opens those)',
      { kind: 'plan.check', prompt: 'Plan', plan: {}, revision: 1 },
      /^spec\.kind: must be one of/,
    ],
    [
      'an approval without a digest',
      { kind: 'tool.approval', prompt: 'Allow?', tool: 't', arguments: {} },
      /^spec\.digest: /,
    ],
    ['no kind', { prompt: 'Why?' }, /^spec\.kind: /],
  ])('refuses %s', (_what, spec, error) => {
    expect(parseStepInteraction({ ...envelope, spec })).toMatchObject({ ok: false, error });
  });

  it.each(['constructor', 'toString', '__proto__'])(
    'refuses the kind %s, a name objects inherit, as no kind',
    (kind) => {
      expect(parseStepInteraction({ ...envelope, spec: { kind, prompt: 'Why?' } })).toEqual({
        ok: false,
        error: 'spec.kind: must be one of ask.query, ask.select, ask.form, tool.approval',
      });
    },
  );
});

describe('parseStepAnswer', () => {
  it('keeps an answer object and the expiry flag', () => {
    const answer = { requestId: 'call-1', interactionId: 'i2', answer: { text: 'yes' }, expired: 'fail' };
    expect(parseStepAnswer(answer)).toEqual({ ok: true, value: answer });
  });

  it.each([
    [
      'an answer that is not an object',
      { requestId: 'r', interactionId: 'i', answer: 'yes' },
      /^answer: must be an object/,
    ],
    ['an unknown expiry', { requestId: 'r', interactionId: 'i', answer: {}, expired: 'later' }, /^expired: /],
  ])('refuses %s', (_what, value, error) => {
    expect(parseStepAnswer(value)).toMatchObject({ ok: false, error });
  });
});
