/**
 * What both composite checks answer alike: the verdict, and the interface of their checks with its status.
 */
import type { HealthCheckStatus, Verdict } from './verdict.js';
import { builder } from '../../../graphql/builder.js';

export const HealthCheckStatusEnum = builder.enumType('HealthCheckStatus', {
  description: 'The status of one check of a composite health check (decisions §4).',
  values: {
    ok: { description: 'Nothing to do.' },
    info: { description: 'Worth knowing; nothing needs fixing.' },
    warning: { description: 'Should be fixed.' },
    critical: { description: 'Visitors (or mail) are affected now or soon: fix first.' },
    error: {
      description:
        'The check could not run (time-out, upstream failure); `error` says why. Counts as a warning in the verdict.',
    },
  } as const,
});

export const HealthVerdictStatusEnum = builder.enumType('HealthVerdictStatus', {
  description: 'The verdict: the worst check wins; `error` counts as `warning`, `info` as `ok`.',
  values: {
    ok: { description: 'Every check is ok or info.' },
    warning: { description: 'At least one check is warning or error, none critical.' },
    critical: { description: 'At least one check is critical.' },
  } as const,
});

export const HealthVerdictRef = builder.objectRef<Verdict>('HealthVerdict').implement({
  fields: (t) => ({
    status: t.field({ type: HealthVerdictStatusEnum, resolve: (v) => v.status }),
    headline: t.exposeString('headline', {
      description: 'How many checks need attention and which (for ok: that all passed, and how many notes).',
    }),
    summary: t.exposeString('summary', {
      description:
        'The summaries of the worst findings, worst first (at most three, then how many more); for ok, the notes.',
    }),
  }),
});

export interface HealthCheckShape {
  id: string;
  label: string;
  status: HealthCheckStatus;
  summary: string;
  error: string | null;
}

export const HealthCheckRef = builder.interfaceRef<HealthCheckShape>('HealthCheck').implement({
  description: 'One check of a composite health check.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'Stable identifier of the check.' }),
    label: t.exposeString('label', { description: 'Human-readable name.' }),
    status: t.field({ type: HealthCheckStatusEnum, resolve: (c) => c.status }),
    summary: t.exposeString('summary', { description: 'One sentence: what was found and, when not ok, what to do.' }),
    error: t.exposeString('error', {
      nullable: true,
      description: 'Why the check could not run (status error); null otherwise.',
    }),
  }),
});
