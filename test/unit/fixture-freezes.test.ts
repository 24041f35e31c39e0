/**
 * Which commit froze each release (scripts/fixture-freezes.ts), from the commits that set
 * package.json's version: a release at its release commit, the first version once the next one
 * was set, a development version never.
 */
import { freezeCommits, releaseCommits } from '../../scripts/fixture-freezes';

test('a release is frozen by the commit that set it; the first version by the commit that set the next', () => {
  const changes = [
    { commit: 'c1', version: '0.1.0' },
    { commit: 'c2', version: '0.1.0' }, // another edit of package.json
    { commit: 'c3', version: '0.2.0' },
    { commit: 'c4', version: '0.3.0' },
    { commit: 'c5', version: '0.4.0-dev' },
    { commit: 'c6', version: '0.4.0' },
    { commit: 'c7', version: '0.5.0-dev' },
  ];
  expect(Object.fromEntries(freezeCommits(changes))).toEqual({
    '0.1.0': 'c3',
    '0.2.0': 'c3',
    '0.3.0': 'c4',
    '0.4.0': 'c6',
  });
  expect(releaseCommits(changes).get('0.1.0')).toEqual({ frozenBy: 'c3', code: 'c3^' });
  expect(releaseCommits(changes).get('0.4.0')).toEqual({ frozenBy: 'c6', code: 'c6' });
});

test('a project that began at a development version has no release until one is set', () => {
  expect(freezeCommits([{ commit: 'c1', version: '0.1.0-dev' }]).size).toBe(0);
  expect(
    Object.fromEntries(
      freezeCommits([
        { commit: 'c1', version: '0.1.0-dev' },
        { commit: 'c2', version: '0.1.0' },
      ]),
    ),
  ).toEqual({ '0.1.0': 'c2' });
});
