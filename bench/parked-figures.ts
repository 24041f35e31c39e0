/**
 * The pure parts of benchmark 8, parked threads: its size (from the environment), the threads
 * whose history changed across the idle window, the time from a send to the first reply token
 * the fake wrote, a worker's resident memory from /proc/<pid>/status, the Prometheus samples
 * the worker exposes, and a bounded-concurrency map for the thousands of starts and describes.
 */

/** How big a run is: threads parked, seconds idle, threads messaged at once afterwards. */
export interface ParkedSize {
  threads: number;
  idleSeconds: number;
  messaged: number;
  /** The threads' idle timeout (ms); the product's default when absent. Set below the window, it makes the bench fail: its negative control. */
  idleTimeoutMs?: number;
  /** Each thread is parked after one chat exchange (titled, its live stream started), not empty. */
  conversations?: boolean;
}

/** The acceptance's size: 10,000 threads idle for 5 minutes, 100 of them messaged at once. */
export const FULL_SIZE: ParkedSize = { threads: 10_000, idleSeconds: 300, messaged: 100 };

/**
 * The size from `BENCH_PARKED_THREADS`, `BENCH_PARKED_IDLE_S` and `BENCH_PARKED_MESSAGED`
 * (each a positive whole number; the full size where unset), and the threads' idle timeout from
 * `BENCH_PARKED_IDLE_TIMEOUT_MS` (the product's default where unset), and whether each is parked
 * after a first chat exchange from `BENCH_PARKED_CONVERSATIONS` (`1`; empty where unset or `0`).
 * More threads messaged than parked is an error, as is any other value: a typo must not become a
 * different benchmark.
 */
export function parkedSize(env: Record<string, string | undefined>): ParkedSize {
  const read = (name: string, fallback: number): number => {
    const text = env[name];
    if (text === undefined || text.trim() === '') return fallback;
    const value = Number(text);
    if (!Number.isInteger(value) || value <= 0)
      throw new Error(`${name}: expected a positive whole number, got "${text}"`);
    return value;
  };
  const idleTimeoutMs = read('BENCH_PARKED_IDLE_TIMEOUT_MS', 0);
  const conversations = (env['BENCH_PARKED_CONVERSATIONS'] ?? '').trim();
  if (!['', '0', '1'].includes(conversations))
    throw new Error(`BENCH_PARKED_CONVERSATIONS: expected 1 or 0, got "${conversations}"`);
  const size: ParkedSize = {
    threads: read('BENCH_PARKED_THREADS', FULL_SIZE.threads),
    idleSeconds: read('BENCH_PARKED_IDLE_S', FULL_SIZE.idleSeconds),
    messaged: read('BENCH_PARKED_MESSAGED', FULL_SIZE.messaged),
    ...(idleTimeoutMs > 0 ? { idleTimeoutMs } : {}),
    ...(conversations === '1' ? { conversations: true } : {}),
  };
  if (size.messaged > size.threads)
    throw new Error(`BENCH_PARKED_MESSAGED (${size.messaged}) exceeds BENCH_PARKED_THREADS (${size.threads})`);
  return size;
}

/** What a describe of one thread says, as the idle check compares it. */
export interface ThreadMark {
  historyLength: number;
  /** A workflow task is scheduled or running. */
  pendingTask: boolean;
  /** Temporal's status name (RUNNING while open). */
  status: string;
  /** Activities scheduled or running (a parked conversation's title call, until it is done). */
  pendingActivities?: number;
}

/** One thread that did not stay parked across the window, and how it shows. */
export interface Woken {
  id: string;
  before?: ThreadMark;
  after?: ThreadMark;
}

/**
 * The threads that show any sign of work between two describes: a longer (or shorter) history,
 * a workflow task pending at the end, a status other than RUNNING at the end, or missing from
 * either side.
 */
export function wokenThreads(before: ReadonlyMap<string, ThreadMark>, after: ReadonlyMap<string, ThreadMark>): Woken[] {
  const ids = [...new Set([...before.keys(), ...after.keys()])];
  return ids.flatMap((id) => {
    const b = before.get(id);
    const a = after.get(id);
    const quiet = b && a && a.historyLength === b.historyLength && !a.pendingTask && a.status === 'RUNNING';
    return quiet ? [] : [{ id, ...(b ? { before: b } : {}), ...(a ? { after: a } : {}) }];
  });
}

