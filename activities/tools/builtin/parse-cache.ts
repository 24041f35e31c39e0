/**
 * The text of recently parsed documents, so that reading a long document page by page parses it
 * once rather than once per `read_file { page }` call. Keyed by the file's place (workspace and
 * path), its size and a SHA-256 of its bytes: `read_file` reads the bytes on every call anyway,
 * and a digest, unlike a modification time, cannot miss a rewrite within the clock's resolution.
 * Least recently used first out; a bound on entries and on the characters held keeps the
 * worker's memory small (a text over the character bound is not kept at all).
 */
import { createHash } from 'node:crypto';

/** Documents whose text one worker keeps. */
export const PARSE_CACHE_ENTRIES = 8;
/** Characters of text one worker keeps in all (about 32 MiB as UTF-16). */
export const PARSE_CACHE_CHARS = 16 * 2 ** 20;

/** A least-recently-used map of parsed text. */
export class ParseCache {
  private readonly texts = new Map<string, string>();
  private chars = 0;

  constructor(
    readonly entries = PARSE_CACHE_ENTRIES,
    readonly maxChars = PARSE_CACHE_CHARS,
  ) {}

  /** The key of the file at `path` in `workspace` holding `bytes`. */
  static key(workspace: string, path: string, bytes: Uint8Array): string {
    const digest = createHash('sha256').update(bytes).digest('hex');
    return `${workspace}\0${path}\0${bytes.length}\0${digest}`;
  }

  /** The text under `key`, parsing it with `parse` when not kept (a failed parse is not kept). */
  async get(key: string, parse: () => Promise<string>): Promise<string> {
    const kept = this.texts.get(key);
    if (kept !== undefined) {
      this.texts.delete(key);
      this.texts.set(key, kept);
      return kept;
    }
    const text = await parse();
    if (text.length > this.maxChars) return text;
    if (!this.texts.has(key)) {
      this.texts.set(key, text);
      this.chars += text.length;
    }
    for (const [oldest, old] of this.texts) {
      if (this.texts.size <= this.entries && this.chars <= this.maxChars) break;
      this.texts.delete(oldest);
      this.chars -= old.length;
    }
    return text;
  }
}
