/**
 * Text out of documents (PDF, DOCX, XLSX, HTML) for `read_file`. A parser is an attack surface, so
 * each file is parsed in its own child process with a heap limit and a deadline: a malformed
 * file, a decompression bomb or a parser hang kills only that process, never the activity worker.
 * (Not a worker thread: a thread that reaches its heap limit can abort the whole process,
 * nodejs/node#47224 — seen here about once in eight runs of the heap-limit test.) The process gets
 * the file on stdin, writes `{ text }` or `{ error }` as JSON on stdout, and runs with an empty
 * environment, so no secret of the worker's reaches a parser.
 *
 * The child's code is a plain CommonJS string (not a module file) so it runs the same under
 * tsx, jest and the compiled build; the parsers it loads are resolved here and passed in.
 */
import { spawn } from 'node:child_process';
import { extname } from 'node:path';

/** The kinds of file read through a parser; everything else is read as UTF-8 text. */
export type DocumentKind = 'pdf' | 'docx' | 'xlsx' | 'html';

/** Bounds of one parse. */
export interface ParseLimits {
  /** Heap of the parsing process (V8 old generation), in MiB. */
  heapMb: number;
  /** Most an archive (DOCX) may declare it inflates to, in MiB; checked before parsing. */
  inflatedMb: number;
  /** Longest a parse may take before its process is killed, in milliseconds. */
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

/** Runs in the parsing process: argv is [kind, modules as JSON], the file comes on stdin; writes { text } or { error }. */
const CHILD_CODE = `
const [kind, modulesJson] = process.argv.slice(1);
const modules = JSON.parse(modulesJson);
async function input() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return new Uint8Array(Buffer.concat(chunks));
}
async function extract() {
  const bytes = await input();
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
const say = (reply) => process.stdout.write(JSON.stringify(reply), () => process.exit(0));
extract().then(
  (text) => say({ text }),
  (err) => say({ error: String((err && err.message) || err).slice(0, 300) }),
);
`;

/** The most text a parse may hand back (bytes of its JSON reply); past it the parse is refused. */
const MAX_REPLY_BYTES = 64 * 2 ** 20;

/** How a process that reached its heap limit ends: V8 aborts it (SIGABRT, exit status 134). */
const abortedOutOfMemory = (code: number | null, signal: NodeJS.Signals | null) => signal === 'SIGABRT' || code === 134;

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
 * The text of the document `bytes`, parsed in a fresh child process within `limits`.
 * @throws Error with a message fit for the model when the file cannot be parsed, takes too long
 *   or needs too much memory (the process is gone either way).
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
  const args = [`--max-old-space-size=${limits.heapMb}`, '-e', CHILD_CODE, kind, JSON.stringify(parserModules())];
  const child = spawn(process.execPath, args, { env: {}, stdio: ['pipe', 'pipe', 'ignore'] });
  return new Promise<string>((resolve, reject) => {
    let settled = false;
    const out: Buffer[] = [];
    let outBytes = 0;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      outcome();
    };
    const refuse = (why: string) => settle(() => reject(new Error(`"${shown}" cannot be read as ${kind}: ${why}`)));
    const timer = setTimeout(() => refuse(`parsing took longer than ${limits.timeoutMs / 1000} s`), limits.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > MAX_REPLY_BYTES) refuse(`its text is over ${MAX_REPLY_BYTES / 2 ** 20} MiB`);
      else out.push(chunk);
    });
    child.stdin.on('error', () => undefined); // a parser that died before reading all: its exit says why
    child.on('error', () => refuse('the parser failed'));
    child.on('close', (code: number | null, signal: NodeJS.Signals | null) => {
      const reply = parseReply(Buffer.concat(out).toString('utf8'));
      if (typeof reply?.text === 'string') {
        const text = reply.text;
        settle(() => resolve(text));
      } else if (typeof reply?.error === 'string') refuse(reply.error);
      else if (abortedOutOfMemory(code, signal))
        refuse(`parsing needed more than ${limits.heapMb} MiB (a damaged file or a decompression bomb)`);
      else refuse('the parser stopped');
    });
    child.stdin.end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  });
}

/** The child's JSON reply, or undefined when it wrote none (it died). */
function parseReply(json: string): { text?: unknown; error?: unknown } | undefined {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}
