/**
 * The one redactor for error text Cairn records: before an error message reaches workflow
 * history, agent state or a log line, it passes through here. It removes the configured
 * secrets verbatim and anything shaped like a credential (bearer tokens, well-known API key
 * formats, `key=value` pairs whose name says secret, cookies, credentials in URLs), so an
 * endpoint that echoes a key in its error message cannot leak it. Pure: usable by the worker,
 * the client and the HTTP server.
 *
 * Its input can be chosen by an attacker (a request header the codec server logs, a file path a
 * prompt-injected model names), so it must stay linear: text is cut to MAX_REDACTED_CHARS before
 * the patterns run, every quantifier is bounded, and no pattern can start at every position of
 * one long run and scan to its end (the `a-a-a-…` backtracking that froze the server).
 */

import type { AuthConfig } from './auth-config';
import type { PayloadSettings } from './payload-config';

/** What a removed secret is replaced with. */
export const REDACTED = '[redacted]';

/**
 * The longest text the patterns see; the rest is cut (and said so). Far above any error message
 * or log line worth reading, and it bounds the patterns' work whatever they are given.
 */
export const MAX_REDACTED_CHARS = 32 * 1024;

/** Shorter configured values are not treated as secrets: replacing them would mangle text. */
const MIN_SECRET_LENGTH = 8;

/** The upper bound of a quantifier that runs to the end of a secret: the text is never longer. */
const TO_END = String(MAX_REDACTED_CHARS);

/** Bounded whitespace between a name and its value. */
const GAP = String.raw`\s{0,16}`;

/**
 * Credential shapes, each replaced whole or in its secret part (the `secret` group). A pattern
 * whose first run may contain `-` starts only where such a run starts (a lookbehind), never
 * inside it: otherwise `eyJ-eyJ-eyJ-…` would be scanned to its end from every `eyJ`.
 */
const PATTERNS: readonly RegExp[] = [
  // PEM private keys (a TLS client key from TEMPORAL_TLS_CLIENT_KEY_DATA or its file), whole.
  new RegExp(
    String.raw`(?<secret>-----BEGIN [A-Z ]{0,40}PRIVATE KEY-----[\s\S]{0,${TO_END}}?(?:-----END [A-Z ]{0,40}PRIVATE KEY-----|$))`,
    'g',
  ),
  // Authorization schemes: `Bearer abc…`, `Basic dXNl…`, `Token abc…`.
  new RegExp(String.raw`\b(?<scheme>Bearer|Basic|Token)\s{1,16}(?<secret>[A-Za-z0-9._~+/=-]{8,${TO_END}})`, 'gi'),
  // OpenAI / Anthropic style keys: sk-…, sk-proj-…, sk-ant-….
  new RegExp(String.raw`(?<![A-Za-z0-9_-])(?<secret>sk-[A-Za-z0-9_-]{8,${TO_END}})`, 'g'),
  // GitHub, Slack, Google, AWS access key ids, Hugging Face.
  new RegExp(
    String.raw`(?<![A-Za-z0-9_-])(?<secret>gh[pousr]_[A-Za-z0-9]{20,${TO_END}}|xox[abprs]-[A-Za-z0-9-]{10,${TO_END}}|AIza[0-9A-Za-z_-]{30,${TO_END}}|AKIA[0-9A-Z]{16}|hf_[A-Za-z0-9]{20,${TO_END}})`,
    'g',
  ),
  // JSON Web Tokens: three base64url parts, the first two JSON objects.
  new RegExp(
    String.raw`(?<![A-Za-z0-9_-])(?<secret>eyJ[A-Za-z0-9_-]{5,${TO_END}}\.eyJ[A-Za-z0-9_-]{5,${TO_END}}\.[A-Za-z0-9_-]{5,${TO_END}})`,
    'g',
  ),
  // Cookie headers, whole: `Cookie: a=1; cairn_session=…` (every value in them is a credential).
  new RegExp(String.raw`(?<name>\b(?:set-)?cookie["']?${GAP}[:=]${GAP}["']?)(?<secret>[^\r\n"']{1,${TO_END}})`, 'gi'),
  // Cairn's session and sign-in cookies wherever they are quoted alone.
  new RegExp(String.raw`(?<name>\bcairn_(?:session|login)=)(?<secret>[^;\s"',]{1,${TO_END}})`, 'g'),
  // Credentials in a URL: `https://user:password@host`.
  /(?<name>\/\/[^/:@\s]{1,256}:)(?<secret>[^@\s/]{1,1024})(?=@)/g,
  // `api_key=…`, `"token": "…"`, `password: …` and the like. The name is matched from its
  // telling part on (`client_secret` from `secret`): what precedes it is kept anyway, and
  // matching it too is what let `a-a-a-…` backtrack quadratically.
  new RegExp(
    String.raw`(?<name>(?:api[_-]?key|access[_-]?token|auth[_-]?token|secret|password|passwd|token)["']?${GAP}[:=]${GAP}["']?)(?<secret>[^\s"',;}&]{4,${TO_END}})`,
    'gi',
  ),
];

/** Replaces the `secret` group of a match, keeping what came before it. */
function replaceSecret(match: string, ...rest: unknown[]): string {
  const groups = rest.at(-1) as Record<string, string | undefined>;
  const secret = groups.secret ?? match;
  return match.slice(0, match.length - secret.length) + REDACTED;
}

/** A function that removes secrets from text. */
export type Redactor = (text: string) => string;

/** `text` cut to MAX_REDACTED_CHARS, saying how much went. */
function capped(text: string): string {
  if (text.length <= MAX_REDACTED_CHARS) return text;
  return `${text.slice(0, MAX_REDACTED_CHARS)} [${text.length - MAX_REDACTED_CHARS} more characters cut]`;
}

/**
 * Builds the redactor.
 * @param secrets configured secret values (API keys, tokens), removed wherever they appear.
 */
export function createRedactor(secrets: readonly (string | undefined)[]): Redactor {
  const known = [...new Set(secrets.filter((s): s is string => s !== undefined && s.length >= MIN_SECRET_LENGTH))]
    // Longest first, so a secret that contains another is removed whole.
    .sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    // Configured secrets go before the cut (a linear search), so the cut never leaves half of one.
    for (const secret of known) out = out.split(secret).join(REDACTED);
    out = capped(out);
    for (const pattern of PATTERNS) out = out.replace(pattern, replaceSecret);
    return out;
  };
}

/** The secret values of a configuration: every one of them is redacted from recorded errors. */
export function configuredSecrets(config: {
  llm: { apiKey?: string; endpoints?: readonly { apiKey?: string }[] };
  temporal: { apiKey?: string };
  http?: { apiToken?: string };
  auth?: AuthConfig;
  payloads?: PayloadSettings;
}): string[] {
  const clientSecret = config.auth?.mode === 'oidc' ? config.auth.oidc.clientSecret : undefined;
  // Encryption keys as they are written in the configuration (base64), should one reach a message.
  const keys = (config.payloads?.keys ?? []).map((k) => k.key.toString('base64'));
  const endpointKeys = (config.llm.endpoints ?? []).map((endpoint) => endpoint.apiKey);
  return [
    config.llm.apiKey,
    ...endpointKeys,
    config.temporal.apiKey,
    config.http?.apiToken,
    clientSecret,
    ...keys,
  ].filter((s): s is string => s !== undefined);
}
