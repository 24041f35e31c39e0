/**
 * Which endpoints can stream, learned once per worker process: a model call streams unless the
 * endpoint (for that model) has refused `stream: true` by name or answered it with one JSON
 * completion; from then on its calls go without streaming, so it is found out once, not on
 * every call. `CAIRN_LLM_STREAM=off` pins every call to no streaming.
 */
import { APIError } from 'openai';

/** Per-process memory of endpoints that cannot stream. */
export interface StreamSupport {
  /** Whether calls to `model` at `endpoint` should stream. */
  canStream(endpoint: string, model: string): boolean;
  /** Remembers that `model` at `endpoint` cannot stream; true the first time. */
  cannotStream(endpoint: string, model: string): boolean;
}

/** A store where every endpoint may stream until it shows otherwise; `enabled: false` streams nothing. */
export function createStreamSupport(enabled = true): StreamSupport {
  const refused = new Set<string>();
  const key = (endpoint: string, model: string) => `${endpoint}\u0000${model}`;
  return {
    canStream: (endpoint, model) => enabled && !refused.has(key(endpoint, model)),
    cannotStream(endpoint, model) {
      const k = key(endpoint, model);
      if (refused.has(k)) return false;
      refused.add(k);
      return true;
    },
  };
}

/** Words of a refusal, and the parameter they may name. */
const REFUSED = String.raw`(not supported|unsupported|not allowed|invalid|unknown|unrecognized|not implemented|does not support|cannot)`;
const STREAM = String.raw`\bstream(ing|_options)?\b`;

/** Text that says the request's `stream` (or `stream_options`) is not taken, in either order. */
const STREAM_REFUSAL = new RegExp(`${STREAM}[\\s\\S]*${REFUSED}|${REFUSED}[\\s\\S]*${STREAM}`, 'i');

/**
 * Whether an endpoint's error refuses streaming itself: OpenAI names the parameter; servers that
 * give no code say it in their text (4xx or 5xx naming `stream`).
 */
export function isStreamRefusal(err: unknown): boolean {
  if (!(err instanceof APIError) || err.status === undefined || err.status < 400) return false;
  return err.param === 'stream' || err.param === 'stream_options' || STREAM_REFUSAL.test(err.message);
}

/** What the timeline and the worker's log say when an endpoint turns out not to stream. */
export function cannotStreamNotice(model: string): string {
  return `the endpoint cannot stream model ${model}: its calls go without streaming (no live text); remembered for this endpoint`;
}
