/**
 * A store call on a request's path (jobs, monitors): answered within the request bound, or a 503 that says
 * which store did not answer and at which step, so that a store that is down or hung never holds a request
 * (docs/jobs.md "Durability").
 */
import { withDeadline } from '../deadline.js';
import { NetdiagError, UnavailableError } from '../errors.js';
import type { Logger } from '../log.js';

export type BoundedStoreStep = <T>(step: string, work: () => Promise<T>) => Promise<T>;

export function boundedStoreStep(options: {
  /** as the 503 names it: "the job store" */
  readonly store: string;
  readonly boundMs: number;
  readonly logger: Logger;
  /** the log event of a store's failure */
  readonly event: string;
}): BoundedStoreStep {
  const { store, boundMs, logger, event } = options;
  return async (step, work) => {
    try {
      return await withDeadline(work(), boundMs, () => {
        throw new UnavailableError(`${store} did not answer within ${boundMs / 1000} s (${step}); retry later`);
      });
    } catch (e) {
      if (e instanceof NetdiagError) throw e;
      logger.error(event, { step, message: (e as Error).message });
      throw new UnavailableError(`${store} is unavailable (${step}); retry later`, { cause: e });
    }
  };
}
