/**
 * `read_file { path, page? }`: reads a file inside the workspace. UTF-8 text comes back as it
 * is (up to 1 MB); PDF, DOCX, XLSX and HTML are parsed to text in a bounded child process
 * (document-text.ts), and long extracted text is served in pages (text files too when `page` is
 * given) small enough that a tool result is never cut; the parsed text is kept (parse-cache.ts),
 * so reading page after page parses the document once. A PNG, JPEG, GIF or WebP image (up to
 * 5 MiB) comes back by reference, for a vision model to be shown (its bytes stay out of history).
 */
import { z } from 'zod';
import { defineTool } from '../define-tool';
import { documentKind, documentText } from './document-text';
import { imageMediaType, MAX_IMAGE_BYTES } from './image-kind';
import { ParseCache } from './parse-cache';
import { readWorkspaceBytes } from './workspace-files';

const MAX_TEXT_BYTES = 1_000_000;
/** Documents are larger than the text they hold; the parse itself is bounded separately. */
const MAX_DOCUMENT_BYTES = 20_000_000;
/**
 * Characters of text per page: a page and its header line stay under the 2000 characters
 * (cutOutput's first and last 1000) that a tool result keeps, so no page is ever cut.
 */
export const PAGE_CHARS = 1900;

/** This worker's parsed documents, shared by every read_file call. */
const parsed = new ParseCache();

/** Page `page` (from 1) of `text`, with a line saying how to get the next one. */
export function pageOf(shown: string, text: string, page: number | undefined): string {
  const pages = Math.max(1, Math.ceil(text.length / PAGE_CHARS));
  const at = page ?? 1;
  if (at > pages) throw new Error(`"${shown}" has ${pages} page${pages === 1 ? '' : 's'}; there is no page ${at}`);
  if (pages === 1) return text;
  const body = text.slice((at - 1) * PAGE_CHARS, at * PAGE_CHARS);
  const next = at < pages ? `; call read_file with page: ${at + 1} for more` : '';
  return `[page ${at} of ${pages}${next}]\n${body}`;
}

export const readFileTool = defineTool({
  name: 'read_file',
  description:
    'Read a file from the workspace. Paths are relative to the workspace root. Text files come back as they are; ' +
    `PDF, DOCX, XLSX and HTML files come back as their text, in pages of ${PAGE_CHARS} characters when long ` +
    '(the reply starts "[page 1 of N; call read_file with page: 2 for more]"). ' +
    'Pass page to read a long text file in pages too. Images (PNG, JPEG, GIF, WebP) are shown to models that can see them.',
  effect: 'read',
  idempotent: true,
  input: z.object({
    path: z.string().min(1).describe('File path relative to the workspace root'),
    page: z.number().int().min(1).optional().describe('Page of a long document, from 1 (default 1)'),
  }),
  run: async ({ path, page }, { workspace }) => {
    const bytes = await readWorkspaceBytes(workspace, path, MAX_DOCUMENT_BYTES);
    const mediaType = imageMediaType(bytes);
    if (mediaType !== undefined) {
      if (bytes.length > MAX_IMAGE_BYTES) {
        throw new Error(`"${path}" is an image of ${bytes.length} bytes; the limit is ${MAX_IMAGE_BYTES}`);
      }
      return {
        output: `"${path}" is an image (${mediaType}, ${bytes.length} bytes).`,
        image: { path, mediaType, bytes: bytes.length },
      };
    }
    const kind = documentKind(path, bytes);
    if (kind !== undefined) {
      const text = await parsed.get(ParseCache.key(workspace, path, bytes), () => documentText(path, kind, bytes));
      return pageOf(path, text, page);
    }
    if (bytes.length > MAX_TEXT_BYTES) {
      throw new Error(`"${path}" is ${bytes.length} bytes; the limit is ${MAX_TEXT_BYTES}`);
    }
    return page === undefined ? bytes.toString('utf8') : pageOf(path, bytes.toString('utf8'), page);
  },
});
