/**
 * Who is signed in, for the page: the principal from `GET /api/me` (asked once), the controls
 * it may use, and a line naming it — with a sign-out link when the server signs people in, with
 * "Forget token" when a pasted API token is in use (so a token never changes who you are
 * unseen), and the token box when the server wants a token the page does not have. A control
 * the principal may not use is not shown; a note says why instead. The server checks every
 * request anyway: hiding a control is for clarity, not for protection.
 */
import { api, forgetToken, storedToken, useToken } from './api.js';
import { h } from './dom.js';
import { interactionControl } from './forms.js';

/** @typedef {{ id: string, name?: string, roles: string[], method: string, authenticatedBy?: string, auth: string }} Me */

/** @type {Promise<Me | null> | null} */
let asked = null;
/** @type {Me | null} */
let current = null;

/** The signed-in principal (null when the server would not say); asked once per page load. */
export function whoAmI() {
  asked ??= api('/api/me').then(
    (me) => (current = /** @type {Me} */ (me)),
    () => null,
  );
  return asked;
}

/** @param {string} role */
const holds = (role) => current === null || current.roles.includes(role) || current.roles.includes('admin');

/** A personal sign-in's realm (where its ids come from), or null for one that names nobody. @param {unknown} by */
const realmOf = (by) => (by === 'token' ? 'token' : by === 'oidc-session' || by === 'oidc-bearer' ? 'oidc' : null);

/**
 * The question (no role named) was asked of the signed-in person — they started its agent, or
 * sent the thread's message — in the same sign-in realm: they answer it without a role, as the
 * workflow decides. @param {any} interaction
 */
const askedOfMe = (interaction) =>
  current !== null &&
  interaction.role === undefined &&
  interaction.askedOf?.id === current.id &&
  realmOf(current.authenticatedBy) !== null &&
  realmOf(current.authenticatedBy) === realmOf(interaction.askedOf?.authenticatedBy);

/**
 * The control for an open interaction, or — for a principal without the role it needs (its own
 * `role`: the agent's `answerRoles` or an approval policy's `@role`; else `approver`), unless it
 * is a question asked of them — a note saying why it cannot answer.
 * @param {any} interaction
 * @param {(answer: unknown) => Promise<void>} send
 */
export function controlFor(interaction, send) {
  const needed = typeof interaction.role === 'string' ? interaction.role : 'approver';
  if (holds(needed) || askedOfMe(interaction)) return interactionControl(interaction, send);
  const who = current?.name ?? current?.id ?? 'you';
  const roles = current?.roles.length ? current.roles.join(', ') : 'no role';
  return h('div', { class: 'interaction locked', 'data-kind': interaction.kind, 'data-id': interaction.id }, [
    h('p', { class: 'prompt', text: interaction.prompt }),
    h('p', {
      class: 'muted why-locked',
      text: `${who} may not answer this: answering needs the ${needed} role (${who} has ${roles}).`,
    }),
  ]);
}

/** The principal as the header names it. @param {Me} me */
const named = (me) => `${me.name ?? me.id} (${me.roles.length ? me.roles.join(', ') : 'no role'})`;

/**
 * The token box: paste an API token (tokens-file or CAIRN_API_TOKEN), checked by the server
 * before the page keeps it, then the page reloads acting as its principal.
 */
export function tokenBox() {
  const input = /** @type {HTMLInputElement} */ (
    h('input', {
      type: 'password',
      name: 'token',
      autocomplete: 'off',
      placeholder: 'API token',
      'aria-label': 'API token',
    })
  );
  const error = h('span', { class: 'error', role: 'alert' });
  const form = h('form', { class: 'token-box' }, [input, h('button', { type: 'submit', text: 'Use token' }), error]);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void useToken(input.value).then((why) => (why === null ? location.reload() : (error.textContent = why)));
  });
  return form;
}

/**
 * The header's identity part: the pasted token's principal with "Forget token"; else the
 * signed-in person with "Sign out" (OpenID Connect); else the token box when the server wants a
 * token; else nothing (no authentication).
 */
export async function identityLine() {
  const me = await whoAmI();
  if (storedToken() !== null) {
    const forget = h('a', { href: '#', class: 'forget-token', text: 'Forget token' });
    forget.addEventListener('click', (e) => {
      e.preventDefault();
      forgetToken();
      location.reload();
    });
    const who = me ? `API token of ${named(me)}` : 'API token (refused by the server)';
    return h('span', { class: 'identity' }, [h('span', { class: 'who', text: who }), ' · ', forget]);
  }
  if (me === null) return tokenBox();
  if (me.auth !== 'oidc') return null;
  return h('span', { class: 'identity' }, [
    h('span', { class: 'who', text: named(me) }),
    ' · ',
    h('a', { href: '/auth/logout', text: 'Sign out' }),
  ]);
}
