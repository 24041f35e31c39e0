/**
 * API tokens (CAIRN_TOKENS_FILE and CAIRN_API_TOKEN): the file lists
 * `{ principal, name?, roles, tokenSha256 }`, so it holds no token itself, only its SHA-256 hex
 * digest. A presented token is hashed and compared with every entry in constant time, so
 * neither which entry nor how much of it matched leaks through timing.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { issueLines } from '../../../workflows/base/issue-lines';
import { roleSchema, type Principal } from './principal';

const entrySchema = z.object({
  principal: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  name: z.string().trim().min(1).max(200).optional(),
  roles: z.array(roleSchema).min(1, 'must name at least one role'),
  tokenSha256: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, "must be the 64 hex digits of the token's SHA-256")
    .transform((hex) => hex.toLowerCase()),
});

/** The tokens file's shape. */
export const tokensFileSchema = z.array(entrySchema);
export type TokenEntry = z.infer<typeof entrySchema>;

/** The SHA-256 hex digest of a token, as the file stores it (`printf %s "$TOKEN" | sha256sum`). */
export const sha256Hex = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** The principal of CAIRN_API_TOKEN: the single admin token of the simplest setup. */
export const API_TOKEN_PRINCIPAL = 'api-token';

/** Reads and validates a tokens file; throws an Error naming the file and every bad entry. */
export function readTokensFile(path: string): TokenEntry[] {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(`CAIRN_TOKENS_FILE ${path}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  const parsed = tokensFileSchema.safeParse(json);
  if (!parsed.success) throw new Error(`CAIRN_TOKENS_FILE ${path}: ${issueLines(parsed.error, '(file)').join('; ')}`);
  return parsed.data;
}

/** Looks tokens up; built from the file's entries plus CAIRN_API_TOKEN as an admin. */
export class TokenTable {
  /** Each entry with its digest; `shared` marks CAIRN_API_TOKEN, which names no one person. */
  private readonly entries: { digest: Buffer; entry: TokenEntry; shared: boolean }[];

  constructor(entries: readonly TokenEntry[], apiToken?: string) {
    const all = entries.map((entry) => ({ entry, shared: false }));
    if (apiToken !== undefined) {
      const entry: TokenEntry = {
        principal: API_TOKEN_PRINCIPAL,
        name: 'CAIRN_API_TOKEN',
        roles: ['admin'],
        tokenSha256: sha256Hex(apiToken),
      };
      all.push({ entry, shared: true });
    }
    this.entries = all.map(({ entry, shared }) => ({ digest: Buffer.from(entry.tokenSha256, 'hex'), entry, shared }));
  }

  get size(): number {
    return this.entries.length;
  }

  /** The principal a token belongs to, or undefined; every entry is compared. */
  lookup(token: string, method: Principal['method']): Principal | undefined {
    const presented = createHash('sha256').update(token, 'utf8').digest();
    let found: { entry: TokenEntry; shared: boolean } | undefined;
    for (const { digest, entry, shared } of this.entries) {
      if (timingSafeEqual(presented, digest) && found === undefined) found = { entry, shared };
    }
    if (!found) return undefined;
    const { entry, shared } = found;
    return {
      id: entry.principal,
      ...(entry.name ? { name: entry.name } : {}),
      roles: [...entry.roles],
      method,
      authenticatedBy: shared ? 'shared-token' : 'token',
    };
  }
}
