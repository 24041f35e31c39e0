/**
 * Images by reference: the file's first bytes tell the format (never its name), only the newest
 * few images of a conversation are sent, each after the tool results that read it, and an image
 * that can no longer be loaded is named with the reason instead.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadImages, MAX_IMAGES_PER_REQUEST, withImageParts } from '../../activities/llm/image-parts';
import { imageMediaType } from '../../activities/tools/builtin/image-kind';
import type { LlmMessage } from '../../workflows/model/llm/llm-types';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

test('formats are told by their first bytes', () => {
  expect(imageMediaType(PNG)).toBe('image/png');
  expect(imageMediaType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
  expect(imageMediaType(Buffer.from('GIF89a...'))).toBe('image/gif');
  expect(imageMediaType(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp');
  expect(imageMediaType(Buffer.from('RIFF\0\0\0\0WAVEfmt '))).toBeUndefined();
  expect(imageMediaType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeUndefined();
});

test('the newest images are sent after their tool results; older and missing ones are not', async () => {
  const root = mkdtempSync(join(tmpdir(), 'image-parts-'));
  const count = MAX_IMAGES_PER_REQUEST + 2;
  const messages: LlmMessage[] = [{ role: 'user', content: 'look' }];
  for (let i = 0; i < count; i++) {
    if (i !== count - 1) writeFileSync(join(root, `p${i}.png`), PNG); // the newest one is gone
    messages.push({
      role: 'assistant',
      content: null,
      toolCalls: [{ id: `c${i}`, name: 'read_file', arguments: '{}' }],
    });
    messages.push({
      role: 'tool',
      toolCallId: `c${i}`,
      content: 'an image',
      image: { path: `p${i}.png`, mediaType: 'image/png', bytes: PNG.length },
    });
  }
  const images = await loadImages(messages, root, 'agent-1');
  expect([...images.keys()]).toEqual(['c2', 'c3', 'c4', 'c5']);
  const converted = messages.map((m) => ({ role: 'user' as const, content: m.role }));
  const out = withImageParts(messages, converted, images);
  // One user message of parts after each tool result that has a loaded (or missing) image.
  expect(out).toHaveLength(messages.length + MAX_IMAGES_PER_REQUEST);
  const parts = JSON.stringify(out.map((m) => (Array.isArray(m.content) ? m.content : [])));
  expect(parts.match(/"type":"image_url"/g)).toHaveLength(MAX_IMAGES_PER_REQUEST - 1);
  expect(parts.match(/"The image \\"p5\.png\\" cannot be shown: /g)).toHaveLength(1);
  // The image parts follow the tool message that read them.
  const at = out.findIndex((m) => m.role === 'user' && Array.isArray(m.content));
  expect(out[at - 1]).toEqual({ role: 'user', content: 'tool' });
});

test('an image path cannot leave the workspace', async () => {
  const root = mkdtempSync(join(tmpdir(), 'image-parts-'));
  const messages: LlmMessage[] = [
    { role: 'tool', toolCallId: 'c', content: '', image: { path: '../x.png', mediaType: 'image/png', bytes: 1 } },
  ];
  const loaded = (await loadImages(messages, root, 'agent-1')).get('c');
  expect(loaded && 'missing' in loaded && loaded.missing).toMatch(/leaves the workspace/);
});
