/**
 * `npm run setup-cluster`: registers Cairn's search attributes (workflows/contract/search-attributes.ts)
 * on the configured Temporal cluster, skipping those already there. The embedded dev server
 * registers them itself; a self-hosted cluster (docker-compose.yml) needs this once.
 * Temporal Cloud namespaces are set up in the Cloud UI or with tcld instead.
 */

import { status } from '@grpc/grpc-js';
import { isGrpcServiceError } from '@temporalio/client';
import { connectTemporal } from '../temporal/connection';
import { temporal } from '@temporalio/proto';
import { loadConfigOrExit } from '../config/load-config-or-exit';
import { connectionOptions } from '../temporal/connection-options';
import { SEARCH_ATTRIBUTE_KEYS } from './dev-server';

const { IndexedValueType } = temporal.api.enums.v1;

/** How long a namespace registered a moment ago may take to reach the frontend's registry. */
const NEW_NAMESPACE_WAIT_MS = 30_000;

/** The namespace's search attributes, waiting while a just-registered namespace is not known yet. */
async function listSearchAttributes(connection: Awaited<ReturnType<typeof connectTemporal>>, namespace: string) {
  const deadline = Date.now() + NEW_NAMESPACE_WAIT_MS;
  for (;;) {
    try {
      return await connection.operatorService.listSearchAttributes({ namespace });
    } catch (err) {
      const notYet = isGrpcServiceError(err) && err.code === status.NOT_FOUND && Date.now() < deadline;
      if (!notYet) throw err;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const namespace = config.temporal.namespace;
  const connection = await connectTemporal(connectionOptions(config.temporal));
  try {
    const { customAttributes } = await listSearchAttributes(connection, namespace);
    const missing = SEARCH_ATTRIBUTE_KEYS.filter(({ name }) => customAttributes?.[name] === undefined);
    if (missing.length === 0) {
      console.log(`Search attributes already registered in namespace ${namespace}.`);
      return;
    }
    await connection.operatorService.addSearchAttributes({
      namespace,
      searchAttributes: Object.fromEntries(
        missing.map(({ name, type }) => [name, IndexedValueType[`INDEXED_VALUE_TYPE_${type}`]]),
      ),
    });
    console.log(`Registered ${missing.map(({ name }) => name).join(', ')} in namespace ${namespace}.`);
  } finally {
    await connection.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
