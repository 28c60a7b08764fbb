/**
 * What whois and abuse-contact-lookup ask about: the name and its registrable domain. Both read the one
 * registration look-up of the registrable domain (./registration-loader.ts: RDAP first, WHOIS with
 * referrals otherwise, once per request, cached 1 h) and shape it as api-v1.md's `data`.
 *
 * Absent facts. api-v1.md types `registrar`, `email` and `phone` as strings: "" when the registry
 * publishes none. The dates are "ISO 8601 UTC timestamp" strings there too, but no date is more
 * honest than an invented one, so a date the registry does not give is null, and so is
 * `daysUntilExpiry` without an expiry date.
 */
import { getDomain } from 'tldts';
import { InputError } from '../../../errors.js';

export interface RegistrationQuery {
  /** the name asked about (A-labels, lower case, no root dot: parseHostname's output) */
  domain: string;
  /** its registrable domain (tldts getDomain), the name the registries are asked about */
  matchedDomain: string;
}

/**
 * The registries' question for a host name: its registrable domain (decisions §5). A name that is
 * a public suffix itself ("co.uk") has none: no registry holds a registration for it.
 */
export function registrationQuery(parameter: string, domain: string): RegistrationQuery {
  const matchedDomain = getDomain(domain);
  if (!matchedDomain) {
    throw new InputError(
      parameter,
      `${parameter}: ${domain} is a public suffix (a TLD or a name under which anyone can register), not a registered domain; ask about a name registered under it, such as example.${domain}`,
    );
  }
  return { domain, matchedDomain };
}
