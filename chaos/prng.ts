/**
 * A small seeded pseudo-random generator (mulberry32) for the chaos suite. Every random choice
 * the runner makes — kill moments, downtimes, LLM latencies — comes from one seed, printed at
 * the start, so a failing schedule can be asked for again with `CHAOS_SEED=<seed>`. (The
 * interleaving of workers and the server is not reproducible; the schedule is.)
 */
import { randomInt } from 'node:crypto';

/** A seeded generator of numbers in [0, 1) and integers in a range. */
export class Prng {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** The next number in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  between(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** A generator of its own, derived from this one (so one consumer's draws do not shift another's). */
  fork(): Prng {
    return new Prng(Math.floor(this.next() * 2 ** 32));
  }
}

/**
 * The run's seed: `CHAOS_SEED` when set (a non-negative integer), otherwise a fresh random one.
 * @throws when `CHAOS_SEED` is set to something else.
 */
export function chaosSeed(env: NodeJS.ProcessEnv = process.env): number {
  const given = env.CHAOS_SEED?.trim();
  if (!given) return randomInt(0, 2 ** 31);
  if (!/^\d+$/.test(given) || Number(given) >= 2 ** 32) {
    throw new Error(`CHAOS_SEED must be an integer from 0 to 4294967295, got "${given}"`);
  }
  return Number(given);
}
