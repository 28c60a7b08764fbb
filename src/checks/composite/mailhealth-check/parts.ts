/**
 * mailhealth-check's parts that are single checks (mta-sts, tls-rpt, starttls, dane, bimi: the mail
 * transport parts of docs/contract/mail-transport.md): each declares in its own folder how it joins
 * (`mailParts.part({…})` in its declaration's `partOf`), with what it is given of the domain below; the
 * composite runs every part joined beside its own, within the same bound (../shared/parts.ts says what is
 * derived from them).
 */
import type { CheckContext } from '../../../loaders/context.js';
import { CompositeParts, type PartSpec } from '../shared/parts.js';
import type { HostFinding, MxContext } from './transport-rules.js';

/** The domain's MX answer as the parts need it: the names of the exchanges followed, and whether it is a null MX. */
export interface MxNames {
  exchanges: string[];
  /** exchanges beyond those followed */
  omittedExchanges: number;
  nullMx: boolean;
  rcode: 'NOERROR' | 'NXDOMAIN';
}

/** What a part is told of the domain. */
export interface MailDomain {
  /** the request's check context: a part asks as its single check does, so both share answers */
  readonly checks: CheckContext;
  /** A-label, lower case */
  readonly domain: string;
  /** the domain's MX hosts (the mx part's question): rejects when it could not be asked */
  readonly mx: Promise<MxNames>;
  /** what a per-host part says when there is no host to test, or SMTP probes are off */
  mxContext(mx: MxNames): MxContext;
  /** the facts part `id` gathered: rejects when it could not gather them, or when no such part joined */
  factsOf(id: string): Promise<unknown>;
}

export interface MailPartSpec extends PartSpec {
  /** one check per MX host (MailCheck.host), by priority, rather than one about the domain */
  readonly perHost?: boolean;
  /** what the part learns: its single check's result, or one per MX host (other parts may read it) */
  readonly facts: (mail: MailDomain) => Promise<unknown>;
  /**
   * Its findings on those facts: one about the domain (host null) or one per MX host; the details are the
   * check's data, or a PartNotTested saying why there is none. A NetdiagError thrown is the part's `error`.
   */
  readonly findings: (facts: any, mail: MailDomain) => Promise<HostFinding<unknown>[]> | HostFinding<unknown>[];
}

/** The parts of mailhealth-check that are single checks; one without data has PartNotTested details. */
export const mailParts = new CompositeParts<MailPartSpec>('mailhealth-check', 'Mail', false);
