/** Malformed tool arguments are kept in the conversation as `{}`, with what was sent quoted in the tool message. */
import { cleanCall } from '../../workflows/step/clean-call';
import type { ToolInfo } from '../../workflows/model/tools/tool-types';

const readFile: ToolInfo = {
  name: 'read_file',
  description: 'read',
  effect: 'read',
  idempotent: true,
  needsApproval: false,
  parameters: {
    type: 'object',
    properties: { path: { type: 'string' } },
    required: ['path'],
    additionalProperties: false,
  },
};

const call = (name: string, args: string) => ({ id: 'c1', name, arguments: args });

test('well-formed calls are kept as they are', () => {
  const ok = call('read_file', '{"path":"a.txt"}');
  expect(cleanCall(ok, [readFile], false)).toEqual({ call: ok });
  expect(cleanCall(call('finish_step', '{"result":"done"}'), [], false).replaced).toBeUndefined();
  expect(cleanCall(call('no_such_tool', '{"x":1}'), [], false).replaced).toBeUndefined();
});

test.each([
  ['not JSON', 'read_file', '{"path": "a.txt"', /were not a JSON object/],
  ['empty', 'read_file', '', /were not a JSON object/],
  ['an array', 'read_file', '[1]', /were not a JSON object/],
  ['off the schema', 'read_file', '{"file":"a.txt"}', /did not match the tool’s parameters/],
  ['finish_step without a result', 'finish_step', '{}', /did not match/],
  ['ask_user off its schema', 'ask_user', '{"kind":"nope"}', /did not match/],
  ['an unknown tool with broken JSON', 'no_such_tool', '{oops', /were not a JSON object/],
])('arguments %s become {} and the tool message says what was sent', (_what, name, args, why) => {
  const cleaned = cleanCall(call(name, args), [readFile], true);
  expect(cleaned.call).toEqual({ id: 'c1', name, arguments: '{}' });
  expect(cleaned.replaced).toMatch(why);
  expect(cleaned.replaced).toContain(`You sent: ${JSON.stringify(args)}`);
});

test('long arguments are quoted cut', () => {
  const cleaned = cleanCall(call('read_file', `{"path": "${'x'.repeat(1000)}`), [readFile], false);
  expect(cleaned.replaced?.length).toBeLessThan(400);
});
