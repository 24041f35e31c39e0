/**
 * Signs a person in at the test provider (oidc-provider-process.js) over plain HTTP, as a
 * browser would but without one: follows the provider's redirects with a cookie jar, posts its
 * development login form (any password) and its consent form, and stops at the redirect back to
 * the client — returning that URL (`<redirect_uri>?code=…&state=…`) for the test to deliver.
 */

/** Cookies of one host, as `name=value`. */
type Jar = Map<string, string>;

function remember(jar: Jar, res: Response): void {
  for (const line of res.headers.getSetCookie()) {
    const [pair = ''] = line.split(';');
    const eq = pair.indexOf('=');
    if (eq > 0) jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
  }
}

const cookieHeader = (jar: Jar) => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');

/** The action of the page's one form, resolved against the page. */
function formAction(html: string, page: string): URL {
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  if (action === undefined) throw new Error(`no form on ${page}: ${html.slice(0, 300)}`);
  return new URL(action.replace(/&amp;/g, '&'), page);
}

/**
 * From the provider's authorization URL (where the client's `/auth/login` sent the browser) to
 * the client's callback URL with the code, signing in as `login`.
 */
export async function signInOverHttp(authorizationUrl: string, login: string): Promise<string> {
  const jar: Jar = new Map();
  const issuer = new URL(authorizationUrl).origin;
  let next = new URL(authorizationUrl);
  let body: URLSearchParams | undefined;
  for (let hop = 0; hop < 20; hop += 1) {
    if (next.origin !== issuer) return next.href;
    const res = await fetch(next, {
      method: body ? 'POST' : 'GET',
      redirect: 'manual',
      headers: { cookie: cookieHeader(jar), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      ...(body ? { body } : {}),
    });
    remember(jar, res);
    body = undefined;
    const location = res.headers.get('location');
    if (location !== null) {
      next = new URL(location, next);
      continue;
    }
    const html = await res.text();
    if (res.status !== 200)
      throw new Error(`the provider answered ${res.status} at ${next.href}: ${html.slice(0, 300)}`);
    const action = formAction(html, next.href);
    body = html.includes('name="login"')
      ? new URLSearchParams({ prompt: 'login', login, password: 'any password' })
      : new URLSearchParams({ prompt: 'consent' });
    next = action;
  }
  throw new Error('the sign-in did not come back to the client within 20 hops');
}
