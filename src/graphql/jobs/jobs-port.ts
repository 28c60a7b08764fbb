/**
 * What the GraphQL job fields ask of the jobs module (src/jobs/jobs-port.ts): the app hands the port to each
 * request's context. The schema's only mutations are the job ones (./job-fields.ts), for the operation limits.
 */
export type { JobsPort } from '../../jobs/jobs-port.js';

export const JOB_MUTATIONS: ReadonlySet<string> = new Set([
  'submitJob',
  'cancelJob',
  // the monitors' (../monitors/monitor-fields.ts)
  'createMonitor',
  'updateMonitor',
  'deleteMonitor',
  'runMonitor',
]);

/** The only subscription: a monitor's events (../monitors/monitor-fields.ts). */
export const SUBSCRIPTIONS: ReadonlySet<string> = new Set(['monitorEvents']);
