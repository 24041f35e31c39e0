/**
 * The names uploaded files are stored under, in `inputs/` of the agent's folder: the name as sent
 * when it is safe, else a sanitised one that keeps its extension. A stored name is one plain file
 * name on every common file system — no separator, no `..`, no leading dot, no control or
 * Windows-reserved character or device name, at most 200 bytes — and unique in its request.
 */

/** Longest stored name, in UTF-8 bytes (file systems allow 255; room is left for a suffix). */
export const MAX_NAME_BYTES = 200;

/**
 * Longest name a sender may give, in UTF-8 bytes (what file systems allow): a longer one is
 * refused before any of the work below is done on it.
 */
export const MAX_SENT_NAME_BYTES = 255;

/** Characters no stored name holds: controls (NUL included), DEL and Windows' reserved ones. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
const UNSAFE = /[\u0000-\u001f\u007f<>:"|?*]/g;

/** Device names Windows reserves, with or without an extension. */
const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** UTF-8 bytes of one code point (a lone surrogate is written as U+FFFD: 3). */
function codePointBytes(ch: string): number {
  const cp = ch.codePointAt(0) ?? 0;
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

/** `text` cut to at most `max` UTF-8 bytes, never inside a character; one pass. */
function cutToBytes(text: string, max: number): string {
  let used = 0;
  let end = 0;
  for (const ch of text) {
    used += codePointBytes(ch);
    if (used > max) break;
    end += ch.length;
  }
  return text.slice(0, end);
}

/** `text` without its trailing dots and white space; a loop, where a regex would backtrack. */
function trimTrailingDotsAndSpaces(text: string): string {
  let end = text.length;
  while (end > 0) {
    const ch = text.charAt(end - 1);
    if (ch !== '.' && !/\s/.test(ch)) break;
    end -= 1;
  }
  return text.slice(0, end);
}

/** The name split at its last dot: `report.final.pdf` → `report.final` and `.pdf` (none: ''). */
function splitExtension(name: string): { stem: string; ext: string } {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return { stem: name, ext: '' };
  return { stem: name.slice(0, dot), ext: name.slice(dot) };
}

/**
 * A safe stored name for the file name a sender gave. Path parts are dropped (`../../x.pdf` →
 * `x.pdf`, `a\b.txt` → `b.txt`: what a browser sends for `C:\a\b.txt` is its last part), unsafe
 * characters become `_`, runs of dots one dot, leading dots and spaces and trailing dots and
 * spaces go, a device name gets a leading `_`, a long name is cut keeping its extension. Nothing
 * left: `upload`.
 */
export function safeUploadName(sent: string): string {
  const last = sent
    .normalize('NFC')
    .split(/[/\\]/)
    .filter((part) => part !== '' && part !== '.' && part !== '..');
  let name = (last.at(-1) ?? '')
    .replace(UNSAFE, '_')
    .replace(/\.{2,}/g, '.')
    .replace(/^[.\s]+/, '');
  name = trimTrailingDotsAndSpaces(name);
  if (RESERVED.test(splitExtension(name).stem)) name = `_${name}`;
  if (name === '' || name === '_') name = 'upload';
  if (bytes(name) <= MAX_NAME_BYTES) return name;
  const kept = splitExtension(name);
  // An extension longer than a quarter of the room is not one worth keeping.
  const extension = bytes(kept.ext) <= MAX_NAME_BYTES / 4 ? kept.ext : '';
  return cutToBytes(extension ? kept.stem : name, MAX_NAME_BYTES - bytes(extension)) + extension;
}

/** A numbered name's number: `report-3` → 3 (at most 9 digits, so it stays a safe integer). */
const NUMBERED = /-([0-9]{1,9})$/;

/**
 * The names taken so far, ignoring case, and for each name the highest number a numbered one of
 * it (`name-<n>.ext`) took: the next copy gets the number after that, found in one step instead
 * of trying `-2`, `-3`, … one by one against a folder that may hold thousands.
 */
class TakenNames {
  private readonly names = new Set<string>();
  private readonly highest = new Map<string, number>();

  constructor(names: readonly string[]) {
    for (const name of names) this.add(name);
  }

  has(name: string): boolean {
    return this.names.has(name.toLowerCase());
  }

  add(name: string): void {
    const lower = name.toLowerCase();
    this.names.add(lower);
    const { stem, ext } = splitExtension(lower);
    const numbered = NUMBERED.exec(stem);
    if (!numbered) return;
    const key = stem.slice(0, numbered.index) + ext;
    this.highest.set(key, Math.max(this.highest.get(key) ?? 0, Number(numbered[1])));
  }

  /** The first number worth trying for another copy of `name`: 2, or one past the highest taken. */
  nextNumber(name: string): number {
    return Math.max(2, (this.highest.get(name.toLowerCase()) ?? 0) + 1);
  }
}

/**
 * Stored names for a request's files, in order: each safe, and none equal to another ignoring
 * case (a case-insensitive disk would make them one file), nor to a name in `existing` (files
 * already in the folder: a thread's later messages add to its `inputs/`) — a later one becomes
 * `name-2.ext`, `name-3.ext`, …, numbered one past the highest such name taken.
 */
export function uniqueUploadNames(sent: readonly string[], existing: readonly string[] = []): string[] {
  const taken = new TakenNames(existing);
  return sent.map((original) => {
    const name = safeUploadName(original);
    let chosen = name;
    if (taken.has(name)) {
      const { stem, ext } = splitExtension(name);
      // A name cut to make room for its number may meet another: then the next number.
      for (let n = taken.nextNumber(name); taken.has(chosen); n++) {
        const suffix = `-${n}${ext}`;
        chosen = cutToBytes(stem, MAX_NAME_BYTES - bytes(suffix)) + suffix;
      }
    }
    taken.add(chosen);
    return chosen;
  });
}

/** The extension a type check judges: lower case, no dot; '' when the name has none. */
export function uploadExtension(name: string): string {
  return splitExtension(name).ext.slice(1).toLowerCase();
}
