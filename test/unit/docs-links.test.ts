/**
 * The project's documentation lives in the repository and points only into it: no file cites the
 * team's spec or style notes, which stay outside it (by their section sign or their path), and
 * every relative link of README.md, CONTRIBUTING.md and the Markdown files under docs/ — and every
 * `docs/<path>.md#<section>` pointer a code comment makes — leads to a file that exists and, for a
 * section, to a heading it has.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = join(__dirname, '..', '..');
/** Folders never read: installed packages, downloaded tools, run data, test output. */
const SKIPPED_DIRS = new Set(['node_modules', '.tools', '.data', '.git', 'coverage', 'tmp', 'test/artifacts']);
const SCANNED_FILE = /\.(?:ts|js|mjs|md)$/;

/** Built from parts, so this file does not name them itself. */
const OUTSIDE_REFERENCES = [['DESIGN', '§'].join(' '), ['STYLE', '§'].join(' '), ['..', 'shared'].join('/')];

function scannedFiles(dir = ROOT): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (SKIPPED_DIRS.has(relative(ROOT, path)) || SKIPPED_DIRS.has(name)) return [];
    if (statSync(path).isDirectory()) return scannedFiles(path);
    return SCANNED_FILE.test(name) ? [path] : [];
  });
}

const FILES = scannedFiles().map((path) => ({ path, name: relative(ROOT, path), text: readFileSync(path, 'utf8') }));

/** Every Markdown file under `dir`, its folders included. */
function markdownUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownUnder(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

/** README.md, CONTRIBUTING.md and every Markdown file under docs/. */
const DOCS = [join(ROOT, 'README.md'), join(ROOT, 'CONTRIBUTING.md'), ...markdownUnder(join(ROOT, 'docs'))];

/** Markdown without fenced code blocks and inline code, where links and headings are not. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, 'code');
}

/** The anchor GitHub gives a heading: its text lower-cased, punctuation dropped, spaces as `-`. */
function headingAnchor(heading: string): string {
  const text = heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{N}\p{M} _-]/gu, '').replace(/ /g, '-');
}

