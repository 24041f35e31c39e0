/**
 * The Temporal connection, configured as the `temporal` CLI and every Temporal SDK are: a profile
 * of a `temporal.toml` file (TEMPORAL_CONFIG_FILE, else `temporalio/temporal.toml` in the user's
 * config folder; profile TEMPORAL_PROFILE, else "default"), overridden by the standard TEMPORAL_*
 * variables. @temporalio/envconfig reads both; Cairn only checks the result, so a bad value still
 * stops the process with one line naming the variable or the profile key it came from.
 */
import { accessSync, constants, existsSync } from 'node:fs';
import type { TLSConfig } from '@temporalio/client';
import {
  loadClientConfig,
  loadClientConfigProfile,
  toClientOptions,
  type ClientConfigProfile,
  type ConfigDataSource,
} from '@temporalio/envconfig';

/** The embedded dev server's gRPC address (`npm run server`). */
export const DEFAULT_TEMPORAL_ADDRESS = '127.0.0.1:7233';

/**
 * The Temporal variables, as the SDK names them (besides TEMPORAL_GRPC_META_<header>, which adds
 * a gRPC header to every call). The codec variables are left out: Cairn runs no remote codec.
 */
export const TEMPORAL_ENV_NAMES = [
  'TEMPORAL_CONFIG_FILE',
  'TEMPORAL_PROFILE',
  'TEMPORAL_ADDRESS',
  'TEMPORAL_NAMESPACE',
  'TEMPORAL_API_KEY',
  'TEMPORAL_TLS',
  'TEMPORAL_TLS_CLIENT_CERT_PATH',
  'TEMPORAL_TLS_CLIENT_CERT_DATA',
  'TEMPORAL_TLS_CLIENT_KEY_PATH',
  'TEMPORAL_TLS_CLIENT_KEY_DATA',
  'TEMPORAL_TLS_SERVER_CA_CERT_PATH',
  'TEMPORAL_TLS_SERVER_CA_CERT_DATA',
  'TEMPORAL_TLS_SERVER_NAME',
] as const;

/** Names Cairn once read itself; the SDK would silently ignore them, so they are refused. */
const RENAMED: Record<string, string> = {
  TEMPORAL_TLS_CERT_PATH: 'TEMPORAL_TLS_CLIENT_CERT_PATH',
  TEMPORAL_TLS_KEY_PATH: 'TEMPORAL_TLS_CLIENT_KEY_PATH',
};

/** Options accepted by both `NativeConnection.connect` (worker) and `Connection.connect` (clients). */
export interface TemporalConnectionOptions {
  address: string;
  apiKey?: string;
  tls?: boolean | TLSConfig;
  metadata?: Record<string, string>;
}

/** The resolved Temporal settings. */
export interface TemporalSettings {
  address: string;
  /** False when neither a variable nor a profile sets an address: `npm start` then runs the embedded dev server. */
  addressConfigured: boolean;
  namespace: string;
  /** Kept apart so the redactor knows the secret. */
  apiKey?: string;
  /** What to connect with, as the SDK builds it from the profile (TLS files already read). */
  connection: TemporalConnectionOptions;
}

/** Either the settings or one line per problem. */
export type TemporalConfigResult = { ok: true; settings: TemporalSettings } | { ok: false; lines: string[] };

const HOST_PORT = /^[^\s:/]+(:\d{1,5})?$|^\[[0-9a-fA-F:]+\](:\d{1,5})?$/;
const BOOL_TEXT = ['true', 'false', '1', '0'];

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);
}

/**
 * The environment as the SDK should see it: an empty variable counts as unset (as for every
 * Cairn variable, so `${VAR:-}` in a compose file means "not set"), except a gRPC header
 * variable, where empty removes the header the profile set.
 */
function sdkEnv(env: Record<string, string | undefined>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (value === '' && !name.startsWith('TEMPORAL_GRPC_META_')) continue;
    kept[name] = value;
  }
  return kept;
}

/**
 * Reads the Temporal settings from `env` (and the profile file it names or the default one).
 * Never throws for bad input: every problem is one line of the result.
 */
