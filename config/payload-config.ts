/**
 * Payload protection (docs/operations.md#encrypted-payloads): the environment variables of
 * compression and encryption as one zod shape (merged into config.ts's schema) and their
 * resolution into the key ring the payload codec uses. Encryption is off unless keys are
 * configured; compression is on unless turned off.
 *
 * A key list is `<key id>:<base64 of 32 bytes>` entries separated by commas (or new lines, in a
 * key file); the first entry is the current key, the others only decrypt payloads written under
 * them — rotation adds a new first entry and keeps the old one until nothing needs it.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';

const optionalText = z
  .string()
  .trim()
  .transform((s) => (s === '' ? undefined : s))
  .optional();

/** The payload variables, by their contract names. */
export const payloadEnvShape = {
  /** `<key id>:<base64 of 32 bytes>`, comma-separated, the first one current. */
  CAIRN_ENCRYPTION_KEYS: optionalText,
  /** A file holding the same list (commas or new lines); read at start. */
  CAIRN_ENCRYPTION_KEYS_FILE: optionalText,
  /** `on` (default) or `off`: compress payloads where it pays. */
  CAIRN_COMPRESSION: z.enum(['on', 'off'], { error: 'expected on or off' }).optional(),
  /**
   * `refuse` (default) or `accept`: with encryption keys, whether workers take messages (signals,
   * updates) and agent starts that arrive unencrypted. `accept` is for a migration only: while
   * agents started before the keys are still running, or writers without the keys remain.
   */
  CAIRN_PLAINTEXT_MESSAGES: z.enum(['refuse', 'accept'], { error: 'expected refuse or accept' }).optional(),
  /** The Temporal UI's origin allowed to call the codec server from a browser, e.g. http://localhost:8233. */
  CAIRN_CODEC_CORS_ORIGIN: z
    .url({ protocol: /^https?$/, error: 'expected the Temporal UI origin, e.g. http://localhost:8233' })
    .transform((u) => new URL(u).origin)
    .optional(),
};

type PayloadEnv = { [K in keyof typeof payloadEnvShape]?: z.output<(typeof payloadEnvShape)[K]> };

/** One AES-256 key and the id payloads name it by. */
export interface EncryptionKey {
  id: string;
  key: Buffer;
}

/** How payloads are protected. */
export interface PayloadSettings {
  compression: boolean;
  /** The keys, current first; absent: payloads are not encrypted. */
  keys?: EncryptionKey[];
  /** The origin the codec server answers cross-origin requests from, when set. */
  codecCorsOrigin?: string;
  /** `accept`: workers with keys take unencrypted messages too (a migration); refused otherwise. */
  plaintextMessages?: 'accept';
}

/** Key ids are what payload metadata and error messages carry: short, printable, no separators. */
const KEY_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Whether `id` fits the key-id grammar (letters, digits, `.`, `_`, `-`; 1 to 64 characters). A
 * payload naming anything else was not written by Cairn: decoders refuse it without repeating it.
 */
export function isKeyId(id: string): boolean {
  return KEY_ID.test(id);
}
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * Why a key cannot be a random one, or undefined: 32 equal bytes (all zero — `AAAA…=` — is the
 * usual placeholder) encrypt without complaint, but anyone can guess them, so the payloads would
 * only look protected. Two ids holding one key are refused too: rotating away from one of them
 * would keep the other, and the id a payload names would no longer say which key sealed it.
 */
function weakKey(key: Buffer): string | undefined {
  if (key.every((byte) => byte === 0)) return 'the key is all zero bytes';
  if (key.every((byte) => byte === key[0])) return 'the key is one byte repeated';
  return undefined;
}

/**
 * Parses a key list. Problems name the entry by position and id, never the key material.
 * @param source the variable the list came from, for the messages.
 */
