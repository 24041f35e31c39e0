/**
 * Multipart bodies built byte by byte, so a test can send what a browser would not: any file
 * name (separators, NUL, a few hundred characters) and any declared type. The agent input goes as
 * the `input` part, as the HTTP API expects it.
 */
import { randomUUID } from 'node:crypto';

/** One part: a plain field (no `filename`) or a file. */
export interface Part {
  name: string;
  filename?: string;
  type?: string;
  content: string | Buffer;
}

/** The body and its Content-Type (with the boundary). */
export interface MultipartBody {
  body: Buffer;
  contentType: string;
}

/** `parts` as one multipart/form-data body. */
export function multipart(parts: readonly Part[]): MultipartBody {
  const boundary = `cairn-test-${randomUUID()}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const filename = part.filename === undefined ? '' : `; filename="${part.filename.replace(/"/g, '%22')}"`;
    const type = part.type ?? (part.filename === undefined ? undefined : 'application/octet-stream');
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${filename}\r\n` +
      (type ? `Content-Type: ${type}\r\n` : '') +
      '\r\n';
    chunks.push(Buffer.from(head, 'utf8'), Buffer.from(part.content), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** The agent input as the `input` part, then one file part per entry of `files` (name → content). */
export function startForm(
  input: unknown,
  files: Record<string, string | Buffer> | [string, string | Buffer][],
): MultipartBody {
  const entries = Array.isArray(files) ? files : Object.entries(files);
  return multipart([
    { name: 'input', type: 'application/json', content: JSON.stringify(input) },
    ...entries.map(([filename, content]) => ({ name: 'file', filename, content })),
  ]);
}
