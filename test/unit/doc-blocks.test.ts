/**
 * Docs as tests (issue 47): every fenced code block of README.md, CONTRIBUTING.md, docs/ and
 * examples/ says whether it runs — ` ```sh run ` (test/e2e/docs-blocks.test.ts runs it against
 * `npm start`'s default) or ` ```ts no-run — why ` — so no example can quietly stop working.
 */
import { blocksOf, docBlocks } from '../harness/doc-blocks';

/** What is wrong with a block's mark ('' when nothing). */
function problem(block: ReturnType<typeof blocksOf>[number]): string {
  if (block.mark === undefined)
    return `${block.where}: not marked run or no-run (\`\`\`${block.language} no-run — why)`;
  if (block.mark === 'no-run' && block.reason === '') return `${block.where}: no-run without a reason`;
  if (block.mark === 'run' && !RUNNABLE.includes(block.language))
    return `${block.where}: run, but the docs runner runs only ${RUNNABLE.join(', ')} blocks`;
  return '';
}

/** The languages the docs runner runs. */
const RUNNABLE = ['sh', 'js', 'python'];

test('every block of the docs is marked run or no-run, and a no-run says why', () => {
  expect(docBlocks().map(problem).filter(Boolean)).toEqual([]);
});

test('the marks are read from the info string, and an unmarked or unexplained block is reported', () => {
  const markdown = [
    '```sh run',
    'echo hi',
    '```',
    '- a list item:',
    '  ```ts no-run — docs/definitions.md already has one',
    '  const a = 1;',
    '  ```',
    '```',
    'bare',
    '```',
    '```json no-run',
    '{}',
    '```',
    '````md no-run (shows a fence)',
    '```',
    '````',
  ].join('\n');
  const blocks = blocksOf('x.md', markdown);
  expect(blocks.map(({ where, language, mark, reason, text }) => ({ where, language, mark, reason, text }))).toEqual([
    { where: 'x.md:1', language: 'sh', mark: 'run', reason: '', text: 'echo hi' },
    {
      where: 'x.md:5',
      language: 'ts',
      mark: 'no-run',
      reason: 'docs/definitions.md already has one',
      text: 'const a = 1;',
    },
    { where: 'x.md:8', language: '', mark: undefined, reason: '', text: 'bare' },
    { where: 'x.md:11', language: 'json', mark: 'no-run', reason: '', text: '{}' },
    { where: 'x.md:14', language: 'md', mark: 'no-run', reason: 'shows a fence', text: '```' },
  ]);
  expect(blocks.map(problem)).toEqual([
    '',
    '',
    'x.md:8: not marked run or no-run (``` no-run — why)',
    'x.md:11: no-run without a reason',
    '',
  ]);
});