export function parseKeyList(text: string, source: string): { keys: EncryptionKey[] } | { problems: string[] } {
  const entries = text
    .split(/[,\n]/)
    .map((e) => e.trim())
    .filter((e) => e !== '' && !e.startsWith('#'));
  if (entries.length === 0) return { problems: [`${source}: expected at least one <key id>:<base64 of 32 bytes>`] };
  const keys: EncryptionKey[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  // Which entry first held each key's material (as hex), to name it when another repeats it.
  const material = new Map<string, string>();
  entries.forEach((entry, index) => {
    const colon = entry.indexOf(':');
    const id = colon < 0 ? '' : entry.slice(0, colon).trim();
    const encoded = colon < 0 ? entry : entry.slice(colon + 1).trim();
    const where = `entry ${index + 1}${id ? ` (${JSON.stringify(id)})` : ''}`;
    if (!KEY_ID.test(id)) {
      problems.push(`${source}: ${where}: expected <key id>:<base64 of 32 bytes>, the id of letters, digits, . _ -`);
      return;
    }
    if (seen.has(id)) {
      problems.push(`${source}: ${where}: the key id appears twice`);
      return;
    }
    seen.add(id);
    const key = BASE64.test(encoded) ? Buffer.from(encoded, 'base64') : Buffer.alloc(0);
    if (key.length !== 32) {
      problems.push(`${source}: ${where}: expected base64 of 32 bytes (openssl rand -base64 32), got a hidden value`);
      return;
    }
    const weak = weakKey(key);
    if (weak !== undefined) {
      problems.push(`${source}: ${where}: ${weak}; generate one with openssl rand -base64 32`);
      return;
    }
    const hex = key.toString('hex');
    const earlier = material.get(hex);
    if (earlier !== undefined) {
      problems.push(`${source}: ${where}: the same key as ${earlier}; every id needs a key of its own`);
      return;
    }
    material.set(hex, where);
    keys.push({ id, key });
  });
  return problems.length > 0 ? { problems } : { keys };
}

/** Resolves the payload settings; reads the key file when one is named. */
export function payloadSettings(e: PayloadEnv): PayloadSettings | { problems: string[] } {
  if (e.CAIRN_ENCRYPTION_KEYS && e.CAIRN_ENCRYPTION_KEYS_FILE) {
    return { problems: ['CAIRN_ENCRYPTION_KEYS: set either it or CAIRN_ENCRYPTION_KEYS_FILE, not both'] };
  }
  let keys: EncryptionKey[] | undefined;
  if (e.CAIRN_ENCRYPTION_KEYS) {
    const parsed = parseKeyList(e.CAIRN_ENCRYPTION_KEYS, 'CAIRN_ENCRYPTION_KEYS');
    if ('problems' in parsed) return parsed;
    keys = parsed.keys;
  } else if (e.CAIRN_ENCRYPTION_KEYS_FILE) {
    let text: string;
    try {
      text = readFileSync(e.CAIRN_ENCRYPTION_KEYS_FILE, 'utf8');
    } catch {
      return {
        problems: [
          `CAIRN_ENCRYPTION_KEYS_FILE: expected a readable key file, got ${JSON.stringify(e.CAIRN_ENCRYPTION_KEYS_FILE)}`,
        ],
      };
    }
    const parsed = parseKeyList(text, 'CAIRN_ENCRYPTION_KEYS_FILE');
    if ('problems' in parsed) return parsed;
    keys = parsed.keys;
  }
  return {
    compression: e.CAIRN_COMPRESSION !== 'off',
    ...(keys ? { keys } : {}),
    ...(e.CAIRN_CODEC_CORS_ORIGIN ? { codecCorsOrigin: e.CAIRN_CODEC_CORS_ORIGIN } : {}),
    ...(e.CAIRN_PLAINTEXT_MESSAGES === 'accept' ? { plaintextMessages: 'accept' as const } : {}),
  };
}

/**
 * The payload settings of an environment alone, for tools that connect without the rest of the
 * configuration (the chaos lab, the cluster suite, benchmarks).
 * @throws Error listing the problems.
 */
export function payloadSettingsFromEnv(env: Record<string, string | undefined>): PayloadSettings {
  const parsed = z.object(payloadEnvShape).safeParse(payloadEnv(env));
  if (!parsed.success) {
    throw new Error(parsed.error.issues.map((i) => `${String(i.path[0])}: ${i.message}`).join('\n'));
  }
  const settings = payloadSettings(parsed.data);
  if ('problems' in settings) throw new Error(settings.problems.join('\n'));
  return settings;
}

/**
 * The payload variables set in `env`, to hand to child processes (workers, `npm run web`) that
 * must read and write payloads as their parent does.
 */
export function payloadEnv(env: Record<string, string | undefined>): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of Object.keys(payloadEnvShape)) {
    const value = env[name];
    if (value !== undefined && value !== '') picked[name] = value;
  }
  return picked;
}
