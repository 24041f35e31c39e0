/**
 * The live-output latency of the bench: a chunk arrives with the delta holding its last
 * character, so a merged delta completes several chunks, each measured from its own send time.
 */
import { chunkLatencies } from '../../bench/live-latency';

test('each chunk is measured from its send to the delta that completes it', () => {
  // Role chunk at 0, then "abcd", "efgh", "ij" sent at 10, 20, 30; finish chunk at 40.
  const sentAt = [0, 10, 20, 30, 40];
  const deltas = [
    { text: 'abc', at: 15 }, // completes nothing: chunk 1 ends at "d"
    { text: 'defghi', at: 50 }, // completes chunks 1 and 2
    { text: 'j', at: 70 }, // completes chunk 3
  ];
  expect(chunkLatencies(sentAt, 4, deltas)).toEqual([40, 30, 40]);
});

test('one delta holding the whole text completes every chunk; no text, no figures', () => {
  expect(chunkLatencies([0, 5, 6], 2, [{ text: 'abcd', at: 100 }])).toEqual([95, 94]);
  expect(chunkLatencies([0, 5], 2, [])).toEqual([]);
});
