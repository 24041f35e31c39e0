/**
 * A token issuer on loopback for bearer-JWT tests: it publishes an OpenID Connect discovery
 * document and its JWKS over real HTTP, and signs JWTs with jose — correct ones, and each kind of
 * bad one (another key, another issuer or audience, expired, `alg: none`). The browser test uses
 * a full provider (oidc-provider); this one only needs to hand out keys.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, UnsecuredJWT, type CryptoKey, type JWK } from 'jose';

export interface JwtIssuer {
  /** The issuer URL (`http://127.0.0.1:<port>`). */
  issuer: string;
  /** A signed JWT for `sub` with `claims`; `options` break it in one way. */
  sign(sub: string, claims: Record<string, unknown>, options?: BadJwt): Promise<string>;
  close(): Promise<void>;
}

/** One way a token can be wrong. */
export type BadJwt = 'wrong-signature' | 'wrong-issuer' | 'wrong-audience' | 'expired' | 'alg-none';

/** Starts the issuer; tokens are for `audience` unless made wrong. */
export async function startJwtIssuer(audience: string): Promise<JwtIssuer> {
  const kid = 'test-key';
  const good = await generateKeyPair('ES256', { extractable: true });
  const other = await generateKeyPair('ES256');
  const jwk: JWK = { ...(await exportJWK(good.publicKey)), kid, alg: 'ES256', use: 'sig' };
  let issuer = '';
  const server: Server = createServer((req, res) => {
    const documents: Record<string, unknown> = {
      '/.well-known/openid-configuration': {
        issuer,
        authorization_endpoint: `${issuer}/auth`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['ES256'],
      },
      '/jwks': { keys: [jwk] },
    };
    const body = documents[req.url ?? ''];
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body ?? { error: 'not found' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const sign = async (sub: string, claims: Record<string, unknown>, bad?: BadJwt): Promise<string> => {
    const now = Math.floor(Date.now() / 1000);
    const exp = bad === 'expired' ? now - 600 : now + 600;
    const iss = bad === 'wrong-issuer' ? 'http://127.0.0.1:1/not-the-issuer' : issuer;
    const aud = bad === 'wrong-audience' ? 'someone-else' : audience;
    if (bad === 'alg-none') {
      return new UnsecuredJWT(claims).setSubject(sub).setIssuer(iss).setAudience(aud).setExpirationTime(exp).encode();
    }
    const key: CryptoKey = bad === 'wrong-signature' ? other.privateKey : good.privateKey;
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid })
      .setSubject(sub)
      .setIssuer(iss)
      .setAudience(aud)
      .setIssuedAt(now - 60)
      .setExpirationTime(exp)
      .sign(key);
  };
  return {
    issuer,
    sign,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