export function loadTemporalConfig(rawEnv: Record<string, string | undefined>): TemporalConfigResult {
  const env = sdkEnv(rawEnv);
  const file = env.TEMPORAL_CONFIG_FILE ?? 'temporal.toml';
  const profileName = env.TEMPORAL_PROFILE ?? 'default';
  /** Where a setting came from: the variable when set, else the profile's key. */
  const origin = (variable: string, key: string) =>
    env[variable] !== undefined ? variable : `${file} profile "${profileName}" ${key}`;

  const lines: string[] = [];
  for (const [old, current] of Object.entries(RENAMED)) {
    if (env[old] !== undefined) lines.push(`${old}: renamed ${current} (the name the temporal CLI and SDKs read)`);
  }
  if (env.TEMPORAL_TLS !== undefined && !BOOL_TEXT.includes(env.TEMPORAL_TLS)) {
    lines.push(`TEMPORAL_TLS: expected true or false, got ${describe(env.TEMPORAL_TLS)}`);
    delete env.TEMPORAL_TLS; // reported; the other settings are still checked
  }
  // The SDK quietly skips a missing file; one named explicitly is a mistake worth stopping for.
  const missingFile = env.TEMPORAL_CONFIG_FILE !== undefined && !existsSync(env.TEMPORAL_CONFIG_FILE);
  if (missingFile) {
    lines.push(`TEMPORAL_CONFIG_FILE: expected a temporal.toml file, got ${describe(file)} (no such file)`);
  }

  let profile: ClientConfigProfile;
  try {
    // A profile named explicitly must exist; asked before loading it, so that this case is
    // told apart from a broken file by what the file holds, not by the SDK's message text.
    if (!missingFile && env.TEMPORAL_PROFILE !== undefined) {
      const { profiles } = loadClientConfig({ overrideEnvVars: env });
      if (!Object.hasOwn(profiles, profileName)) {
        lines.push(`TEMPORAL_PROFILE: no profile ${describe(profileName)} in ${file}`);
        return { ok: false, lines: lines.sort() };
      }
    }
    profile = loadClientConfigProfile({ overrideEnvVars: env, disableFile: missingFile });
  } catch (err) {
    const message = err instanceof Error ? (err.message.split('\n')[0] ?? '') : String(err);
    lines.push(`${env.TEMPORAL_CONFIG_FILE !== undefined ? 'TEMPORAL_CONFIG_FILE' : file}: ${message}`);
    return { ok: false, lines: lines.sort() };
  }

  const check = (value: unknown, variable: string, key: string, ok: (text: string) => boolean, expected: string) => {
    if (value === undefined) return;
    if (typeof value !== 'string' || !ok(value)) {
      lines.push(`${origin(variable, key)}: expected ${expected}, got ${describe(value)}`);
    }
  };
  check(profile.address, 'TEMPORAL_ADDRESS', 'address', (t) => HOST_PORT.test(t), 'host:port, e.g. 127.0.0.1:7233');
  check(profile.namespace, 'TEMPORAL_NAMESPACE', 'namespace', (t) => t.trim() !== '', 'a namespace name');
  if (profile.apiKey !== undefined && (typeof profile.apiKey !== 'string' || profile.apiKey === '')) {
    lines.push(`${origin('TEMPORAL_API_KEY', 'api_key')}: expected an API key, got a hidden value`);
  }
  const tls = profile.tls;
  if (tls !== undefined) {
    if (Boolean(tls.clientCert) !== Boolean(tls.clientKey)) {
      lines.push(
        `${origin('TEMPORAL_TLS_CLIENT_CERT_PATH', 'tls')}: expected both a client certificate and its key for mTLS, or neither`,
      );
    }
    const files: [ConfigDataSource | undefined, string, string][] = [
      [tls.clientCert, 'TEMPORAL_TLS_CLIENT_CERT_PATH', 'tls.client_cert_path'],
      [tls.clientKey, 'TEMPORAL_TLS_CLIENT_KEY_PATH', 'tls.client_key_path'],
      [tls.serverCACert, 'TEMPORAL_TLS_SERVER_CA_CERT_PATH', 'tls.server_ca_cert_path'],
    ];
    for (const [source, variable, key] of files) {
      if (source === undefined || !('path' in source)) continue;
      try {
        accessSync(source.path, constants.R_OK);
      } catch {
        lines.push(`${origin(variable, key)}: expected a readable file, got ${describe(source.path)}`);
      }
    }
  }
  if (lines.length > 0) return { ok: false, lines: lines.sort() };

  const address = profile.address ?? DEFAULT_TEMPORAL_ADDRESS;
  const { connectionOptions } = toClientOptions({ ...profile, address });
  const connection: TemporalConnectionOptions = { address };
  if (profile.apiKey !== undefined) connection.apiKey = profile.apiKey;
  if (connectionOptions.tls !== undefined && connectionOptions.tls !== null) connection.tls = connectionOptions.tls;
  if (profile.grpcMeta !== undefined) connection.metadata = profile.grpcMeta;
  return {
    ok: true,
    settings: {
      address,
      addressConfigured: profile.address !== undefined,
      namespace: profile.namespace?.trim() ?? 'default',
      ...(profile.apiKey !== undefined ? { apiKey: profile.apiKey } : {}),
      connection,
    },
  };
}
