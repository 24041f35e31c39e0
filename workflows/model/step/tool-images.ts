/**
 * An image a tool read reaches the step's model only when the model can see (`model.vision`):
 * the tool result says where the image is, and the tool message carries it by reference, so
 * the LLM activity sends it as an image part (its bytes never enter history). A model that
 * cannot see is told so instead of getting a description it cannot check.
 */
import type { ImageRef } from '../llm/llm-types';

/** Text added to an image's tool result for a model that sees it. */
export const IMAGE_SHOWN = 'It is shown to you below.';
/** Text added to an image's tool result for a model that cannot see. */
export const IMAGE_NOT_SEEN = 'This model cannot see images (model.vision is off).';

/** The tool result's text and, for a model that sees, the image it carries. */
export function withImage(
  content: string,
  image: ImageRef | undefined,
  vision: boolean | undefined,
): { content: string; image?: ImageRef } {
  if (!image) return { content };
  return vision ? { content: `${content} ${IMAGE_SHOWN}`, image } : { content: `${content} ${IMAGE_NOT_SEEN}` };
}
