/**
 * Connection options for Temporal from the configuration: address, namespace, and TLS or an
 * API key for Temporal Cloud. Shared by the worker (NativeConnection) and clients (Connection).
 */
import { readFileSync } from 'node:fs';
import type { CairnConfig } from './config';

/** Options accepted by both `NativeConnection.connect` and `Connection.connect`. */
export interface TemporalConnectionOptions {
  address: string;
  apiKey?: string;
  tls?: boolean | { clientCertPair?: { crt: Buffer; key: Buffer } };
}

/** Builds connection options; reads mTLS files when configured. */
export function connectionOptions(temporal: CairnConfig['temporal']): TemporalConnectionOptions {
  const { tls } = temporal;
  return {
    address: temporal.address,
    ...(temporal.apiKey ? { apiKey: temporal.apiKey } : {}),
    ...(tls
      ? {
          tls:
            tls.certPath && tls.keyPath
              ? { clientCertPair: { crt: readFileSync(tls.certPath), key: readFileSync(tls.keyPath) } }
              : true,
        }
      : {}),
  };
}
