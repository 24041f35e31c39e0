/**
 * Stored names of uploads (client/uploads/upload-names.ts): a safe name is kept as sent; anything
 * else becomes one plain file name that keeps its extension, unique in its request.
 */
import { MAX_NAME_BYTES, safeUploadName, uniqueUploadNames } from '../../client/uploads/upload-names';

test.each(['brief.pdf', 'Q3 report (final).xlsx', 'Übersicht.docx', 'data.v2.csv', '日本語.txt'])(
  'a safe name is kept as sent: %s',
  (name) => expect(safeUploadName(name)).toBe(name),
);

test.each([
  ['../../x.pdf', 'x.pdf'],
  ['a/b.txt', 'b.txt'],
  ['C:\\Users\\ada\\brief.pdf', 'brief.pdf'],
  ['.env', 'env'],
  ['...hidden.txt', 'hidden.txt'],
  ['nul\u0000byte.txt', 'nul_byte.txt'],
  ['line\nbreak.csv', 'line_break.csv'],
  ['what?.md', 'what_.md'],
  ['a..b.txt', 'a.b.txt'],
  ['trailing. ', 'trailing'],
  ['CON.txt', '_CON.txt'],
  ['lpt1', '_lpt1'],
  ['..', 'upload'],
  ['', 'upload'],
  ['/', 'upload'],
])('%j is stored as %j', (sent, stored) => expect(safeUploadName(sent)).toBe(stored));

test('a long name is cut to the byte limit, keeping its extension and whole characters', () => {
  const ascii = safeUploadName(`${'a'.repeat(400)}.pdf`);
  expect(Buffer.byteLength(ascii)).toBe(MAX_NAME_BYTES);
  expect(ascii.endsWith('.pdf')).toBe(true);
  const wide = safeUploadName(`${'ü'.repeat(300)}.docx`);
  expect(Buffer.byteLength(wide)).toBeLessThanOrEqual(MAX_NAME_BYTES);
  expect(wide).toMatch(/^ü+\.docx$/);
});

test('the documented bound: a stored name is at most 200 bytes, and a longer one is cut to exactly 200', () => {
  // docs/contracts.md, "HTTP API" > "Uploads" > Names: "a name over 200 bytes is cut keeping its
  // extension". The literal, not MAX_NAME_BYTES: a changed constant must fail here.
  expect(safeUploadName(`${'a'.repeat(196)}.pdf`)).toBe(`${'a'.repeat(196)}.pdf`); // 200 bytes: kept
  const cut = safeUploadName(`${'a'.repeat(250)}.pdf`); // 254 bytes: under 255, still cut
  expect(Buffer.byteLength(cut)).toBe(200);
  expect(cut).toBe(`${'a'.repeat(196)}.pdf`);
});

test('names equal but for case get a numbered suffix before the extension', () => {
  expect(uniqueUploadNames(['a.txt', 'A.TXT', 'a.txt', '../a.txt', 'b'])).toEqual([
    'a.txt',
    'A-2.TXT',
    'a-3.txt',
    'a-4.txt',
    'b',
  ]);
});
