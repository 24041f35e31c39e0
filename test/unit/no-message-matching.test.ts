/**
 * Failures are told apart by their code (and a rejected answer's field by its structured detail),
 * never by pattern-matching message text: a reworded message must not change what a client does.
 * This reads the product's source (not tests, not node_modules) for the three shapes such matching
 * takes — a regex run over a message, a string search on a message, a regex literal spelling a
 * validator message — and names every hit.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const SOURCE_DIRS = ['workflows', 'activities', 'client', 'worker', 'config', 'scripts'];
const CODE_FILE = /\.(?:[cm]?[jt]s)$/;

/** What a message (or a rejection's text) is held in: `message`, `err.cause?.message`, `rejection`, … */
const MESSAGE = String.raw`[\w$.?]*\b(?:message|rejection|reason|error|err)\b`;
/** The same, as a whole argument (`err.message`, not `err.name`). */
const MESSAGE_ARG = String.raw`${MESSAGE}(?![\w$]|\??\.[\w$])`;

/** Each shape of message matching, with an example of what it catches. */
const SHAPES: { name: string; pattern: RegExp }[] = [
  {
    // /^no interaction|is already answered/.test(message), RE.exec(err.cause?.message ?? '')
    name: 'a regex run over a message',
    pattern: new RegExp(String.raw`\.(?:test|exec)\(\s*(?:String\(\s*)?${MESSAGE_ARG}`),
  },
  {
    // rejection.matchAll(/values\.(\w+):/g), err.message.includes('already answered')
    name: 'a string search on a message',
    pattern: new RegExp(
      String.raw`${MESSAGE}\??\.(?:match|matchAll|search|replace|replaceAll|includes|startsWith|endsWith|indexOf)\(`,
    ),
  },
  {
    // /^no interaction|is already answered|has expired/, /values\.([^:;\s]+):/g
    name: "a regex literal spelling a validator's message",
    pattern:
      /\/[^/\n]*(?:no interaction|already answered|has expired|not one of the options|values\\\.)[^/\n]*\/[dgimsuy]*/,
  },
];

/** Every code file under `dir`, recursively. */
function codeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules') return [];
    if (statSync(path).isDirectory()) return codeFiles(path);
    return CODE_FILE.test(name) ? [path] : [];
  });
}

/** `file:line: text` for each line of `files` that has the shape. */
function hits(files: string[], pattern: RegExp): string[] {
  return files.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, i) => {
        const code = line.trimStart();
        if (code.startsWith('*') || code.startsWith('//') || code.startsWith('/*')) return []; // comments
        return pattern.test(line) ? [`${relative(ROOT, file)}:${i + 1}: ${code}`] : [];
      }),
  );
}

/**
 * Files that read the error text of third-party LLM endpoints, not Cairn's own messages: servers
 * such as llama.cpp and vLLM give no code for a context overflow, a request they cannot parse
 * or a feature they refuse (streaming among them), so their text is all there is (codes are used
 * where they exist).
 */
const ENDPOINT_TEXT_READERS = [
  'activities/llm/classify-llm-error.ts',
  'activities/llm/model-capabilities.ts',
  'activities/llm/stream-support.ts',
];

const files = SOURCE_DIRS.flatMap((dir) => codeFiles(join(ROOT, dir))).filter(
  (file) => !ENDPOINT_TEXT_READERS.includes(relative(ROOT, file)),
);

test('the scan covers the product source', () => {
  const scanned = files.map((file) => relative(ROOT, file));
  expect(scanned).toEqual(
    expect.arrayContaining([
      'client/agents/agent-client.ts',
      'client/agents/cli/form-answers.ts',
      'client/web/forms.js',
      'workflows/model/interactions/validate-answer.ts',
    ]),
  );
});

test.each(SHAPES)('none in the source: $name', ({ pattern }) => {
  expect(hits(files, pattern)).toEqual([]);
});

test('each shape catches the matching it is meant to find', () => {
  const old = [
    'const closed = /^no interaction|is already answered|has expired/.test(message);',
    'const named = [...rejection.matchAll(/values\\.([^:;\\s]+):/g)].map((m) => m[1]);',
    "if (err.cause?.message.includes('already answered')) return 'NOT_OPEN';",
  ];
  const caught = (line: string) => SHAPES.filter(({ pattern }) => pattern.test(line)).map((s) => s.name);
  expect(old.map(caught)).toEqual([
    ['a regex run over a message', "a regex literal spelling a validator's message"],
    ['a string search on a message', "a regex literal spelling a validator's message"],
    ['a string search on a message'],
  ]);
  // Telling errors apart by code or by name, and regexes over other text, stay allowed.
  expect(caught("if (err.code === 'NOT_OPEN') return;")).toEqual([]);
  expect(caught('if (err instanceof Error && /abort|ExitPrompt/i.test(err.name)) throw err;')).toEqual([]);
  expect(caught('const fenced = /```([\\s\\S]*?)```/.exec(text)?.[1];')).toEqual([]);
});
