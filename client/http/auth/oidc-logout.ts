/**
 * Signing out of the page (OpenID Connect). `POST /auth/logout` ends the session and, when the
 * provider offers RP-initiated logout (an `end_session_endpoint`), sends the browser there with
 * the session's ID token as `id_token_hint` and the page's address as
 * `post_logout_redirect_uri`, so the provider's own session ends too; else back to the page.
 * `GET /auth/logout` changes nothing: it is a page asking to confirm with that POST. Before, a
 * GET signed the user out — any page, image or link could — and left the provider's session on,
 * so the next sign-in went through silently. The POST passes the cross-site guard like every
 * request that changes something: only this site's pages may send it.
 */
import type { Context, Env, Hono } from 'hono';
import type { SessionStore } from './sessions';

/** What the logout routes need from the provider. */
export interface LogoutOptions {
  path: string;
  sessions: SessionStore;
  /** The provider's logout URL for the session's ID token, or undefined when it offers none. */
  endSessionUrl: (c: Context, idToken: string | undefined) => URL | undefined;
}

/** The confirmation page: one form, no script, nothing from elsewhere. */
function confirmationPage(path: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Sign out of Cairn</title></head>
<body>
<main>
<h1>Sign out of Cairn?</h1>
<p>This ends your session here and, where your sign-in provider allows it, there too.</p>
<form method="post" action="${path}"><button type="submit">Sign out</button></form>
<p><a href="/">Back to Cairn</a></p>
</main>
</body>
</html>
`;
}

/** Registers `GET` (the confirmation page) and `POST` (the sign-out) on `options.path`. */
export function registerLogout<E extends Env>(app: Hono<E>, options: LogoutOptions): void {
  const { path, sessions } = options;
  app.get(path, (c) => {
    // The form may post here and be sent on to the provider's logout: nothing else.
    const provider = options.endSessionUrl(c, undefined)?.origin;
    c.header(
      'Content-Security-Policy',
      `default-src 'none'; form-action 'self'${provider ? ` ${provider}` : ''}; frame-ancestors 'none'`,
    );
    c.header('Cache-Control', 'no-store');
    return c.html(confirmationPage(path));
  });
  app.post(path, (c) => {
    const idToken = sessions.idToken(c);
    sessions.end(c);
    c.header('Cache-Control', 'no-store');
    // 303: the browser follows with a GET, as the provider's logout endpoint expects.
    return c.redirect(options.endSessionUrl(c, idToken)?.href ?? '/', 303);
  });
}
