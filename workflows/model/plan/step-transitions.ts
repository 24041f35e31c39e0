/**
 * Every allowed change of a step run's status, in one table. The step board (the only code
 * that assigns a status) checks each change against it. Pure.
 *
 * - pending → running (started), skipped (a dependency failed or was skipped), cancelled
 * - running → waiting (it asked a person), completed, failed, cancelled
 * - waiting → running (answered), completed, failed, cancelled
 * - failed → waiting (the failure policy asks a person: then retry → pending, skip → skipped)
 * - completed, skipped and cancelled are final.
 */
import type { StepStatus } from './plan-types';

/** Allowed next statuses, by current status. */
export const STEP_TRANSITIONS: Readonly<Record<StepStatus, readonly StepStatus[]>> = {
  pending: ['running', 'skipped', 'cancelled'],
  running: ['waiting', 'completed', 'failed', 'cancelled'],
  waiting: ['running', 'completed', 'failed', 'cancelled', 'pending', 'skipped'],
  failed: ['waiting'],
  completed: [],
  skipped: [],
  cancelled: [],
};

/** Whether a step may go from `from` to `to`. */
export function canMoveStep(from: StepStatus, to: StepStatus): boolean {
  return STEP_TRANSITIONS[from].includes(to);
}

/** Statuses in which a step's child workflow is running. */
export function isActiveStep(status: StepStatus): boolean {
  return status === 'running' || status === 'waiting';
}
