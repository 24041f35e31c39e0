/**
 * Which image a file is, told by its first bytes (never by its name alone): PNG, JPEG, GIF or
 * WebP — the formats vision models take as image parts.
 */
import type { ImageMediaType } from '../../../workflows/model/llm/llm-types';

/** Images larger than this are not sent to a model (a base64 image part grows by a third). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

const startsWith = (bytes: Uint8Array, prefix: readonly number[], at = 0): boolean =>
  prefix.every((b, i) => bytes[at + i] === b);

const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

/** The image media type of `bytes`, or undefined when they are not a PNG, JPEG, GIF or WebP image. */
export function imageMediaType(bytes: Uint8Array): ImageMediaType | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  return undefined;
}
