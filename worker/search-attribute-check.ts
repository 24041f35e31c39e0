/**
 * Before a worker polls, the namespace must know every search attribute Cairn upserts
 * (workflows/contract/search-attributes.ts): an agent that upserts an unregistered one fails its workflow
 * task on every retry (BadSearchAttributes), so it would hang with no word but a WARN line per
 * retry and a state query that times out. The worker checks at start and refuses, naming what is
 * missing and the command that registers it. Where the list cannot be read (a namespace whose
 * operator API the worker may not call, e.g. Temporal Cloud with a narrow key) it says so and goes on.
 */
import { status } from '@grpc/grpc-js';
import { isGrpcServiceError, type Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import * as searchAttributes from '../workflows/contract/search-attributes';

const SEARCH_ATTRIBUTE_KEYS = Object.values(searchAttributes);

const { IndexedValueType } = temporal.api.enums.v1;

/** The command that registers Cairn's search attributes on a self-hosted cluster. */
export const REGISTER_COMMAND = 'npm run setup-cluster';

/** Thrown when the worker must not start: one line that says why and what to do. */
export class WorkerRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkerRefusal';
  }
}

/** Cairn's search attributes that `registered` (name → indexed value type) lacks or holds with another type. */
export function missingAttributes(registered: Record<string, number>): string[] {
  return SEARCH_ATTRIBUTE_KEYS.filter(({ name, type }) => {
    const have = registered[name];
    return have === undefined || have !== Number(IndexedValueType[`INDEXED_VALUE_TYPE_${type}`]);
  }).map(({ name, type }) => `${name} (${type})`);
}

/**
 * Checks the namespace's search attributes. Throws {@link WorkerRefusal} when some are missing;
 * returns a note when they could not be read (the worker goes on), else undefined.
 */
export async function checkSearchAttributes(connection: Connection, namespace: string): Promise<string | undefined> {
  let registered: Record<string, number>;
  try {
    const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
    registered = Object.fromEntries(Object.entries(customAttributes ?? {}).map(([k, v]) => [k, Number(v)]));
  } catch (err) {
    const why = isGrpcServiceError(err) ? `${status[err.code] ?? err.code}: ${err.details}` : String(err);
    return `Search attributes: not checked (listing them failed: ${why}); ${REGISTER_COMMAND} registers them`;
  }
  const missing = missingAttributes(registered);
  if (missing.length > 0) {
    throw new WorkerRefusal(
      `Namespace "${namespace}" lacks Cairn's search attributes ${missing.join(', ')}: every agent's workflow ` +
        `task would fail until they exist. Register them with \`${REGISTER_COMMAND}\` (same environment), then start the worker again.`,
    );
  }
  return undefined;
}
