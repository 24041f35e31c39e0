/**
 * Who is signed in, for the page: the principal from `GET /api/me` (asked once), the controls
 * it may use, and a line naming it with a sign-out link when the server signs people in. A
 * control the principal may not use is not shown; a note says why instead. The server checks
 * every request anyway: hiding a control is for clarity, not for protection.
 */
import { api } from './api.js';
import { h } from './dom.js';
import { interactionControl } from './forms.js';

/** @typedef {{ id: string, name?: string, roles: string[], method: string, auth: string }} Me */

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

/**
 * The control for an open interaction, or — for a principal without the role it needs (its own
 * `role`: the agent's `answerRoles` or an approval policy's `@role`; else `approver`) — a note
 * saying why it cannot answer.
 * @param {any} interaction
 * @param {(answer: unknown) => Promise<void>} send
 */
export function controlFor(interaction, send) {
  const needed = typeof interaction.role === 'string' ? interaction.role : 'approver';
  if (holds(needed)) return interactionControl(interaction, send);
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

/** "Signed in as … · Sign out", when the server signs people in; nothing otherwise. */
export async function identityLine() {
  const me = await whoAmI();
  if (!me || me.auth !== 'oidc') return null;
  const roles = me.roles.length ? me.roles.join(', ') : 'no role';
  return h('span', { class: 'identity' }, [
    h('span', { class: 'who', text: `${me.name ?? me.id} (${roles})` }),
    ' · ',
    h('a', { href: '/auth/logout', text: 'Sign out' }),
  ]);
}
