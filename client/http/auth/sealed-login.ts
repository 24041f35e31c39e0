/**
 * A sign-in's state between `/auth/login` and `/auth/callback` (PKCE verifier, `state`, `nonce`,
 * where to return), sealed into the short-lived `cairn_login` cookie with jose's JWE encryption
 * (`dir`, A256GCM) under a key that lives only in this process's memory. The server keeps
 * nothing per sign-in: before, every unauthenticated `/auth/login` held up to 16 KB in a map for
 * ten minutes (4,000 requests held +130 MiB) and each one swept the whole map. The cookie is
 * encrypted and authenticated, expires with the sign-in, and names where it may return to by
 * path only, cut to MAX_RETURN_TO_CHARS.
 */
import { randomBytes } from 'node:crypto';
import { EncryptJWT, jwtDecrypt } from 'jose';
import { z } from 'zod';

/** How long a sign-in may take at the provider (seconds). */
export const LOGIN_TTL_SECONDS = 10 * 60;

/** The longest return path a sign-in keeps; a longer one returns to `/`. */
export const MAX_RETURN_TO_CHARS = 1024;

/** What a sign-in carries from its start to its return. */
export interface PendingLogin {
  codeVerifier: string;
  state: string;
  nonce: string;
  returnTo: string;
}

/** The audience of the sealed token: a JWE of this process for another purpose is not a login. */
const AUDIENCE = 'cairn-login';

const claimsSchema = z.object({
  cv: z.string().min(43).max(128),
  st: z.string().min(1).max(128),
  nc: z.string().min(1).max(128),
  rt: z.string().max(MAX_RETURN_TO_CHARS),
});

/** Seals and opens pending sign-ins under one random key (so a restart ends sign-ins under way). */
export class LoginSealer {
  private readonly key = new Uint8Array(randomBytes(32));

  /** The cookie value for `login`, valid for LOGIN_TTL_SECONDS. */
  seal(login: PendingLogin): Promise<string> {
    const claims = { cv: login.codeVerifier, st: login.state, nc: login.nonce, rt: login.returnTo };
    return new EncryptJWT(claims)
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(`${LOGIN_TTL_SECONDS}s`)
      .encrypt(this.key);
  }

  /** The sign-in a cookie value seals; undefined when it is forged, altered, another key's or expired. */
  async open(sealed: string): Promise<PendingLogin | undefined> {
    try {
      const { payload } = await jwtDecrypt(sealed, this.key, {
        audience: AUDIENCE,
        keyManagementAlgorithms: ['dir'],
        contentEncryptionAlgorithms: ['A256GCM'],
        requiredClaims: ['exp'],
      });
      const claims = claimsSchema.parse(payload);
      return { codeVerifier: claims.cv, state: claims.st, nonce: claims.nc, returnTo: claims.rt };
    } catch {
      return undefined;
    }
  }
}
