// Each user's allowance of stored run events (RUN_BYTES_PER_DAY, 24 hours; counted by each instance, as the run
// limits are). A run's log keeps every event, each model call's whole request among them: one user's runs (an API
// loop over long conversations, say) could otherwise fill the disk every user's runs are written to. A run is not
// started once its owner's runs have stored the allowance, and a run that takes them past it is stopped, keeping
// what it had.
import { RateLimitError, type ByteBudget } from '../http/rate-limit';
import { formatBytes } from '../protocol/bytes';
import type { ErrorInfo } from '../protocol/events';
import type { OwnerScope } from '../store/owner';

/** Refuses a new run of `owner`'s (429 `run-storage-budget`) while their runs' allowance is spent. */
export function refuseWhenStorageSpent(budget: ByteBudget | undefined, owner: OwnerScope): void {
  const left = budget?.left(owner.ownerId);
  if (!budget || !left || left.bytes > 0) return;
  const [limit, hours] = [formatBytes(budget.maxBytes), Math.max(1, Math.ceil(left.retryAfterS / 3600))];
  throw new RateLimitError(
    'run-storage-budget',
    `Your runs have stored ${limit} in the last 24 hours, the most one user's may (RUN_BYTES_PER_DAY). ` +
      `Try again in ${hours} h.`,
    left.retryAfterS || 60,
    { limit, hours },
  );
}

/** How a run stopped for its owner's spent allowance ends (its run-end's error). */
export function storageSpentError(budget: ByteBudget): ErrorInfo {
  return {
    name: 'RunStorageLimit',
    code: 'run-storage-spent',
    status: 429,
    message:
      `This run was stopped: your runs have stored ${formatBytes(budget.maxBytes)} in the last 24 hours, the most ` +
      `one user's may (RUN_BYTES_PER_DAY). What it had is kept; try again later.`,
  };
}