/** The anchors of a Markdown file's headings (a repeated heading gets `-1`, `-2`, … as on GitHub). */
function anchorsOf(path: string): Set<string> {
  const markdown = readFileSync(path, 'utf8').replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading = ''] of markdown.matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = headingAnchor(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Why `target` (a link from `from`, relative or `#section`) leads nowhere, or undefined when it is fine. */
function brokenLink(from: string, target: string): string | undefined {
  const [file = '', anchor] = target.split('#');
  const path = file === '' ? from : resolve(dirname(from), decodeURI(file));
  if (!existsSync(path)) return `${target}: no file ${relative(ROOT, path)}`;
  if (anchor === undefined || anchor === '' || !path.endsWith('.md')) return undefined;
  return anchorsOf(path).has(anchor) ? undefined : `${target}: no heading with anchor #${anchor}`;
}

test('no file cites a document outside the repository', () => {
  const hits = FILES.flatMap(({ name, text }) =>
    text
      .split('\n')
      .flatMap((line, i) =>
        OUTSIDE_REFERENCES.some((ref) => line.includes(ref)) ? [`${name}:${i + 1}: ${line}`] : [],
      ),
  );
  expect(hits).toEqual([]);
});

test('the front door, the architecture overview and the contracts exist', () => {
  expect(DOCS.map((path) => relative(ROOT, path))).toEqual(
    expect.arrayContaining(['README.md', 'CONTRIBUTING.md', 'docs/architecture/overview.md', 'docs/contracts.md']),
  );
});

test('every relative link of README.md, CONTRIBUTING.md and docs/**/*.md leads to a file (and heading) that exists', () => {
  const links = DOCS.flatMap((path) =>
    [...prose(readFileSync(path, 'utf8')).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map(([, target = '']) => ({
      path,
      target,
    })),
  );
  const relativeLinks = links.filter(({ target }) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
  expect(relativeLinks.length).toBeGreaterThan(20);
  const broken = relativeLinks.flatMap(({ path, target }) => {
    const why = brokenLink(path, target);
    return why ? [`${relative(ROOT, path)}: ${why}`] : [];
  });
  expect(broken).toEqual([]);
});

test('every docs/<path>.md#<section> pointer in the code leads to a heading that exists', () => {
  const pointers = FILES.flatMap(({ name, text }) =>
    [...text.matchAll(/\bdocs\/((?:[\w-]+\/)*[\w-]+\.md)(?:#([\w-]+))?/g)].map(([, file = '', anchor]) => ({
      name,
      file,
      anchor,
    })),
  );
  const broken = pointers.flatMap(({ name, file, anchor }) => {
    const why = brokenLink(join(ROOT, 'docs', 'index.md'), anchor ? `${file}#${anchor}` : file);
    return why ? [`${name}: docs/${why}`] : [];
  });
  expect(broken).toEqual([]);
});

test('heading anchors are spelled as GitHub spells them', () => {
  expect(headingAnchor('Search attributes and what the Temporal UI shows')).toBe(
    'search-attributes-and-what-the-temporal-ui-shows',
  );
  expect(headingAnchor('Continue-as-new')).toBe('continue-as-new');
  expect(headingAnchor('`answer`: signal & update (public)')).toBe('answer-signal--update-public');
  expect(headingAnchor('Two commands, on a fresh machine')).toBe('two-commands-on-a-fresh-machine');
});

/** A line of a drawn tree: the guides before `├── ` or `└── `, then the entry's name. */
const TREE_ENTRY = /^((?:[│ ] {3})*)[├└]── (\S+)/;

/**
 * The paths a fenced code block draws as a tree of the repository (`.` or a folder on its first
 * line, then `├── ` / `└── ` entries, four columns a level), each relative to the repository's
 * root; a line without an entry (a comment's continuation) names nothing.
 */
function treePaths(block: string): string[] {
  const [first = '', ...lines] = block.split('\n');
  const root = first.trim().split(/\s+/)[0] ?? '.';
  const parents: string[] = [root === '.' ? '' : root.replace(/\/$/, '')];
  return lines.flatMap((line) => {
    const match = TREE_ENTRY.exec(line);
    if (!match) return [];
    const depth = (match[1] ?? '').length / 4;
    const name = (match[2] ?? '').replace(/\/$/, '');
    const path = [...parents.slice(0, depth + 1), name].filter((part) => part !== '').join('/');
    parents.splice(depth + 1, parents.length, path);
    return [path];
  });
}

/** Every fenced code block of the docs that draws a tree, with the file it is in. */
const TREES = DOCS.flatMap((path) =>
  [...readFileSync(path, 'utf8').matchAll(/^(```|~~~)[^\n]*\n([\s\S]*?)^\1[^\n]*$/gm)]
    .map(([, , block = '']) => block)
    .filter((block) => /^(?:[│ ] {3})*[├└]── /m.test(block))
    .map((block) => ({ name: relative(ROOT, path), block })),
);

test('every folder tree drawn in README.md, CONTRIBUTING.md and docs/ names only paths that exist', () => {
  expect(TREES.length).toBeGreaterThanOrEqual(2);
  const missing = TREES.flatMap(({ name, block }) =>
    treePaths(block).flatMap((path) => (existsSync(join(ROOT, path)) ? [] : [`${name}: ${path}`])),
  );
  expect(missing).toEqual([]);
});

test('a drawn tree is read as the paths it draws', () => {
  const tree = [
    '.',
    '├── workflows/     text',
    '│   ├── agent/     more',
    '│   │              text',
    '│   └── patches.ts',
    '└── docs/',
  ];
  expect(treePaths(tree.join('\n'))).toEqual(['workflows', 'workflows/agent', 'workflows/patches.ts', 'docs']);
  expect(treePaths(['client/', '└── http/'].join('\n'))).toEqual(['client/http']);
});
