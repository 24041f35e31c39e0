/**
 * The line a worker logs once at start about upgrading to this build: what ran on development
 * builds between 0.3.0 and 0.4.0 has no gates (only released versions' paths are gated), so
 * such agents and threads must not be moved onto it.
 */

/** The commit that released 0.3.0, the last release before this development line. */
export const LAST_RELEASE_COMMIT = '91d7d11';

/** What an operator upgrading to this build must do first (docs/operations.md, "Upgrading from a development build"). */
export const UPGRADE_NOTE =
  `Upgrade note: agents and threads started by a build of any commit after ${LAST_RELEASE_COMMIT} (0.3.0's release) ` +
  'must finish, be terminated, or stay on their pinned Worker Deployment version before this build takes them ' +
  '(docs/operations.md#upgrading-from-a-development-build); agents of releases 0.1.0–0.3.0 upgrade in place.';
