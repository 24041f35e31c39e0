/**
 * Tells reasoning from text in streamed content: a model that thinks inline writes
 * `<think>…</think>` into its content, and the tags may be cut across chunks. The splitter
 * holds back a tail that may be the start of a tag until the next piece says, so no tag ever
 * leaks into a text delta. The durable reply is still read whole (read-completion.ts): this only
 * labels what viewers see as it forms.
 */

/** A piece of streamed content and what it is. */
export interface ContentPiece {
  channel: 'text' | 'reasoning';
  text: string;
}

const OPEN = '<think>';
const CLOSE = '</think>';

/** How long a suffix of `text` is the start of `tag` (case-insensitive). */
function partialTag(text: string, tag: string): number {
  const lower = text.toLowerCase();
  for (let n = Math.min(tag.length - 1, lower.length); n > 0; n--) {
    if (tag.startsWith(lower.slice(lower.length - n))) return n;
  }
  return 0;
}

/** Splits one reply's content, piece by piece, into text and reasoning. */
export class ThinkSplitter {
  private inside = false;
  private held = '';

  /** The labelled pieces `piece` completes (possibly none, while a tag may be forming). */
  push(piece: string): ContentPiece[] {
    const out: ContentPiece[] = [];
    let rest = this.held + piece;
    this.held = '';
    while (rest !== '') {
      const tag = this.inside ? CLOSE : OPEN;
      const at = rest.toLowerCase().indexOf(tag);
      if (at >= 0) {
        this.emit(out, rest.slice(0, at));
        rest = rest.slice(at + tag.length);
        this.inside = !this.inside;
        continue;
      }
      const keep = partialTag(rest, tag);
      this.emit(out, rest.slice(0, rest.length - keep));
      this.held = rest.slice(rest.length - keep);
      break;
    }
    return out;
  }

  /** What is still held back once the content has ended (a tag that never completed is text). */
  flush(): ContentPiece[] {
    const out: ContentPiece[] = [];
    this.emit(out, this.held);
    this.held = '';
    return out;
  }

  private emit(out: ContentPiece[], text: string): void {
    if (text !== '') out.push({ channel: this.inside ? 'reasoning' : 'text', text });
  }
}
