/**
 * One parse in its own child process. A parser is an attack surface, so each file is parsed in a
 * fresh process with a heap limit, a memory bound (parser-memory.ts) and a deadline: a malformed
 * file, a decompression bomb or a parser hang kills only that process, never the activity worker.
 * (Not a worker thread: a thread that reaches its heap limit can abort the whole process,
 * nodejs/node#47224 — seen here about once in eight runs of the heap-limit test.) The process loads
 * its parser, says `ready` on stderr, is put under the memory bound, then gets the file on stdin
 * and writes `{ text }` or `{ error }` as JSON on stdout. It runs with an empty environment, so no
 * secret of the worker's reaches a parser.
 *
 * The child's code is a plain CommonJS string (not a module file) so it runs the same under
 * tsx, jest and the compiled build; the parsers it loads are resolved here and passed in.
 */
import { spawn } from 'node:child_process';
import type { DocumentKind, ParseLimits } from './parse-limits';
import { type MemoryBound, type Placement, placeChild } from './parser-memory';

/** Runs in the parsing process: argv is [kind, modules as JSON], the file comes on stdin; writes { text } or { error }. */
const CHILD_CODE = `
const [kind, modulesJson] = process.argv.slice(1);
const modules = JSON.parse(modulesJson);
const parser = require(modules[kind]);
async function input() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return new Uint8Array(Buffer.concat(chunks));
}
async function extract() {
  const bytes = await input();
  if (kind === 'pdf') {
    const { extractText, getDocumentProxy } = parser;
    const pdf = await getDocumentProxy(new Uint8Array(bytes));
    const { text } = await extractText(pdf, { mergePages: false });
    return text.map((page, i) => '--- page ' + (i + 1) + ' ---\\n' + page).join('\\n\\n');
  }
  if (kind === 'docx') {
    const { value } = await parser.extractRawText({ buffer: Buffer.from(bytes) });
    return value;
  }
  if (kind === 'xlsx') {
    const sheets = await parser.default(Buffer.from(bytes));
    const cell = (value) => {
      const text = value === null || value === undefined ? '' : value instanceof Date ? value.toISOString() : String(value);
      return /[",\\n\\r]/.test(text) ? '"' + text.replace(/"/g, '""') + '"' : text;
    };
    return sheets
      .map(({ sheet, data }) => '--- sheet ' + sheet + ' ---\\n' + data.map((row) => row.map(cell).join(',')).join('\\n'))
      .join('\\n\\n');
  }
  return parser.convert(Buffer.from(bytes).toString('utf8'), { wordwrap: false });
}
const say = (reply) => process.stdout.write(JSON.stringify(reply), () => process.exit(0));
process.stderr.write('ready\\n');
// An allocation that failed (V8 raises RangeError for them; Node's own carry a code): said by type
// and code here, where the error is, so the parent never reads the message for it.
const OUT_OF_MEMORY = ['ERR_MEMORY_ALLOCATION_FAILED', 'ERR_BUFFER_TOO_LARGE', 'ERR_STRING_TOO_LONG', 'ENOMEM'];
const memory = (err) => err instanceof RangeError || OUT_OF_MEMORY.includes(err && err.code);
extract().then(
  (text) => say({ text }),
  (err) => say({ error: String((err && err.message) || err).slice(0, 300), memory: memory(err) }),
);
`;

/** The most text a parse may hand back (bytes of its JSON reply); past it the parse is refused. */
const MAX_REPLY_BYTES = 64 * 2 ** 20;

/** How a parse ended when it gave no text. */
export type ChildFailure =
  | { kind: 'error'; message: string }
  | { kind: 'timeout' }
  | { kind: 'reply-too-large'; mostBytes: number }
  /** V8 aborted at its heap limit, the kernel killed it at its cgroup's, or an allocation failed under RLIMIT_AS. */
  | { kind: 'memory'; limitBytes?: number; peakBytes?: number }
  | { kind: 'stopped' };