/** The part of a fake's recorded request the first-token figure reads. */
export interface ReplyTiming {
  headers: Record<string, string>;
  /** `Date.now()` when the request arrived. */
  receivedAt: number;
  /** `Date.now()` per chunk written: index 0 the role chunk, 1 the first content piece. */
  chunkSentAt?: number[];
  /** `Date.now()` when a reply that did not stream was sent. */
  answeredAt?: number;
}

/** Per messaged thread, milliseconds from its send to its chat request reaching the fake and to its first token. */
export interface FirstTokens {
  /** Send → the fake wrote the first content chunk of the thread's `chat` reply. */
  firstToken: Map<string, number>;
  /** Send → the thread's `chat` request arrived at the fake. */
  arrived: Map<string, number>;
  /** Messaged threads with no chat reply. */
  missing: string[];
}

/**
 * Per messaged thread (`sentAt`: `Date.now()` before its `send`), the time to the fake writing
 * the first content chunk of that thread's first `chat` reply (a reply that did not stream
 * counts when it was sent whole), and to its request arriving there.
 */
export function firstTokenTimes(sentAt: ReadonlyMap<string, number>, requests: readonly ReplyTiming[]): FirstTokens {
  const firstToken = new Map<string, number>();
  const arrived = new Map<string, number>();
  for (const r of requests) {
    const thread = r.headers['x-cairn-agent'];
    const sent = thread === undefined ? undefined : sentAt.get(thread);
    // A parked conversation's own first exchange came before the send: not this message's reply.
    if (r.headers['x-cairn-purpose'] !== 'chat' || thread === undefined || sent === undefined || arrived.has(thread))
      continue;
    if (r.receivedAt < sent) continue;
    arrived.set(thread, r.receivedAt - sent);
    const first = r.chunkSentAt?.[1] ?? r.answeredAt;
    if (first !== undefined) firstToken.set(thread, first - sent);
  }
  return { firstToken, arrived, missing: [...sentAt.keys()].filter((id) => !firstToken.has(id)) };
}

/** Resident memory in bytes from the text of /proc/<pid>/status (its `VmRSS:` line, in kB). */
export function residentBytes(status: string): number {
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  if (!match?.[1]) throw new Error('no VmRSS line in the process status');
  return Number(match[1]) * 1024;
}

/** One Prometheus sample: name, labels, value. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (comments and blank lines skipped). */
export function parseSamples(text: string): Sample[] {
  return text.split('\n').flatMap((line) => {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? ([^ ]+)(?: \d+)?$/.exec(line.trim());
    if (!m?.[1] || m[3] === undefined) return [];
    const labels: Record<string, string> = {};
    for (const [, key = '', value = ''] of (m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)) labels[key] = value;
    return [{ name: m[1], labels, value: Number(m[3]) }];
  });
}

/** The sum of the samples named `name` whose labels include `labels`; 0 when there are none. */
export function sampleSum(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

/**
 * A histogram's count and sum of observations: its `<base>_count` and `<base>_sum` samples,
 * or `<base>_seconds_…` where the exporter put the unit in the name.
 */
export function histogramTotals(samples: readonly Sample[], base: string): { count: number; sum: number } {
  const named = (suffix: string) =>
    samples.some((s) => s.name === `${base}_seconds_${suffix}`) ? `${base}_seconds_${suffix}` : `${base}_${suffix}`;
  return { count: sampleSum(samples, named('count')), sum: sampleSum(samples, named('sum')) };
}

/** `fn` over `items` with at most `limit` calls in flight; results in the items' order; the first failure rejects. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i] as T, i);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  return out;
}

/** `count` items of `items` spread evenly over it (the first, then every `length / count`-th). */
export function spread<T>(items: readonly T[], count: number): T[] {
  if (count >= items.length) return [...items];
  return Array.from({ length: count }, (_, i) => items[Math.floor((i * items.length) / count)] as T);
}
