/**
 * Images a step's tools read, sent to a vision model: the conversation carries each image by
 * reference on its tool message (workflows/model/llm/llm-types.ts `imageRefSchema`), and this activity
 * code loads the bytes from the agent's workspace when it builds a request — confined to the
 * workspace like the file tools, at most 5 MiB each, the newest few only — and adds them as
 * image parts in one user message after the tool results that read them (a tool message
 * carries text only).
 */
import type { ChatCompletionContentPart, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { agentWorkspaceDir } from '../../config/agent-workspace';
import type { ImageRef, LlmMessage } from '../../workflows/model/llm/llm-types';
import { imageMediaType, MAX_IMAGE_BYTES } from '../tools/builtin/image-kind';
import { readWorkspaceBytes } from '../tools/builtin/workspace-files';

/** Images sent in one request, newest first; older ones are named but not sent again. */
export const MAX_IMAGES_PER_REQUEST = 4;

/** Data URLs (or why an image is missing) by tool call id. */
export type LoadedImages = ReadonlyMap<string, { url: string } | { missing: string }>;

/** Loads the newest images the conversation refers to, from `root` (the workspace root) and `agentId`'s folder. */
export async function loadImages(
  messages: readonly LlmMessage[],
  root: string,
  agentId: string,
): Promise<LoadedImages> {
  const refs = messages
    .flatMap((m) => (m.role === 'tool' && m.image ? [{ id: m.toolCallId, image: m.image }] : []))
    .slice(-MAX_IMAGES_PER_REQUEST);
  const loaded = new Map<string, { url: string } | { missing: string }>();
  for (const { id, image } of refs) loaded.set(id, await loadImage(image, root, agentId));
  return loaded;
}

async function loadImage(
  image: ImageRef,
  root: string,
  agentId: string,
): Promise<{ url: string } | { missing: string }> {
  const folder = image.scope === 'agent' ? agentWorkspaceDir(root, agentId) : root;
  try {
    const bytes = await readWorkspaceBytes(folder, image.path, MAX_IMAGE_BYTES);
    const mediaType = imageMediaType(bytes);
    if (!mediaType) return { missing: 'no longer an image' };
    return { url: `data:${mediaType};base64,${bytes.toString('base64')}` };
  } catch (err) {
    return { missing: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * The OpenAI messages of `messages`, with a user message of image parts after each run of tool
 * results that read images in `images` (an image not loaded is named, saying why).
 */
export function withImageParts(
  messages: readonly LlmMessage[],
  converted: readonly ChatCompletionMessageParam[],
  images: LoadedImages,
): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  let pending: ChatCompletionContentPart[] = [];
  const flush = () => {
    if (pending.length) out.push({ role: 'user', content: pending });
    pending = [];
  };
  messages.forEach((message, index) => {
    if (message.role !== 'tool') flush();
    const param = converted[index];
    if (param) out.push(param);
    const loaded = message.role === 'tool' && message.image ? images.get(message.toolCallId) : undefined;
    if (message.role !== 'tool' || !message.image || !loaded) return;
    if ('url' in loaded) {
      pending.push({ type: 'text', text: `The image "${message.image.path}" (read by the tool call above):` });
      pending.push({ type: 'image_url', image_url: { url: loaded.url } });
    } else pending.push({ type: 'text', text: `The image "${message.image.path}" cannot be shown: ${loaded.missing}` });
  });
  flush();
  return out;
}
