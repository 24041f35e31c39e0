/**
 * What happens before and around a parser child, with a fake child that counts: a zip whose local
 * headers disagree with its directory is refused before any child starts, at most
 * MAX_PARSER_CHILDREN children run at once, and reading a document page by page parses it once.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createDocumentParser,
  type DocumentKind,
  MAX_PARSER_CHILDREN,
} from '../../activities/tools/builtin/document-text';
import { parserChildrenStarted } from '../../activities/tools/builtin/parser-child';
import { readFileTool } from '../../activities/tools/builtin/read-file';
import { toolText } from '../../activities/tools/define-tool';
import { makeDocx, makeXlsx, makeZip } from '../harness/documents';
import { makeLyingXlsx } from '../harness/bombs';

/** A fake child: records each parse it is asked for and answers when the test says (or at once). */
function fakeChildren(atOnce = false) {
  const started: { kind: DocumentKind; finish: (text: string) => void }[] = [];
  let running = 0;
  let most = 0;
  const runChild = (kind: DocumentKind) =>
    new Promise<string>((resolve) => {
      running++;
      most = Math.max(most, running);
      const finish = (text: string) => {
        running--;
        resolve(text);
      };
      started.push({ kind, finish });
      if (atOnce) finish('parsed');
    });
  return { started, runChild, most: () => most };
}

test('an XLSX whose local header disagrees with its zip directory is refused before any parser starts', async () => {
  const children = fakeChildren(true);
  const parse = createDocumentParser(children.runChild);
  await expect(parse('lying.xlsx', 'xlsx', makeLyingXlsx(2000, 'local-header'))).rejects.toThrow(
    `"lying.xlsx" cannot be read as xlsx: its zip's local header of "xl/worksheets/sheet1.xml" disagrees with its directory`,
  );
  expect(children.started).toHaveLength(0);
});

test("an XLSX whose data descriptor repeats the directory's lie is refused before any parser starts: it inflates past its declared size", async () => {
  const children = fakeChildren(true);
  const parse = createDocumentParser(children.runChild);
  await expect(parse('lying.xlsx', 'xlsx', makeLyingXlsx(2000, 'descriptor'))).rejects.toThrow(
    `its zip entry "xl/worksheets/sheet1.xml" does not inflate to the size its directory declares`,
  );
  expect(children.started).toHaveLength(0);
});

test('a DOCX with an entry its directory does not list is refused before any parser starts', async () => {
  const children = fakeChildren(true);
  const parse = createDocumentParser(children.runChild);
  const docx = makeDocx(['hello']);
  // Prepend an unlisted local entry: the directory's offsets now point past it.
  const hidden = makeZip({ 'hidden.xml': Buffer.alloc(1000, 'x') });
  const unlisted = hidden.subarray(0, hidden.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])));
  await expect(parse('extra.docx', 'docx', Buffer.concat([unlisted, docx]))).rejects.toThrow(
    /cannot be read as docx: its zip/,
  );
  expect(children.started).toHaveLength(0);
});

test('an honest XLSX and DOCX reach the parser', async () => {
  const children = fakeChildren();
  const parse = createDocumentParser(children.runChild);
  const both = [parse('a.xlsx', 'xlsx', makeXlsx('S', [['a', 1]])), parse('b.docx', 'docx', makeDocx(['b']))];
  while (children.started.length < 2) await new Promise((resolve) => setImmediate(resolve));
  children.started.forEach((child) => child.finish(child.kind));
  expect(await Promise.all(both)).toEqual(['xlsx', 'docx']);
});

test(`at most MAX_PARSER_CHILDREN (${MAX_PARSER_CHILDREN}) parser children run at once; the rest wait their turn`, async () => {
  expect(MAX_PARSER_CHILDREN).toBe(2);
  const children = fakeChildren();
  const parse = createDocumentParser(children.runChild);
  const parses = Array.from({ length: 5 }, (_, i) => parse(`${i}.pdf`, 'pdf', Buffer.from('%PDF-')));
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  await settle();
  expect(children.started).toHaveLength(MAX_PARSER_CHILDREN);
  for (let done = 0; done < 5; done++) {
    children.started[done]!.finish(`text ${done}`);
    await settle();
    expect(children.started).toHaveLength(Math.min(5, done + 1 + MAX_PARSER_CHILDREN));
  }
  expect(await Promise.all(parses)).toEqual(['text 0', 'text 1', 'text 2', 'text 3', 'text 4']);
  expect(children.most()).toBe(MAX_PARSER_CHILDREN);
});

test('reading a long document page by page starts one parser child; a changed file is parsed again', async () => {
  const workspace = mkdtempSync(join(tmpdir(), 'parse-cache-'));
  const read = (page: number) =>
    readFileTool
      .run(readFileTool.input.parse({ path: 'long.docx', page }), {
        workspace,
        ledgerDir: `${workspace}.ledger`,
        idempotencyKey: 'agent/s1/c1',
        signal: new AbortController().signal,
      })
      .then(toolText);
  const paragraphs = Array.from({ length: 200 }, (_, i) => `paragraph ${i} of a long memo`);
  writeFileSync(join(workspace, 'long.docx'), makeDocx(paragraphs));
  const before = parserChildrenStarted();
  expect(await read(1)).toMatch(/^\[page 1 of \d+;/);
  expect(await read(2)).toMatch(/^\[page 2 of \d+;/);
  expect(await read(3)).toMatch(/^\[page 3 of \d+/);
  expect(parserChildrenStarted() - before).toBe(1);
  writeFileSync(join(workspace, 'long.docx'), makeDocx(paragraphs.map((p) => p.toUpperCase())));
  expect(await read(1)).toContain('PARAGRAPH 0');
  expect(parserChildrenStarted() - before).toBe(2);
});
