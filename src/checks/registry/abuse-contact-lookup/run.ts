/**
 * abuse-contact-lookup: the awaiting part: the registrar's abuse contact from the request's registration
 * look-up (../shared/registration-query.ts).
 */
import type { CheckContext } from '../../../loaders/context.js';
import type { RegistryResult } from '../../../probes/registry/lookup.js';
import { registrations } from '../shared/registration-loader.js';
import type { RegistrationQuery } from '../shared/registration-query.js';

export interface AbuseContactResult {
  domain: string;
  matchedDomain: string;
  /** "" when the answer names no registrar */
  registrar: string;
  /** the registrar's abuse mailbox; "" when none is published */
  email: string;
  /** the registrar's abuse telephone number as published; "" when none is */
  phone: string;
  /** an email or a phone number is published */
  found: boolean;
  source: RegistryResult['source'];
  /** why nothing was found, and what the look-up itself noted (partial chain, redaction); null when nothing */
  message: string | null;
}

function missingContactReason(result: RegistryResult, matchedDomain: string): string {
  if (result.notFound) return `${matchedDomain} is not registered, so it has no registrar abuse contact.`;
  if (result.registrar === null)
    return `The registration data of ${matchedDomain} names no registrar and no abuse contact.`;
  return `The registrar of ${matchedDomain} (${result.registrar}) publishes no abuse contact in the registration data.`;
}

export async function runAbuseContactLookup(ctx: CheckContext, query: RegistrationQuery): Promise<AbuseContactResult> {
  const { result } = await ctx.use(registrations).registration(query.matchedDomain);
  const email = result.abuseEmail ?? '';
  const phone = result.abusePhone ?? '';
  const found = !result.notFound && (email !== '' || phone !== '');
  const notes = [found ? null : missingContactReason(result, query.matchedDomain), result.message].filter(
    (n) => n !== null,
  );
  return {
    domain: query.domain,
    matchedDomain: query.matchedDomain,
    registrar: result.registrar ?? '',
    email,
    phone,
    found,
    source: result.source,
    message: notes.length > 0 ? notes.join(' ') : null,
  };
}
