/**
 * The embedded Temporal dev server that `npm start` and `npm run server` run when no Temporal
 * address is configured: its gRPC port (`CAIRN_TEMPORAL_PORT`, default 7233), its Web UI port
 * (`CAIRN_TEMPORAL_UI_PORT`, default 8233) and the folder of its SQLite file
 * (`CAIRN_TEMPORAL_DATA_DIR`, default the repository's `.data/`). With the port moved, every
 * process of this configuration (worker, web, CLI) connects to `127.0.0.1:<port>`.
 */
import { isAbsolute, join, resolve } from 'node:path';
import { z } from 'zod';

/** The embedded server's defaults: the ports the Temporal CLI's dev server uses. */
export const EMBEDDED_DEFAULTS = { ip: '127.0.0.1', port: 7233, uiPort: 8233 } as const;

/** The embedded server's data folder when none is set: `.data/` beside the code. */
const DEFAULT_DATA_DIR = join(__dirname, '..', '.data');

/** A TCP port number, as every `*_PORT` variable takes it. */
export const portNumber = z.coerce
  .number({ error: 'expected a port number' })
  .int('expected a whole number')
  .min(1, 'expected a port between 1 and 65535')
  .max(65535, 'expected a port between 1 and 65535');

/** The embedded server's variables, merged into the configuration schema. */
export const embeddedServerEnvShape = {
  /** gRPC port of the embedded dev server; default 7233. */
  CAIRN_TEMPORAL_PORT: portNumber.optional(),
  /** Web UI port of the embedded dev server; default 8233. */
  CAIRN_TEMPORAL_UI_PORT: portNumber.optional(),
  /** Folder of the embedded dev server's SQLite file (`temporal.db`); default `.data/` in the repository. */
  CAIRN_TEMPORAL_DATA_DIR: z.string().trim().min(1, 'expected a folder').optional(),
};

type EmbeddedEnv = { [K in keyof typeof embeddedServerEnvShape]?: z.output<(typeof embeddedServerEnvShape)[K]> };

/** The embedded dev server as configured. */
export interface EmbeddedServerSettings {
  ip: string;
  port: number;
  uiPort: number;
  /** The SQLite file: `<data folder>/temporal.db`. */
  dbFile: string;
}

/**
 * The embedded server's settings, or one line per problem: the two ports must differ from each
 * other and from the HTTP port, and none of the variables may be set when a Temporal address is
 * configured (no embedded server runs then, so the setting would be silently ignored).
 * @param addressConfigured whether TEMPORAL_ADDRESS or a temporal.toml profile names the server.
 * @param cwd what a relative data folder is resolved against.
 */
export function embeddedServerSettings(
  e: EmbeddedEnv,
  httpPort: number,
  addressConfigured: boolean,
  cwd: string,
): EmbeddedServerSettings | { problems: string[] } {
  const problems: string[] = [];
  if (addressConfigured) {
    for (const name of Object.keys(embeddedServerEnvShape) as (keyof EmbeddedEnv)[]) {
      if (e[name] === undefined) continue;
      problems.push(
        `${name}: applies to the embedded dev server only, but TEMPORAL_ADDRESS (or a temporal.toml profile) names the server to use; unset one of them`,
      );
    }
    if (problems.length > 0) return { problems };
  }
  const port = e.CAIRN_TEMPORAL_PORT ?? EMBEDDED_DEFAULTS.port;
  const uiPort = e.CAIRN_TEMPORAL_UI_PORT ?? EMBEDDED_DEFAULTS.uiPort;
  if (uiPort === port) {
    problems.push(`CAIRN_TEMPORAL_UI_PORT: expected a port other than the gRPC port ${port}, got ${uiPort}`);
  }
  if (!addressConfigured) {
    for (const [name, taken] of [
      ['CAIRN_TEMPORAL_PORT', port],
      ['CAIRN_TEMPORAL_UI_PORT', uiPort],
    ] as const) {
      if (taken === httpPort)
        problems.push(`${name}: expected a port other than CAIRN_HTTP_PORT ${httpPort}, got ${taken}`);
    }
  }
  if (problems.length > 0) return { problems };
  const dir = e.CAIRN_TEMPORAL_DATA_DIR;
  const dataDir = dir === undefined ? DEFAULT_DATA_DIR : isAbsolute(dir) ? dir : resolve(cwd, dir);
  return { ip: EMBEDDED_DEFAULTS.ip, port, uiPort, dbFile: join(dataDir, 'temporal.db') };
}

/** The embedded server's gRPC address, `127.0.0.1:<port>`. */
export const embeddedAddress = (settings: EmbeddedServerSettings): string => `${settings.ip}:${settings.port}`;

/** The embedded server's Web UI, `http://127.0.0.1:<ui port>`. */
export const embeddedUiUrl = (settings: EmbeddedServerSettings): string => `http://${settings.ip}:${settings.uiPort}`;
