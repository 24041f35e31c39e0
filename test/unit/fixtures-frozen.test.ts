/**
 * The repository's own fixtures pass the gate (scripts/check-fixtures.ts): every release's
 * histories and carries are as that release recorded them, and the current release has its
 * set. Run by `npm test`, so CI fails when a fixture of an earlier release changed.
 */
import { checkFixtures } from '../../scripts/check-fixtures';

test('no fixture of an earlier release changed, and the current release has its recordings', () => {
  const { problems, notes } = checkFixtures();
  for (const note of notes) process.stdout.write(`fixture gate: ${note}\n`);
  expect(problems).toEqual([]);
});
