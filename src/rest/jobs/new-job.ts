/** A new job's record, as both stores keep it (docs/contract/jobs.md "Endpoints", POST). */
import { randomBytes } from 'node:crypto';
import type { KeyIdentity } from '../../platform/keys.js';
import { newCallbackSecret } from './callback.js';
import type { JobRecord } from './job-record.js';
import type { Submission } from './submission.js';

/**
 * Ids start with the creation time in base 36, fixed width, so that they sort by age: the listing's
 * cursor is "ids below this one", and the retention sweep reads a directory's age from its name.
 */
export function newJobId(at: number): string {
  return `j${at.toString(36).padStart(9, '0')}${randomBytes(8).toString('hex')}`;
}

export function newJobRecord(
  identity: KeyIdentity,
  submission: Submission,
  charge: { itemCost: number; chargeId: string | null },
  at: number,
): JobRecord {
  const callback = submission.callbackUrl;
  return {
    id: newJobId(at),
    keyId: identity.id,
    keyKind: identity.kind,
    tool: submission.route.tool,
    total: submission.targets.length,
    params: submission.params,
    itemCost: charge.itemCost,
    chargeId: charge.chargeId,
    createdAt: new Date(at).toISOString(),
    status: 'queued',
    startedAt: null,
    finishedAt: null,
    done: 0,
    failed: 0,
    cancelled: 0,
    refunded: 0,
    callbackUrl: callback,
    callbackSecret: callback === null ? null : newCallbackSecret(),
    callback: callback === null ? null : { status: 'pending', attempts: 0, error: null },
  };
}
