/**
 * Decompression bombs made by tests, small on disk and cheap to build: a deflate stream of many
 * identical full-flush blocks (built once, repeated), an XLSX whose zip's local headers disagree
 * with its central directory, and a PDF whose FlateDecode content stream inflates to hundreds of MiB.
 */
import { constants, deflateRawSync } from 'node:zlib';
import { closeZip, makeXlsx } from './documents';

/** Raw deflate data inflating to `mib` MiB of spaces: one full-flush block repeated, then a final empty block. */
export function deflateBomb(mib: number): Buffer {
  const block = deflateRawSync(Buffer.alloc(2 ** 20, ' '), { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  return Buffer.concat([...Array.from({ length: mib }, () => block), deflateRawSync(Buffer.alloc(0))]);
}

/**
 * An XLSX whose worksheet inflates to `mib` MiB while its central directory declares 1000 bytes.
 * With `lie: 'local-header'` the sheet's local header gives its true sizes, which disagree with the
 * directory; with `lie: 'descriptor'` it sets the data-descriptor flag with zero sizes and the
 * descriptor repeats the directory's lie. Either way a streaming unzipper reads the local header,
 * inflates until the deflate stream ends, and never sees the directory's sizes.
 */
export function makeLyingXlsx(mib: number, lie: 'local-header' | 'descriptor' = 'local-header'): Buffer {
  const honest = makeXlsx('Stock', [['item', 'qty']]);
  const sheet = Buffer.from('xl/worksheets/sheet1.xml');
  const parts: Buffer[] = [];
  const centrals: Buffer[] = [];
  let at = 0;
  let offset = 0;
  // Walk the honest zip's local entries; copy each, swapping the sheet's data for the bomb.
  while (honest.readUInt32LE(at) === 0x04034b50) {
    const nameLength = honest.readUInt16LE(at + 26);
    const name = honest.subarray(at + 30, at + 30 + nameLength);
    const packed = honest.readUInt32LE(at + 18);
    const local = Buffer.from(honest.subarray(at, at + 30 + nameLength));
    let data = honest.subarray(at + 30 + nameLength, at + 30 + nameLength + packed);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    local.copy(central, 6, 4, 30); // version needed .. name length, as the local header had them
    central.writeUInt32LE(offset, 42);
    if (name.equals(sheet)) {
      data = deflateBomb(mib);
      if (lie === 'descriptor') {
        local.writeUInt16LE(0x0008, 6); // sizes follow the data ...
        local.fill(0, 14, 26); // ... so the local header says 0
        central.writeUInt16LE(0x0008, 8);
      } else {
        local.writeUInt32LE(data.length, 18);
        local.writeUInt32LE(mib * 2 ** 20, 22); // the local header tells the truth
      }
      central.writeUInt32LE(data.length, 20);
      central.writeUInt32LE(1000, 24); // the directory lies: 1000 bytes inflated
    }
    const descriptor = Buffer.alloc(name.equals(sheet) && lie === 'descriptor' ? 16 : 0);
    if (descriptor.length) {
      descriptor.writeUInt32LE(0x08074b50, 0);
      central.copy(descriptor, 4, 16, 28);
    }
    parts.push(local, data, descriptor);
    centrals.push(central, name);
    offset += local.length + data.length + descriptor.length;
    at += 30 + nameLength + packed;
  }
  return closeZip(parts, centrals, offset);
}

/** A one-page PDF whose content stream is FlateDecode data inflating to `mib` MiB of spaces. */
export function makePdfFlateBomb(mib: number): Buffer {
  // zlib framing around the raw deflate data: a header, and an Adler-32 nobody checks before inflating.
  const stream = Buffer.concat([Buffer.from([0x78, 0xda]), deflateBomb(mib), Buffer.alloc(4)]);
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>',
  ];
  const chunks: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  let length = chunks[0]!.length;
  const offsets: number[] = [];
  const add = (chunk: Buffer) => {
    chunks.push(chunk);
    length += chunk.length;
  };
  objects.forEach((body, i) => {
    offsets.push(length);
    add(Buffer.from(`${i + 1} 0 obj\n${body}\nendobj\n`));
  });
  offsets.push(length);
  add(Buffer.from(`4 0 obj\n<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`));
  add(stream);
  add(Buffer.from('\nendstream\nendobj\n'));
  const xref = length;
  const rows = offsets.map((at) => `${String(at).padStart(10, '0')} 00000 n \n`).join('');
  add(
    Buffer.from(
      `xref\n0 5\n0000000000 65535 f \n${rows}trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`,
    ),
  );
  return Buffer.concat(chunks);
}
