/**
 * The agent page's audit panel: every decision on the agent from `GET /api/agents/:id/audit`,
 * oldest first — answers with who gave them (principal id, then name, roles, how: web, api, cli
 * or straight to Temporal, and what authenticated them), expiries, pauses, resumes and the end.
 */
import { api } from './api.js';
import { clock, h } from './dom.js';

/**
 * A panel for the agent at `path` (`/api/agents/<id>`); `refresh()` reloads it.
 * @param {string} path
 */
export function auditPanel(path) {
  const list = h('ol', { class: 'audit', id: 'audit' });
  const refresh = () =>
    api(`${path}/audit`)
      .then(({ entries }) => list.replaceChildren(...entries.map(auditLine)))
      .catch((err) => list.replaceChildren(h('li', { class: 'error', text: err.message })));
  return { el: h('section', { class: 'card' }, [h('h2', { text: 'Audit' }), list]), refresh };
}

/**
 * Who acted, by principal id first: a display name is the provider's (which its user may
 * edit), so it stands beside the id in quotes, never for it; then roles, how the request came
 * and what authenticated it.
 * @param {{ id: string, name?: string, roles: string[], method: string, authenticatedBy?: string }} actor
 */
function actorText(actor) {
  const name = actor.name && actor.name !== actor.id ? ` “${actor.name}”` : '';
  const how = actor.authenticatedBy ? `${actor.method}, ${actor.authenticatedBy}` : actor.method;
  return `${actor.id}${name} (${actor.roles.join(', ') || 'no role'}; ${how})`;
}

/** @param {{ at: number, what: string, decision?: string, by?: string, actor?: { id: string, name?: string, roles: string[], method: string, authenticatedBy?: string } }} entry */
function auditLine(entry) {
  const actor = entry.actor;
  const who = actor ? actorText(actor) : (entry.by ?? '');
  return h('li', { 'data-what': entry.what }, [
    h('time', { class: 'muted', text: clock(entry.at) }),
    ` ${entry.what}${entry.decision ? `: ${entry.decision}` : ''}`,
    who ? h('span', { class: 'who', text: ` — ${who}` }) : null,
  ]);
}
