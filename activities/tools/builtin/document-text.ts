/**
 * Text out of documents (PDF, DOCX, XLSX, HTML) for `read_file`. A parser is an attack surface, so
 * each file is parsed in its own worker thread with a heap limit and a deadline: a malformed
 * file, a decompression bomb or a parser hang kills only that thread, never the activity worker.
 *
 * The thread's code is a plain CommonJS string (not a module file) so it runs the same under
 * tsx, jest and the compiled build; the parsers it loads are resolved here and passed in.
 */
import { Worker } from 'node:worker_threads';
import { extname } from 'node:path';

/** The kinds of file read through a parser; everything else is read as UTF-8 text. */
export type DocumentKind = 'pdf' | 'docx' | 'xlsx' | 'html';

/** Bounds of one parse. */
export interface ParseLimits {
  /** Heap of the parsing thread (V8 old generation), in MiB. */
  heapMb: number;
  /** Most an archive (DOCX) may declare it inflates to, in MiB; checked before parsing. */
  inflatedMb: number;
  /** Longest a parse may take before its thread is terminated, in milliseconds. */
  timeoutMs: number;
}

/** The default bounds: 256 MiB and 10 s per file. */
export const PARSE_LIMITS: ParseLimits = { heapMb: 256, inflatedMb: 256, timeoutMs: 10_000 };

const startsWith = (bytes: Uint8Array, magic: string) =>
  bytes.length >= magic.length && [...magic].every((char, i) => bytes[i] === char.charCodeAt(0));

/**
 * Which parser `bytes` need, by magic bytes first (a PDF is a PDF whatever its name), then by
 * extension; undefined for text.
 */
export function documentKind(path: string, bytes: Uint8Array): DocumentKind | undefined {
  if (startsWith(bytes, '%PDF-')) return 'pdf';
  const ext = extname(path).toLowerCase();
  const zip = startsWith(bytes, 'PK\u0003\u0004');
  if (ext === '.docx' && zip) return 'docx';
  if (ext === '.xlsx' && zip) return 'xlsx';
  if (ext === '.html' || ext === '.htm') return 'html';
  return undefined;
}

/**
 * The total size a zip's entries inflate to, from its central directory; Infinity when it cannot
 * be read or uses zip64. The DOCX parser (jszip) refuses an entry whose inflated size differs
 * from the declared one, so the declared sizes bound what it inflates.
 */
export function zipInflatedSize(bytes: Uint8Array): number {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = -1;
  for (let at = view.length - 22; at >= Math.max(0, view.length - 22 - 0xffff); at--) {
    if (view.readUInt32LE(at) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) return Infinity;
  const count = view.readUInt16LE(end + 10);
  let at = view.readUInt32LE(end + 16);
  let total = 0;
  for (let i = 0; i < count; i++) {
    if (at + 46 > view.length || view.readUInt32LE(at) !== 0x02014b50) return Infinity;
    const size = view.readUInt32LE(at + 24);
    if (size === 0xffffffff) return Infinity;
    total += size;
    at += 46 + view.readUInt16LE(at + 28) + view.readUInt16LE(at + 30) + view.readUInt16LE(at + 32);
  }
  return total;
}

/** Runs in the parsing thread: `workerData` is { kind, bytes, modules }; posts { text } or { error }. */
const THREAD_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const { kind, bytes, modules } = workerData;
async function extract() {
  if (kind === 'pdf') {
    const { extractText, getDocumentProxy } = require(modules.unpdf);
    const pdf = await getDocumentProxy(new Uint8Array(bytes));
    const { text } = await extractText(pdf, { mergePages: false });
    return text.map((page, i) => '--- page ' + (i + 1) + ' ---\\n' + page).join('\\n\\n');
  }
  if (kind === 'docx') {
    const mammoth = require(modules.mammoth);
    const { value } = await mammoth.extractRawText({ buffer: Buffer.from(bytes) });
    return value;
  }
  if (kind === 'xlsx') {
    const readXlsxFile = require(modules.readExcelFile).default;
    const sheets = await readXlsxFile(Buffer.from(bytes));
    const cell = (value) => {
      const text = value === null || value === undefined ? '' : value instanceof Date ? value.toISOString() : String(value);
      return /[",\\n\\r]/.test(text) ? '"' + text.replace(/"/g, '""') + '"' : text;
    };
    return sheets
      .map(({ sheet, data }) => '--- sheet ' + sheet + ' ---\\n' + data.map((row) => row.map(cell).join(',')).join('\\n'))
      .join('\\n\\n');
  }
  const { convert } = require(modules.htmlToText);
  return convert(Buffer.from(bytes).toString('utf8'), { wordwrap: false });
}
extract().then(
  (text) => parentPort.postMessage({ text }),
  (err) => parentPort.postMessage({ error: String((err && err.message) || err).slice(0, 300) }),
);
`;

let modules: Record<string, string> | undefined;

/** Absolute paths of the parser packages, resolved from here (the thread has no module context). */
function parserModules(): Record<string, string> {
  return (modules ??= {
    unpdf: require.resolve('unpdf'),
    mammoth: require.resolve('mammoth'),
    htmlToText: require.resolve('html-to-text'),
    readExcelFile: require.resolve('read-excel-file/node'),
  });
}

/**
 * The text of the document `bytes`, parsed in a fresh worker thread within `limits`.
 * @throws Error with a message fit for the model when the file cannot be parsed, takes too long
 *   or needs too much memory (the thread is gone either way).
 */
export function documentText(
  shown: string,
  kind: DocumentKind,
  bytes: Uint8Array,
  limits: ParseLimits = PARSE_LIMITS,
): Promise<string> {
  if (kind === 'docx' || kind === 'xlsx') {
    const inflated = zipInflatedSize(bytes);
    if (inflated > limits.inflatedMb * 2 ** 20) {
      const why = Number.isFinite(inflated) ? `it inflates to ${inflated} bytes` : 'its zip directory is unreadable';
      return Promise.reject(new Error(`"${shown}" cannot be read as ${kind}: ${why}, over ${limits.inflatedMb} MiB`));
    }
  }
  const copy = new Uint8Array(bytes); // transferred to the thread: the caller's buffer stays usable
  const worker = new Worker(THREAD_CODE, {
    eval: true,
    workerData: { kind, bytes: copy, modules: parserModules() },
    transferList: [copy.buffer],
    resourceLimits: { maxOldGenerationSizeMb: limits.heapMb, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
    stdout: true,
    stderr: true,
  });
  return new Promise<string>((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      outcome();
    };
    const refuse = (why: string) => settle(() => reject(new Error(`"${shown}" cannot be read as ${kind}: ${why}`)));
    const timer = setTimeout(() => refuse(`parsing took longer than ${limits.timeoutMs / 1000} s`), limits.timeoutMs);
    worker.on('message', (reply: { text?: unknown; error?: unknown }) => {
      if (typeof reply.text === 'string') {
        const text = reply.text;
        settle(() => resolve(text));
      } else refuse(typeof reply.error === 'string' ? reply.error : 'the parser failed');
    });
    worker.on('error', (err: Error & { code?: string }) =>
      refuse(
        err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `parsing needed more than ${limits.heapMb} MiB (a damaged file or a decompression bomb)`
          : 'the parser failed',
      ),
    );
    worker.on('exit', () => refuse('the parser stopped'));
  });
}
