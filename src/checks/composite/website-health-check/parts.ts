/**
 * website-health-check's parts that are single checks (tls-rating, http-rating, …): each declares in its
 * own folder how it joins (`websiteParts.part({…})` in its declaration's `partOf`), with what it is given
 * of the site below; the composite runs every part joined beside its own, within the same bound
 * (../shared/parts.ts says what is derived from them).
 */
import type { CheckContext } from '../../../loaders/context.js';
import type { Finding } from '../shared/finding.js';
import type { PartBound } from '../shared/part-bound.js';
import { CompositeParts, type PartSpec } from '../shared/parts.js';

/** What a part is told of the site, once the target check has passed. */
export interface WebsiteSite {
  /** the request's check context: a part asks as its single check does, so both share answers */
  readonly checks: CheckContext;
  /** A-label, lower case, no trailing dot */
  readonly hostname: string;
  /** the URL when the target was one; null for a domain */
  readonly url: URL | null;
  /** the URL as given, or https://<hostname>/ */
  readonly targetUrl: URL;
  /** the address the checks connect to: the first IPv4 address, else the first IPv6 one */
  readonly ip: string;
  /** the port of the ssl check: the target URL's when it is https, else the HTTPS port */
  readonly sslPort: number;
  /** the parts' common bound: a part that would outlive it is `error` */
  readonly bound: PartBound;
}

export interface WebsitePartSpec extends PartSpec {
  /**
   * Asks the check (as its run function does, through `site.checks`) and judges the answer: the finding's
   * details are the check's data. A NetdiagError thrown is the part's `error` with that reason.
   */
  readonly run: (site: WebsiteSite) => Promise<Finding<unknown>>;
}

/** The parts of website-health-check that are single checks; a part's data field is null when it could not run. */
export const websiteParts = new CompositeParts<WebsitePartSpec>('website-health-check', 'Website', true);
