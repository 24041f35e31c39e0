/** KnownThreads: the first run of each thread a client has seen, bounded, oldest out first. */
import { KnownThreads } from '../../client/threads/known-threads';

test('remembers first runs, forgets on request, and drops the least recently remembered when full', () => {
  const known = new KnownThreads(2);
  known.remember('a', 'run-a');
  known.remember('b', 'run-b');
  known.remember('a', 'run-a2'); // remembered again: now the newest
  known.remember('c', 'run-c');
  expect(known.firstRunOf('a')).toBe('run-a2');
  expect(known.firstRunOf('b')).toBeUndefined();
  expect(known.firstRunOf('c')).toBe('run-c');
  known.forget('c');
  expect(known.firstRunOf('c')).toBeUndefined();
});

test('no run id (a server that does not say) is not remembered', () => {
  const known = new KnownThreads();
  known.remember('a', undefined);
  known.remember('b', '');
  expect(known.firstRunOf('a')).toBeUndefined();
  expect(known.firstRunOf('b')).toBeUndefined();
});
