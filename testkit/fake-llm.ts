/**
 * The scripted fake LLM as everything outside test/ imports it (bench/, chaos/): the same one
 * fake every test uses, implemented in test/fake-llm (scripted-llm.ts, replies.ts, holds.ts,
 * routes.ts), so a benchmark or a chaos run never reaches into test internals.
 */
export { reply } from '../test/fake-llm/replies';
export {
  ScriptedLlm,
  type RecordedRequest,
  type ReplyFunction,
  type ScriptedLlmOptions,
} from '../test/fake-llm/scripted-llm';
