/**
 * What the cluster suite runs and docker-compose.yml must match: the Temporal server version
 * (cluster/temporal-server.version, read by scripts/ensure-temporal-server.sh too), the server
 * configuration template, its dynamic configuration and the schema setup script.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The Temporal server version the suite builds and docker-compose.yml runs, e.g. `1.32.2`. */
export const TEMPORAL_SERVER_VERSION = readFileSync(join(__dirname, 'temporal-server.version'), 'utf8').trim();

/** The server configuration template (rendered by the server itself from the environment). */
export const CONFIG_TEMPLATE = join(__dirname, 'temporal-config.yaml.tmpl');

/** The dynamic configuration file the template points at. */
export const DYNAMIC_CONFIG = join(__dirname, 'dynamicconfig.yaml');

/** Creates or upgrades the persistence and visibility databases with temporal-sql-tool. */
export const SETUP_SCHEMA = join(__dirname, 'setup-schema.sh');

/** History shards: few, so that two history hosts each own some and a kill moves real ones. */
export const HISTORY_SHARDS = 4;