/** Thrown by runParserChild: why the parse gave no text, and the placement it had. */
export class ChildFailed extends Error {
  constructor(readonly failure: ChildFailure) {
    super(failure.kind);
  }
}

let modules: Record<DocumentKind, string> | undefined;
let started = 0;

/** How many parser children this process has started (tests read it to see a parse was served from the cache). */
export const parserChildrenStarted = (): number => started;

/** Absolute paths of the parser packages by kind, resolved here (the child has no module context). */
function parserModules(): Record<DocumentKind, string> {
  return (modules ??= {
    pdf: require.resolve('unpdf'),
    docx: require.resolve('mammoth'),
    html: require.resolve('html-to-text'),
    xlsx: require.resolve('read-excel-file/node'),
  });
}

/**
 * Parses `bytes` as `kind` in a fresh child process under `bound`.
 * @returns its text; @throws ChildFailed saying why not (the process is gone either way).
 * `onPlaced` sees the placement once the child is under its bound (tests read its cgroup).
 */
export function runParserChild(
  kind: DocumentKind,
  bytes: Uint8Array,
  limits: ParseLimits,
  bound: MemoryBound,
  onPlaced?: (placement: Placement) => void,
): Promise<string> {
  const args = [`--max-old-space-size=${limits.heapMb}`, '-e', CHILD_CODE, kind, JSON.stringify(parserModules())];
  const child = spawn(process.execPath, args, { env: {}, stdio: ['pipe', 'pipe', 'pipe'] });
  started++;
  return new Promise<string>((resolve, reject) => {
    let settled = false;
    let placement: Placement | undefined;
    const out: Buffer[] = [];
    let outBytes = 0;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      outcome();
    };
    const fail = (failure: ChildFailure) => settle(() => reject(new ChildFailed(failure)));
    const timer = setTimeout(() => fail({ kind: 'timeout' }), limits.timeoutMs);
    let ready = false;
    let said = ''; // the tail of stderr: a warning printed while loading the parser may come first
    child.stderr.on('data', (chunk: Buffer) => {
      if (ready) return;
      said = (said + chunk.toString('utf8')).slice(-4096);
      if (!/(^|\n)ready\n/.test(said)) return;
      ready = true;
      const pid = child.pid;
      if (pid === undefined) return;
      placeChild(bound, pid, limits.memoryMb * 2 ** 20).then(
        (placed) => {
          placement = placed;
          onPlaced?.(placed);
          if (settled) placed.release();
          else child.stdin.end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
        },
        () => fail({ kind: 'error', message: 'the parser could not be put under its memory limit' }),
      );
    });
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > MAX_REPLY_BYTES) fail({ kind: 'reply-too-large', mostBytes: MAX_REPLY_BYTES });
      else out.push(chunk);
    });
    child.stdin.on('error', () => undefined); // a parser that died before reading all: its exit says why
    child.on('error', () => fail({ kind: 'stopped' }));
    child.on('close', (code: number | null, signal: NodeJS.Signals | null) => {
      const reply = parseReply(Buffer.concat(out).toString('utf8'));
      const killed = placement?.killedByLimit() ?? false;
      const memory: ChildFailure = {
        kind: 'memory',
        limitBytes: placement?.limitBytes,
        peakBytes: placement?.peakBytes(),
      };
      if (typeof reply?.text === 'string') {
        const text = reply.text;
        settle(() => resolve(text));
      } else if (typeof reply?.error === 'string') {
        // Under RLIMIT_AS most failed allocations do not abort V8: the child says so by the error's type.
        fail(reply.memory === true ? memory : { kind: 'error', message: reply.error });
      } else if (killed || signal === 'SIGABRT' || code === 134 || (signal === 'SIGKILL' && placement?.cgroup)) {
        fail(memory);
      } else fail({ kind: 'stopped' });
      placement?.release();
    });
  });
}

/** The child's JSON reply, or undefined when it wrote none (it died). */
function parseReply(json: string): { text?: unknown; error?: unknown; memory?: unknown } | undefined {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}
