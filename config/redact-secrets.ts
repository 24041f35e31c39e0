/**
 * The one redactor for error text Cairn records: before an error message reaches workflow
 * history, agent state or a log line, it passes through here. It removes the configured
 * secrets verbatim and anything shaped like a credential (bearer tokens, well-known API key
 * formats, `key=value` pairs whose name says secret, cookies, credentials in URLs), so an
 * endpoint that echoes a key in its error message cannot leak it. Pure: usable by the worker,
 * the client and the HTTP server.
 */

import type { AuthConfig } from './auth-config';
import type { PayloadSettings } from './payload-config';

/** What a removed secret is replaced with. */
export const REDACTED = '[redacted]';

/** Shorter configured values are not treated as secrets: replacing them would mangle text. */
const MIN_SECRET_LENGTH = 8;

/** Credential shapes, each replaced whole or in its secret part (the `secret` group). */
const PATTERNS: readonly RegExp[] = [
  // PEM private keys (a TLS client key from TEMPORAL_TLS_CLIENT_KEY_DATA or its file), whole.
  /(?<secret>-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$))/g,
  // Authorization schemes: `Bearer abc…`, `Basic dXNl…`, `Token abc…`.
  /\b(?<scheme>Bearer|Basic|Token)\s+(?<secret>[A-Za-z0-9._~+/=-]{8,})/gi,
  // OpenAI / Anthropic style keys: sk-…, sk-proj-…, sk-ant-….
  /\b(?<secret>sk-[A-Za-z0-9_-]{8,})/g,
  // GitHub, Slack, Google, AWS access key ids, Hugging Face.
  /\b(?<secret>gh[pousr]_[A-Za-z0-9]{20,}|xox[abprs]-[A-Za-z0-9-]{10,}|AIza[0-9A-Za-z_-]{30,}|AKIA[0-9A-Z]{16}|hf_[A-Za-z0-9]{20,})/g,
  // JSON Web Tokens: three base64url parts, the first two JSON objects.
  /\b(?<secret>eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,})/g,
  // Cookie headers, whole: `Cookie: a=1; cairn_session=…` (every value in them is a credential).
  /(?<name>\b(?:set-)?cookie["']?\s*[:=]\s*["']?)(?<secret>[^\r\n"']+)/gi,
  // Cairn's session and sign-in cookies wherever they are quoted alone.
  /(?<name>\bcairn_(?:session|login)=)(?<secret>[^;\s"',]+)/g,
  // Credentials in a URL: `https://user:password@host`.
  /(?<name>\/\/[^/:@\s]+:)(?<secret>[^@\s/]+)(?=@)/g,
  // `api_key=…`, `"token": "…"`, `password: …` and the like.
  /(?<name>["']?\b[\w-]*(?:api[_-]?key|access[_-]?token|auth[_-]?token|secret|password|passwd|token)["']?\s*[:=]\s*["']?)(?<secret>[^\s"',;}&]{4,})/gi,
];

/** Replaces the `secret` group of a match, keeping what came before it. */
function replaceSecret(match: string, ...rest: unknown[]): string {
  const groups = rest.at(-1) as Record<string, string | undefined>;
  const secret = groups.secret ?? match;
  return match.slice(0, match.length - secret.length) + REDACTED;
}

/** A function that removes secrets from text. */
export type Redactor = (text: string) => string;

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
    for (const secret of known) out = out.split(secret).join(REDACTED);
    for (const pattern of PATTERNS) out = out.replace(pattern, replaceSecret);
    return out;
  };
}

/** The secret values of a configuration: every one of them is redacted from recorded errors. */
export function configuredSecrets(config: {
  llm: { apiKey?: string };
  temporal: { apiKey?: string };
  http?: { apiToken?: string };
  auth?: AuthConfig;
  payloads?: PayloadSettings;
}): string[] {
  const clientSecret = config.auth?.mode === 'oidc' ? config.auth.oidc.clientSecret : undefined;
  // Encryption keys as they are written in the configuration (base64), should one reach a message.
  const keys = (config.payloads?.keys ?? []).map((k) => k.key.toString('base64'));
  return [config.llm.apiKey, config.temporal.apiKey, config.http?.apiToken, clientSecret, ...keys].filter(
    (s): s is string => s !== undefined,
  );
}
