/**
 * The front door's reading of a Chat Completions body (client/threads/chat/chat-request.ts): the
 * last user message is the new message, the messages before it a new thread's context (newest
 * kept), text parts joined, other parts and a missing user message refused with the field.
 */
import {
  chatCompletionBodySchema,
  firstMessageText,
  MAX_CONTEXT_CHARS,
  turnRequestOf,
  type ChatMessage,
} from '../../client/threads/chat/chat-request';
import { MAX_MESSAGE_CHARS } from '../../workflows/contract/thread-contract';

test('the last user message is the message; earlier ones, assistant replies after it excluded, are context', () => {
  const messages: ChatMessage[] = [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'first' },
    { role: 'assistant', content: 'ok' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'second ' },
        { type: 'text', text: 'part' },
      ],
    },
    { role: 'assistant', content: null },
  ];
  const request = turnRequestOf(messages);
  expect(request).toEqual({ text: 'second part', context: ['system: Be brief.', 'user: first', 'assistant: ok'] });
  if ('refused' in request) throw new Error('refused');
  expect(firstMessageText(request).split('\n')).toEqual([
    'second part',
    '',
    'Earlier in this conversation (for context; answer the message above):',
    'system: Be brief.',
    'user: first',
    'assistant: ok',
  ]);
  expect(firstMessageText({ text: 'alone', context: [] })).toBe('alone');
});

test('context keeps the newest messages that fit', () => {
  const long = 'x'.repeat(MAX_CONTEXT_CHARS / 2);
  const messages: ChatMessage[] = ['a', 'b', 'c'].map((c) => ({ role: 'user', content: `${c}${long}` }));
  const request = turnRequestOf([...messages, { role: 'user', content: 'now' }]);
  if ('refused' in request) throw new Error('refused');
  expect(request.context.map((line) => line.slice(0, 7))).toEqual(['user: c']);
});

test('the documented bound: a new thread carries the newest 12,000 characters of earlier messages', () => {
  // docs/contracts.md, "OpenAI-compatible front door" > Which thread: "`role: text` lines, the
  // newest 12,000 characters". The literal, not MAX_CONTEXT_CHARS: a changed constant fails here.
  // Lines of exactly 1,000 characters (`user: ` and 994 more): twelve fit, the thirteenth does not.
  const lines: ChatMessage[] = Array.from({ length: 20 }, (_, i) => ({
    role: 'user',
    content: `${String(i).padStart(2, '0')}${'x'.repeat(992)}`,
  }));
  const request = turnRequestOf([...lines, { role: 'user', content: 'now' }]);
  if ('refused' in request) throw new Error('refused');
  expect(request.context.every((line) => line.length === 1_000)).toBe(true);
  expect(request.context.map((line) => line.slice(6, 8))).toEqual(
    Array.from({ length: 12 }, (_, i) => String(i + 8).padStart(2, '0')),
  );
});

test('refusals name the field: no user message, a part that is not text', () => {
  expect(turnRequestOf([{ role: 'system', content: 'x' }])).toMatchObject({ field: 'messages' });
  expect(
    turnRequestOf([{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:' } }] }]),
  ).toMatchObject({ field: 'messages.0.content' });
});

test("the body: model is a name (which definitions exist is the route's to say); other OpenAI parameters pass", () => {
  const ok = chatCompletionBodySchema.safeParse({
    model: 'cairn',
    messages: [{ role: 'user', content: 'hi' }],
    temperature: 0.2,
    stream: true,
  });
  expect(ok.success).toBe(true);
  // Any name parses: a model no definition has is the route's 404 model_not_found (test/integration/agent-definitions.test.ts).
  expect(
    chatCompletionBodySchema.safeParse({ model: 'support', messages: [{ role: 'user', content: 'hi' }] }).success,
  ).toBe(true);
  const wrong = chatCompletionBodySchema.safeParse({ model: '', messages: [{ role: 'user', content: 'hi' }] });
  expect(wrong.success ? [] : wrong.error.issues.map((i) => i.path.join('.'))).toEqual(['model']);
});

test("a first message's context leaves out its oldest lines where the text and all of it would pass the longest message", () => {
  const text = 'q'.repeat(MAX_MESSAGE_CHARS - 5_000);
  const context = ['user: a'.padEnd(3_000, '.'), 'user: b'.padEnd(3_000, '.'), 'user: c'.padEnd(1_000, '.')];
  const whole = firstMessageText({ text, context });
  expect(whole.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
  expect(whole.split('\n').map((line) => line.slice(0, 7))).toEqual([
    text.slice(0, 7),
    '',
    'Earlier',
    'user: b',
    'user: c',
  ]);
  // A text at the limit keeps none; what is sent is the text alone.
  expect(firstMessageText({ text: 'q'.repeat(MAX_MESSAGE_CHARS), context })).toBe('q'.repeat(MAX_MESSAGE_CHARS));
});
