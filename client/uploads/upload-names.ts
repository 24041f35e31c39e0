/**
 * The names uploaded files are stored under, in `inputs/` of the agent's folder: the name as sent
 * when it is safe, else a sanitised one that keeps its extension. A stored name is one plain file
 * name on every common file system — no separator, no `..`, no leading dot, no control or
 * Windows-reserved character or device name, at most 200 bytes — and unique in its request.
 */

/** Longest stored name, in UTF-8 bytes (file systems allow 255; room is left for a suffix). */
export const MAX_NAME_BYTES = 200;

/** Characters no stored name holds: controls (NUL included), DEL and Windows' reserved ones. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
const UNSAFE = /[\u0000-\u001f\u007f<>:"|?*]/g;

/** Device names Windows reserves, with or without an extension. */
const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** `text` cut to at most `max` UTF-8 bytes, never inside a character. */
function cutToBytes(text: string, max: number): string {
  let out = '';
  for (const ch of text) {
    if (bytes(out + ch) > max) break;
    out += ch;
  }
  return out;
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
    .replace(/^[.\s]+/, '')
    .replace(/[.\s]+$/, '');
  if (RESERVED.test(splitExtension(name).stem)) name = `_${name}`;
  if (name === '' || name === '_') name = 'upload';
  if (bytes(name) <= MAX_NAME_BYTES) return name;
  const kept = splitExtension(name);
  // An extension longer than a quarter of the room is not one worth keeping.
  const extension = bytes(kept.ext) <= MAX_NAME_BYTES / 4 ? kept.ext : '';
  return cutToBytes(extension ? kept.stem : name, MAX_NAME_BYTES - bytes(extension)) + extension;
}

/**
 * Stored names for a request's files, in order: each safe, and none equal to another ignoring
 * case (a case-insensitive disk would make them one file), nor to a name in `existing` (files
 * already in the folder: a thread's later messages add to its `inputs/`) — a later one becomes
 * `name-2.ext`, `name-3.ext`, …
 */
export function uniqueUploadNames(sent: readonly string[], existing: readonly string[] = []): string[] {
  const taken = new Set<string>(existing.map((name) => name.toLowerCase()));
  return sent.map((original) => {
    const name = safeUploadName(original);
    let chosen = name;
    const { stem, ext } = splitExtension(name);
    for (let n = 2; taken.has(chosen.toLowerCase()); n++) {
      const suffix = `-${n}${ext}`;
      chosen = cutToBytes(stem, MAX_NAME_BYTES - bytes(suffix)) + suffix;
    }
    taken.add(chosen.toLowerCase());
    return chosen;
  });
}

/** The extension a type check judges: lower case, no dot; '' when the name has none. */
export function uploadExtension(name: string): string {
  return splitExtension(name).ext.slice(1).toLowerCase();
}
