/**
 * A job's callback (docs/jobs.md "Callback"): when the job ends, the job as GET answers it (not enveloped)
 * is POSTed to its `callbackUrl` by signed delivery (./signed-delivery.ts), keyed with the job's
 * `callbackSecret`; each try's outcome is kept on the job.
 */
import type { Services } from '../services.js';
import { jobView, type JobRecord } from './job-record.js';
import { deliverSigned, type DeliveryState } from './signed-delivery.js';

/** Sends the ended job's callback if it has one still to send; null when it has none. */
export async function sendJobCallback(
  services: Services,
  record: JobRecord,
  save: (state: DeliveryState) => Promise<void>,
  signal: AbortSignal,
): Promise<DeliveryState | null> {
  if (!record.callbackUrl || !record.callbackSecret || record.callback?.status !== 'pending') return null;
  return deliverSigned(
    services,
    {
      url: record.callbackUrl,
      secret: record.callbackSecret,
      body: JSON.stringify(jobView(record, 0)),
      backoffMs: services.config.jobs.callbackBackoffMs,
      signal,
    },
    save,
  );
}
