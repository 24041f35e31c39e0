/**
 * read_file reads documents made here byte by byte: PDF, DOCX, XLSX, HTML and CSV as text, long text
 * in pages; a malformed PDF and a DOCX decompression bomb are refused with a message for the
 * model, and the next read still works.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PAGE_CHARS, readFileTool } from '../../activities/tools/builtin/read-file';
import { documentText, PARSE_LIMITS, zipInflatedSize } from '../../activities/tools/builtin/document-text';
import { cutOutput } from '../../workflows/model/tools/cut-output';
import { makeDocx, makeDocxBomb, makePdf, makeXlsx, makeZip } from '../harness/documents';
import { toolText } from '../../activities/tools/define-tool';

let workspace: string;

beforeAll(() => {
  workspace = mkdtempSync(join(tmpdir(), 'docs-'));
});

const put = (name: string, content: Buffer | string) => writeFileSync(join(workspace, name), content);
const read = (args: { path: string; page?: number }) =>
  readFileTool
    .run(readFileTool.input.parse(args), {
      workspace,
      ledgerDir: `${workspace}.ledger`,
      idempotencyKey: 'agent/s1/c1',
      signal: new AbortController().signal,
    })
    .then(toolText);

test('a PDF is read as the text of its pages', async () => {
  put('report.pdf', makePdf(['Quarterly revenue rose', 'Costs fell sharply']));
  const text = await read({ path: 'report.pdf' });
  expect(text).toMatch(/page 1[\s\S]*Quarterly revenue rose[\s\S]*page 2[\s\S]*Costs fell sharply/);
});

test('a PDF is recognised by its bytes whatever its name', async () => {
  put('scan.bin', makePdf(['Named oddly']));
  expect(await read({ path: 'scan.bin' })).toContain('Named oddly');
});

test('a DOCX is read as its paragraphs', async () => {
  put('memo.docx', makeDocx(['Dear team', 'The launch moves to May']));
  const text = await read({ path: 'memo.docx' });
  expect(text).toContain('Dear team');
  expect(text).toContain('The launch moves to May');
  expect(text).not.toContain('<w:');
});

test('an XLSX is read as comma-separated rows per sheet', async () => {
  put(
    'stock.xlsx',
    makeXlsx('Stock', [
      ['item', 'qty'],
      ['apples, red', 3],
      ['pears', 5],
    ]),
  );
  expect(await read({ path: 'stock.xlsx' })).toBe('--- sheet Stock ---\nitem,qty\n"apples, red",3\npears,5');
});

test('HTML is read as text without markup or scripts', async () => {
  put('page.html', '<html><body><h2>Menu</h2><p>Soup of the <b>day</b></p><script>steal()</script></body></html>');
  const text = await read({ path: 'page.html' });
  expect(text).toContain('Soup of the day');
  expect(text).not.toMatch(/<p>|steal/);
});

test('a CSV is read as it is', async () => {
  const csv = 'name,qty\napples,3\npears,5\n';
  put('stock.csv', csv);
  expect(await read({ path: 'stock.csv' })).toBe(csv);
});

test('long extracted text comes in pages, each saying how to get the next', async () => {
  const line = 'All work and no play makes Jack a dull boy. ';
  const paragraphs = Array.from({ length: Math.ceil((PAGE_CHARS * 2.5) / line.length) }, (_, i) => `${i} ${line}`);
  put('long.docx', makeDocx(paragraphs));
  const first = await read({ path: 'long.docx' });
  expect(first).toMatch(/^\[page 1 of 3; call read_file with page: 2 for more\]\n/);
  const third = await read({ path: 'long.docx', page: 3 });
  expect(third).toMatch(/^\[page 3 of 3\]\n/);
  expect(third).toContain(paragraphs.at(-1));
  expect(first).not.toContain(paragraphs.at(-1));
  // A full page with its header is kept whole in the conversation.
  expect(cutOutput(first)).toBe(first);
  await expect(read({ path: 'long.docx', page: 4 })).rejects.toThrow('has 3 pages; there is no page 4');
});

test('a long text file is whole without page and paged with it', async () => {
  const text = 'x'.repeat(PAGE_CHARS + 10);
  put('long.txt', text);
  expect(await read({ path: 'long.txt' })).toBe(text);
  expect(await read({ path: 'long.txt', page: 2 })).toBe(`[page 2 of 2]\n${'x'.repeat(10)}`);
});

test('a malformed PDF is refused with a message for the model', async () => {
  put('broken.pdf', '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 9 0 R >> garbage without xref');
  await expect(read({ path: 'broken.pdf' })).rejects.toThrow(/^"broken\.pdf" cannot be read as pdf: /);
});

test('a DOCX that inflates past the limit is refused, and the next read works', async () => {
  const bomb = makeDocxBomb(300 * 2 ** 20);
  expect(bomb.length).toBeLessThan(2 ** 20); // small on disk ...
  expect(zipInflatedSize(bomb)).toBeGreaterThan(256 * 2 ** 20); // ... huge inflated
  put('bomb.docx', bomb);
  await expect(read({ path: 'bomb.docx' })).rejects.toThrow(/inflates to \d+ bytes, over 256 MiB/);
  put('after.docx', makeDocx(['still here']));
  expect(await read({ path: 'after.docx' })).toContain('still here');
});

test('a DOCX bomb that declares small sizes is refused before parsing (it inflates past them), and the next read works', async () => {
  const bomb = makeDocxBomb(300 * 2 ** 20);
  // Declare every entry 1000 bytes inflated (local and central headers), under the size check.
  for (let at = 0; at < bomb.length - 4; at++) {
    if (bomb.readUInt32LE(at) === 0x04034b50) bomb.writeUInt32LE(1000, at + 22);
    if (bomb.readUInt32LE(at) === 0x02014b50) bomb.writeUInt32LE(1000, at + 24);
  }
  expect(zipInflatedSize(bomb)).toBeLessThan(2 ** 20);
  put('liar.docx', bomb);
  await expect(read({ path: 'liar.docx' })).rejects.toThrow(
    /^"liar\.docx" cannot be read as docx: its zip entry ".+" does not inflate to the size its directory declares/,
  );
  put('next.docx', makeDocx(['next one']));
  expect(await read({ path: 'next.docx' })).toContain('next one');
});

test('a parse that outgrows the heap limit kills only its process', async () => {
  // Passes the declared-size check, so only the thread's heap limit can stop it.
  const docx = makeDocxBomb(64 * 2 ** 20);
  await expect(
    documentText('big.docx', 'docx', docx, { ...PARSE_LIMITS, heapMb: 8, timeoutMs: 60_000 }),
  ).rejects.toThrow('parsing needed more than 8 MiB');
  expect(await documentText('ok.docx', 'docx', makeDocx(['alive']))).toContain('alive');
});

test('a parse over its time limit is stopped', async () => {
  const docx = makeDocx(Array.from({ length: 20_000 }, (_, i) => `paragraph ${i}`));
  await expect(documentText('slow.docx', 'docx', docx, { ...PARSE_LIMITS, timeoutMs: 1 })).rejects.toThrow(
    'parsing took longer than 0.001 s',
  );
});

test('a zip with an unreadable directory counts as too large', () => {
  const zip = makeZip({ 'a.txt': Buffer.from('x') });
  expect(zipInflatedSize(zip)).toBe(1);
  expect(zipInflatedSize(zip.subarray(0, zip.length - 22))).toBe(Infinity);
});
