/**
 * The real parser child on decompression bombs, under the memory bound this machine offers: a
 * memory cgroup per child where one is writable (the peak read from the cgroup), else RLIMIT_AS.
 * Each title names the bound that ran; the RLIMIT_AS path is also run on purpose, by choosing the
 * bound under a cgroup root that does not exist.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync } from 'node:fs';
import {
  DOCUMENT_TOO_LARGE,
  DocumentTooLargeError,
  PARSE_LIMITS,
  createDocumentParser,
} from '../../activities/tools/builtin/document-text';
import { ChildFailed, runParserChild } from '../../activities/tools/builtin/parser-child';
import {
  chooseMemoryBound,
  memoryBound,
  placeChild,
  type Placement,
} from '../../activities/tools/builtin/parser-memory';
import { makeLyingXlsx, makePdfFlateBomb } from '../harness/bombs';

jest.setTimeout(60_000);

const bound = memoryBound();
const cgroup = bound.kind === 'cgroup-v1' || bound.kind === 'cgroup-v2';
const budget = PARSE_LIMITS.memoryMb * 2 ** 20;

/** Parses `bytes` with the real child under `chosen`; the failure and the placement it had. */
async function bombed(kind: 'pdf' | 'xlsx', bytes: Buffer, chosen = bound) {
  let placement: Placement | undefined;
  const failure = await runParserChild(kind, bytes, PARSE_LIMITS, chosen, (placed) => (placement = placed)).then(
    () => undefined,
    (err: unknown) => (err instanceof ChildFailed ? err.failure : undefined),
  );
  return { failure, placement };
}

test(`this machine's bound for parser children is ${bound.kind}`, () => {
  expect(['cgroup-v1', 'cgroup-v2', 'rlimit']).toContain(bound.kind);
  if (cgroup) expect(bound.folder).toMatch(/cairn-parsers$/);
  // The worker's start line names it.
  expect(bound.describe(PARSE_LIMITS.memoryMb)).toMatch(
    cgroup ? /memory cgroup per child at .*, 320 MiB$/ : /^RLIMIT_AS per child: .* \+ 320 MiB$/,
  );
});

test(`a PDF FlateDecode bomb (900 MiB inflated) is stopped at the memory bound (${bound.kind}), peak under the cap`, async () => {
  const { failure, placement } = await bombed('pdf', makePdfFlateBomb(900));
  expect(failure?.kind).toBe('memory');
  if (cgroup) {
    expect(placement?.limitBytes).toBe(budget); // the child was placed in a memory cgroup of that limit
    const peak = failure?.kind === 'memory' ? failure.peakBytes : undefined;
    expect(peak).toBeGreaterThan(budget * 0.9); // it ran up to the limit ...
    expect(peak).toBeLessThanOrEqual(budget); // ... and no further
    expect(existsSync(placement!.cgroup!)).toBe(false); // its cgroup is gone with it
  } else {
    expect(placement?.limitBytes).toBeLessThan(Infinity);
  }
});

test(`an XLSX whose local headers lie (2000 MiB inflated), given to the child unchecked, is stopped at the memory bound (${bound.kind})`, async () => {
  const { failure, placement } = await bombed('xlsx', makeLyingXlsx(2000));
  expect(failure?.kind).toBe('memory');
  if (cgroup) {
    const peak = failure?.kind === 'memory' ? failure.peakBytes : undefined;
    expect(peak).toBeLessThanOrEqual(budget);
    expect(existsSync(placement!.cgroup!)).toBe(false);
  }
});

test('the RLIMIT_AS path, chosen where no cgroup is writable, stops a PDF bomb too', async () => {
  const fallback = chooseMemoryBound('/nonexistent-cgroup-root');
  expect(fallback.kind).toBe('rlimit');
  const { failure, placement } = await bombed('pdf', makePdfFlateBomb(900), fallback);
  expect(placement?.cgroup).toBeUndefined();
  expect(placement?.limitBytes).toBeGreaterThan(budget); // what the child had mapped when ready, plus the budget
  expect(failure?.kind).toBe('memory');
});

test('a bomb read through the parser is a tool error starting with DOCUMENT_TOO_LARGE', async () => {
  const parse = createDocumentParser();
  const err: unknown = await parse('bomb.pdf', 'pdf', makePdfFlateBomb(900)).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(DocumentTooLargeError);
  expect((err as DocumentTooLargeError).code).toBe(DOCUMENT_TOO_LARGE);
  expect((err as Error).message).toMatch(
    /^DOCUMENT_TOO_LARGE: "bomb\.pdf" cannot be read as pdf: document too large to parse/,
  );
});

test(`placing a child that has already ended fails and leaves no cgroup behind (${bound.kind})`, async () => {
  const gone = spawn(process.execPath, ['-e', '']);
  await once(gone, 'exit');
  await expect(placeChild(bound, gone.pid!, budget)).rejects.toThrow();
  if (cgroup) expect(readdirSync(bound.folder!).filter((name) => name.startsWith(`child-${process.pid}-`))).toEqual([]);
});
