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
  ['a . .\u00a0. ', 'a'],
  ['dots. in. the. middle .txt', 'dots. in. the. middle .txt'],
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

test('a name cut for its number keeps whole characters within 200 bytes', () => {
  const long = `${'ü'.repeat(99)}a.txt`; // 203 bytes: stored cut to 200
  const [first, second] = uniqueUploadNames([long, long]);
  expect(Buffer.byteLength(first ?? '')).toBeLessThanOrEqual(MAX_NAME_BYTES);
  expect(second).toMatch(/^ü+-2\.txt$/);
  expect(Buffer.byteLength(second ?? '')).toBeLessThanOrEqual(MAX_NAME_BYTES);
});

test('a copy among thousands of numbered ones is numbered one past the highest, without trying each number', () => {
  const existing = ['a.txt', ...Array.from({ length: 4_999 }, (_, i) => `a-${i + 2}.TXT`)];
  const has = jest.spyOn(Set.prototype, 'has');
  try {
    expect(uniqueUploadNames(['a.txt', 'A.txt', 'b.txt'], existing)).toEqual(['a-5001.txt', 'A-5002.txt', 'b.txt']);
    // A look or two per name, not one per number already taken.
    expect(has.mock.calls.length).toBeLessThan(20);
  } finally {
    has.mockRestore();
  }
});

test('a gap in the numbers is not filled: the next copy goes past the highest', () => {
  expect(uniqueUploadNames(['r.md'], ['r.md', 'r-7.md'])).toEqual(['r-8.md']);
});
