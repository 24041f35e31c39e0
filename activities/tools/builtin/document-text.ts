/**
 * Text out of documents (PDF, DOCX, XLSX, HTML) for `read_file`. Each parse runs in its own child
 * process (parser-child.ts) with a heap limit, a bound on its whole memory (parser-memory.ts) and a
 * deadline; a DOCX or XLSX is checked in the worker first (zip-check.ts); and at most
 * MAX_PARSER_CHILDREN parse at once per worker, so parallel steps cannot multiply the memory
 * parsers take. Past the memory bound a parse is a tool error starting with DOCUMENT_TOO_LARGE.
 */
import { extname } from 'node:path';
import type { ErrorCode } from '../../../workflows/base/error-codes';
import { ChildFailed, type ChildFailure, runParserChild } from './parser-child';
import { memoryBound } from './parser-memory';
import { zipRefusal } from './zip-check';
import type { DocumentKind, ParseLimits } from './parse-limits';

export { zipInflatedSize } from './zip-check';

export type { DocumentKind, ParseLimits } from './parse-limits';

/** The default bounds: a 256 MiB heap, 320 MiB in all past the loaded parser, 10 s per file. */
export const PARSE_LIMITS: ParseLimits = { heapMb: 256, memoryMb: 320, inflatedMb: 256, timeoutMs: 10_000 };

/** Parser children one worker runs at once; more parses wait for one to end. */
export const MAX_PARSER_CHILDREN = 2;

/** The code a parse that needed more memory than its bound starts its error with. */
export const DOCUMENT_TOO_LARGE = 'DOCUMENT_TOO_LARGE' satisfies ErrorCode;

/** A parse stopped at its memory bound; its message starts with the code, for the model. */
export class DocumentTooLargeError extends Error {
  readonly code = DOCUMENT_TOO_LARGE;
  constructor(
    shown: string,
    kind: DocumentKind,
    why: string,
    /** The child's cgroup peak, in bytes, where a cgroup bounded it. */
    readonly peakBytes?: number,
    /** The limit it ran under, in bytes. */
    readonly limitBytes?: number,
  ) {
    super(`${DOCUMENT_TOO_LARGE}: "${shown}" cannot be read as ${kind}: document too large to parse (${why})`);
  }
}

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

/** Runs one parse in a child; tests pass a fake to count children without spawning. */
export type RunChild = (kind: DocumentKind, bytes: Uint8Array, limits: ParseLimits) => Promise<string>;

/** Lets at most `size` callers hold it at once; the rest wait in order. */
export class Semaphore {
  private held = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(readonly size: number) {}
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.held >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.held++;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.held--;
    }
  }
}

/** The message of a parse that gave no text. */
function refusal(shown: string, kind: DocumentKind, limits: ParseLimits, failure: ChildFailure): Error {
  const cannot = (why: string) => new Error(`"${shown}" cannot be read as ${kind}: ${why}`);
  switch (failure.kind) {
    case 'error':
      return cannot(failure.message);
    case 'timeout':
      return cannot(`parsing took longer than ${limits.timeoutMs / 1000} s`);
    case 'reply-too-large':
      return cannot(`its text is over ${failure.mostBytes / 2 ** 20} MiB`);
    case 'memory':
      return new DocumentTooLargeError(
        shown,
        kind,
        `parsing needed more than ${limits.heapMb} MiB of heap or ${limits.memoryMb} MiB in all`,
        failure.peakBytes,
        failure.limitBytes,
      );
    case 'stopped':
      return cannot('the parser stopped');
  }
}

/** A document parser: checks zips first, runs at most `maxChildren` parses at once, each via `runChild`. */
export function createDocumentParser(
  runChild: RunChild = (kind, bytes, limits) => runParserChild(kind, bytes, limits, memoryBound()),
  maxChildren = MAX_PARSER_CHILDREN,
) {
  const slots = new Semaphore(maxChildren);
  return async (shown: string, kind: DocumentKind, bytes: Uint8Array, limits = PARSE_LIMITS): Promise<string> => {
    if (kind === 'docx' || kind === 'xlsx') {
      const why = await zipRefusal(bytes, limits.inflatedMb * 2 ** 20);
      if (why !== undefined) throw new Error(`"${shown}" cannot be read as ${kind}: ${why}`);
    }
    return slots.run(() =>
      runChild(kind, bytes, limits).catch((err: unknown) => {
        throw err instanceof ChildFailed ? refusal(shown, kind, limits, err.failure) : err;
      }),
    );
  };
}

/**
 * The text of the document `bytes`, parsed in a child process within `limits`, by this worker's
 * one parser (so its children share the MAX_PARSER_CHILDREN slots).
 * @throws Error with a message fit for the model when the file cannot be parsed, takes too long
 *   or needs too much memory (DocumentTooLargeError); the process is gone either way.
 */
export const documentText = createDocumentParser();
