/**
 * The fenced code blocks of the docs a reader meets (README.md, CONTRIBUTING.md, docs/**, and
 * examples/**), read by their info string: ` ```sh run ` marks a block that runs as written
 * against `npm start`'s default (test/e2e/docs-blocks.test.ts runs exactly those), ` ```ts no-run
 * — why ` one that does not, with the reason. Every block says one or the other
 * (test/unit/doc-blocks.test.ts).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export const ROOT = join(__dirname, '..', '..');

/** One fenced block: where it is, its language and mark, and its text. */
export interface DocBlock {
  /** `docs/threads.md:31`: the file (from the repository root) and the line of its opening fence. */
  where: string;
  /** The first word of the info string when it is not a mark (`sh`, `ts`), else ''. */
  language: string;
  /** `run`, `no-run`, or undefined when the block is not marked. */
  mark?: 'run' | 'no-run';
  /** With `no-run`: why, as written after the mark ('' when nothing is). */
  reason: string;
  text: string;
}

/** The markdown files whose blocks are read. */
export function docFiles(root = ROOT): string[] {
  const below = (dir: string): string[] =>
    readdirSync(join(root, dir)).flatMap((name) => {
      const path = join(dir, name);
      if (statSync(join(root, path)).isDirectory()) return below(path);
      return name.endsWith('.md') ? [path] : [];
    });
  return ['README.md', 'CONTRIBUTING.md', ...below('docs'), ...below('examples')];
}

/** The mark and reason of an info string's words after the language (or of all of them). */
function markOf(words: string[]): Pick<DocBlock, 'mark' | 'reason'> {
  const [first, ...rest] = words;
  if (first !== 'run' && first !== 'no-run') return { reason: '' };
  const reason = rest
    .join(' ')
    .replace(/^[—–-]\s*/, '')
    .replace(/^\((.*)\)$/, '$1')
    .trim();
  return { mark: first, reason };
}

/** The fenced blocks of one markdown text (`name` is how `where` names the file). */
export function blocksOf(name: string, markdown: string): DocBlock[] {
  const lines = markdown.split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})(.*)$/.exec(lines[i] ?? '');
    if (!open) continue;
    const [, indent = '', fence = '', info = ''] = open;
    const close = new RegExp(`^\\s*${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
    let end = i + 1;
    while (end < lines.length && !close.test(lines[end] ?? '')) end++;
    const words = info.trim().split(/\s+/).filter(Boolean);
    const marked = words[0] === 'run' || words[0] === 'no-run';
    blocks.push({
      where: `${name}:${i + 1}`,
      language: marked ? '' : (words[0] ?? ''),
      ...markOf(marked ? words : words.slice(1)),
      text: lines
        .slice(i + 1, end)
        .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line.trimStart()))
        .join('\n'),
    });
    i = end;
  }
  return blocks;
}

/** Every block of the docs. */
export function docBlocks(root = ROOT): DocBlock[] {
  return docFiles(root).flatMap((path) =>
    blocksOf(relative(root, join(root, path)), readFileSync(join(root, path), 'utf8')),
  );
}
