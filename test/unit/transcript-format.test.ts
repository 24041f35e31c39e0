/**
 * `cairn transcript`'s rendering (client/agents/cli/transcript-command.ts): a header, the dropped-rounds
 * marker, each round's reasoning, text and calls, indented so multi-line text stays readable.
 * Escaping control characters is the terminal boundary's (terminal.ts); its output is checked
 * end to end in test/scenarios/step-transcripts.test.ts.
 */
import { formatTranscript } from '../../client/agents/cli/transcript-command';

test('rounds print readably: reasoning, what the model said, each call with outcome and result', () => {
  const text = formatTranscript('agent-x', {
    stepId: 's2',
    droppedRounds: 2,
    rounds: [
      {
        round: 3,
        reasoning: 'think',
        text: 'line one\nline two',
        toolCalls: [
          { name: 'write_file', arguments: '{"path":"a"}', outcome: 'rejected', result: 'error: no' },
          { name: 'read_file', arguments: '{}', outcome: 'pending' },
        ],
      },
      { round: 4, toolCalls: [] },
    ],
  });
  expect(text).toBe(
    [
      'agent-x · step s2',
      '(2 earlier round(s) left out: a transcript keeps at most 64 KiB)',
      '',
      'round 3',
      '  reasoning:',
      '    think',
      '  said:',
      '    line one',
      '    line two',
      '  → write_file {"path":"a"}  [rejected]',
      '      error: no',
      '  → read_file {}  [pending]',
      '',
      'round 4',
    ].join('\n'),
  );
  expect(formatTranscript('agent-x', { stepId: 's1', rounds: [] })).toBe('agent-x · step s1\n(no round yet)');
});
