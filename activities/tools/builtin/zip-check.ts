/**
 * Checks a DOCX or XLSX zip in the worker before any parser sees it. The parsers do not read a zip
 * the same way: the DOCX parser (jszip) goes by the central directory at the end, the XLSX parser
 * (a streaming unzipper) by the local header in front of each entry and inflates until the deflate
 * stream ends. A zip whose local headers say something else than its directory (sizes, a data
 * descriptor, an entry the directory does not list) passes a check of one and bombs the other. So
 * the local headers must lie back to back from the first byte to the directory, each agreeing
 * with its directory entry, and every entry must inflate to exactly its declared size (counted
 * while inflating, output discarded, so the check holds only a chunk at a time).
 */
import { createInflateRaw } from 'node:zlib';

const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;
const END = 0x06054b50;
const DESCRIPTOR = 0x08074b50;
/** General purpose flag bit 3: sizes and CRC follow the data in a data descriptor. */
const HAS_DESCRIPTOR = 0x0008;

/** One entry as the central directory declares it. */
interface Entry {
  name: Buffer;
  flags: number;
  method: number;
  crc: number;
  packed: number;
  size: number;
  offset: number;
}

const view = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** The central directory's entries, or why it cannot be read (zip64, other disks, out of range). */
function directory(zip: Buffer): { entries: Entry[]; start: number } | string {
  let end = -1;
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at--) {
    if (zip.readUInt32LE(at) === END) {
      end = at;
      break;
    }
  }
  if (end < 0) return 'its zip directory is unreadable';
  const count = zip.readUInt16LE(end + 10);
  const start = zip.readUInt32LE(end + 16);
  if (zip.readUInt16LE(end + 4) !== 0 || zip.readUInt16LE(end + 8) !== count || start === 0xffffffff) {
    return 'its zip directory is unreadable';
  }
  const entries: Entry[] = [];
  let at = start;
  for (let i = 0; i < count; i++) {
    if (at + 46 > end || zip.readUInt32LE(at) !== CENTRAL) return 'its zip directory is unreadable';
    const nameLength = zip.readUInt16LE(at + 28);
    const entry: Entry = {
      flags: zip.readUInt16LE(at + 8),
      method: zip.readUInt16LE(at + 10),
      crc: zip.readUInt32LE(at + 16),
      packed: zip.readUInt32LE(at + 20),
      size: zip.readUInt32LE(at + 24),
      name: zip.subarray(at + 46, at + 46 + nameLength),
      offset: zip.readUInt32LE(at + 42),
    };
    if (entry.packed === 0xffffffff || entry.size === 0xffffffff || entry.offset === 0xffffffff) {
      return 'its zip directory is unreadable';
    }
    entries.push(entry);
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return { entries, start };
}

/**
 * The total size a zip's entries inflate to, from its central directory; Infinity when it cannot
 * be read or uses zip64.
 */
export function zipInflatedSize(bytes: Uint8Array): number {
  const read = directory(view(bytes));
  return typeof read === 'string' ? Infinity : read.entries.reduce((total, entry) => total + entry.size, 0);
}

/**
 * Where the entry's data ends (after its data descriptor, if any), or why its local header
 * disagrees with the directory.
 */
function localEnd(zip: Buffer, entry: Entry, at: number): number | string {
  const name = entry.name.toString('utf8');
  const disagree = `its zip's local header of "${name}" disagrees with its directory`;
  if (entry.offset !== at) return `its zip holds data the directory does not list (before "${name}")`;
  if (at + 30 > zip.length || zip.readUInt32LE(at) !== LOCAL) return disagree;
  const nameLength = zip.readUInt16LE(at + 26);
  const dataAt = at + 30 + nameLength + zip.readUInt16LE(at + 28);
  if (
    zip.readUInt16LE(at + 6) !== entry.flags ||
    zip.readUInt16LE(at + 8) !== entry.method ||
    !zip.subarray(at + 30, at + 30 + nameLength).equals(entry.name)
  ) {
    return disagree;
  }
  const [crc, packed, size] = [zip.readUInt32LE(at + 14), zip.readUInt32LE(at + 18), zip.readUInt32LE(at + 22)];
  const deferred = (entry.flags & HAS_DESCRIPTOR) !== 0;
  const agrees = crc === entry.crc && packed === entry.packed && size === entry.size;
  // With a data descriptor the local fields may be zero; then the descriptor must agree instead.
  if (!agrees && !(deferred && crc === 0 && packed === 0 && size === 0)) return disagree;
  let end = dataAt + entry.packed;
  if (deferred) {
    if (end + 4 <= zip.length && zip.readUInt32LE(end) === DESCRIPTOR) end += 4;
    if (end + 12 > zip.length) return disagree;
    const described = [zip.readUInt32LE(end), zip.readUInt32LE(end + 4), zip.readUInt32LE(end + 8)];
    if (described[0] !== entry.crc || described[1] !== entry.packed || described[2] !== entry.size) return disagree;
    end += 12;
  }
  return end;
}

/** How many bytes `packed` (raw deflate) inflates to, stopping as soon as it passes `most`. */
function inflatedLength(packed: Buffer, most: number): Promise<number> {
  return new Promise((resolve) => {
    const inflate = createInflateRaw();
    let length = 0;
    inflate.on('data', (chunk: Buffer) => {
      length += chunk.length;
      if (length > most) {
        inflate.destroy();
        resolve(length);
      }
    });
    inflate.on('error', () => resolve(-1));
    inflate.on('end', () => resolve(length));
    inflate.end(packed);
  });
}

/**
 * Why the zip `bytes` must not reach a parser, or undefined when it may: an unreadable
 * directory, more than `maxInflated` bytes declared, a local header that disagrees with the
 * directory, data the directory does not list, or an entry that inflates to another size than it
 * declares.
 */
export async function zipRefusal(bytes: Uint8Array, maxInflated: number): Promise<string | undefined> {
  const zip = view(bytes);
  const read = directory(zip);
  if (typeof read === 'string') return read;
  const declared = read.entries.reduce((total, entry) => total + entry.size, 0);
  if (declared > maxInflated) return `it inflates to ${declared} bytes, over ${maxInflated / 2 ** 20} MiB`;
  let at = 0;
  for (const entry of [...read.entries].sort((a, b) => a.offset - b.offset)) {
    const end = localEnd(zip, entry, at);
    if (typeof end === 'string') return end;
    at = end;
  }
  if (at !== read.start) return 'its zip holds data the directory does not list (before the directory)';
  for (const entry of read.entries) {
    const dataAt = entry.offset + 30 + zip.readUInt16LE(entry.offset + 26) + zip.readUInt16LE(entry.offset + 28);
    const packed = zip.subarray(dataAt, dataAt + entry.packed);
    const length =
      entry.method === 0 ? packed.length : entry.method === 8 ? await inflatedLength(packed, entry.size) : -1;
    if (length !== entry.size) {
      return `its zip entry "${entry.name.toString('utf8')}" does not inflate to the size its directory declares`;
    }
  }
  return undefined;
}
