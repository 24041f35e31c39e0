/**
 * What an endpoint takes for a model — structured output (a strict JSON Schema, any JSON object,
 * or text read tolerantly) and tools — pinned in configuration (`CAIRN_LLM_MODELS`) or learned:
 * when the endpoint refuses a feature by name, the call steps down once and the worker process
 * remembers it for that endpoint and model, so later calls start where the last one ended.
 */
import { type RESPONSE_FORMATS, settingsFor, type LlmModelTable } from '../../config/llm-models-config';

/** The best response format the endpoint takes (config/llm-models-config.ts). */
export type ResponseFormatLevel = (typeof RESPONSE_FORMATS)[number];

/** What a call may ask of an endpoint for one model. */
export interface ModelCapabilities {
  responseFormat: ResponseFormatLevel;
  /** `strict: true` on the JSON Schema and on tools. */
  strict: boolean;
  /** Whether tools reach the model (false: pinned so; the worker warns at start). */
  tools: boolean;
  /** False once the endpoint refused `reasoning_effort` for the model (absent: it is sent when asked for). */
  reasoningEffort?: boolean;
}

/** What a request carried that an endpoint may refuse. */
export interface RequestFeatures {
  responseFormat?: ResponseFormatLevel;
  strict: boolean;
  reasoningEffort?: boolean;
}

/** A step down: the capabilities to use from now on, and what the timeline should say. */
export interface Downgrade {
  next: ModelCapabilities;
  notice: string;
}

/** Per-process memory of capabilities, per endpoint and model. */
export interface CapabilityStore {
  get(endpoint: string, model: string): ModelCapabilities;
  /**
   * The step down an endpoint's refusal (`message`, a 4xx/5xx text) asks for, remembered from
   * now on; undefined when the text names nothing the request carried.
   */
  downgrade(endpoint: string, model: string, sent: RequestFeatures, message: string): Downgrade | undefined;
}

const FULL: ModelCapabilities = { responseFormat: 'json_schema', strict: true, tools: true };

/** Text that says a feature is not supported, near its name. */
const REFUSAL =
  /not supported|unsupported|not allowed|invalid|unknown|unrecognized|must be one of|cannot|does not support|not implemented/i;

/** A store starting from what `models` pins; everything else starts at full capability. */
export function createCapabilityStore(models: LlmModelTable = {}): CapabilityStore {
  const learned = new Map<string, ModelCapabilities>();
  const key = (endpoint: string, model: string) => `${endpoint}\u0000${model}`;
  const get = (endpoint: string, model: string): ModelCapabilities => {
    const known = learned.get(key(endpoint, model));
    if (known) return known;
    const pinned = settingsFor(models, model);
    return {
      responseFormat: pinned.responseFormat ?? FULL.responseFormat,
      strict: pinned.strict ?? FULL.strict,
      tools: pinned.tools ?? FULL.tools,
    };
  };
  return {
    get,
    downgrade(endpoint, model, sent, message) {
      const step = stepDown(get(endpoint, model), sent, message);
      if (step) learned.set(key(endpoint, model), step.next);
      return step
        ? { next: step.next, notice: `${step.notice} for model ${model}; remembered for this endpoint` }
        : undefined;
    },
  };
}

/** The one step down `message` asks for, given what was sent. */
function stepDown(current: ModelCapabilities, sent: RequestFeatures, message: string): Downgrade | undefined {
  if (!REFUSAL.test(message)) return undefined;
  const names = (pattern: RegExp) => pattern.test(message);
  if (sent.reasoningEffort && names(/reasoning_effort|reasoning/i)) {
    return {
      next: { ...current, reasoningEffort: false },
      notice: 'the endpoint refused reasoning_effort: sent without it',
    };
  }
  // OpenAI names the schema rule strict mode broke ("'required' is required to be supplied…").
  if (sent.strict && names(/strict|invalid schema|'required'|additionalProperties/i)) {
    return { next: { ...current, strict: false }, notice: 'the endpoint refused strict schemas: sent without strict' };
  }
  if (sent.responseFormat === 'json_schema' && names(/json_schema|response_format|schema/i)) {
    return {
      next: { ...current, responseFormat: 'json_object' },
      notice: 'the endpoint refused response_format json_schema: asking for a JSON object instead',
    };
  }
  if (sent.responseFormat === 'json_object' && names(/json_object|response_format/i)) {
    return {
      next: { ...current, responseFormat: 'text' },
      notice: 'the endpoint refused response_format json_object: reading JSON from plain text instead',
    };
  }
  return undefined;
}
