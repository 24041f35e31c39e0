/**
 * Connection options for Temporal from the configuration: address, and TLS or an API key for
 * Temporal Cloud, as the SDK's configuration loader built them (config/temporal-config.ts).
 * Shared by the worker (NativeConnection) and clients (Connection).
 */
import type { CairnConfig } from '../config/config';
import type { TemporalConnectionOptions } from '../config/temporal-config';

export type { TemporalConnectionOptions } from '../config/temporal-config';

/** The options both `NativeConnection.connect` and `Connection.connect` take. */
export function connectionOptions(temporal: CairnConfig['temporal']): TemporalConnectionOptions {
  return temporal.connection;
}
