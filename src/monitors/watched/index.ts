/**
 * Every check a monitor may run, by its v1 tool name, with its watch spec (docs/contract/monitors.md:
 * every v1 GET tool but my-ip and what-is-my-ip), and the contract's presets.
 */
import { abuseContactWatch } from './abuse-contact-lookup.js';
import { asnLookupWatch } from './asn-lookup.js';
import { bimiWatch } from './bimi.js';
import { daneWatch } from './dane.js';
import { dkimCheckerWatch } from './dkim-checker.js';
import { dmarcCheckerWatch } from './dmarc-checker.js';
import { dnsBlacklistWatch } from './dns-blacklist-checker.js';
import { dnsLookupWatch } from './dns-lookup.js';
import { dnsPropagationWatch } from './dns-propagation.js';
import { dnssecChainWatch } from './dnssec-chain.js';
import { dnssecTestWatch } from './dnssec-test.js';
import { httpHeadersWatch } from './http-headers.js';
import { httpRatingWatch } from './http-rating.js';
import { ipInfoWatch } from './ip-info.js';
import { mailhealthWatch } from './mailhealth-check.js';
import { mtaStsWatch } from './mta-sts.js';
import { mxLookupWatch } from './mx-lookup.js';
import { openGraphWatch } from './open-graph-checker.js';
import { pingWatch } from './ping.js';
import { portCheckerWatch } from './port-checker.js';
import { smtpStarttlsWatch } from './smtp-starttls.js';
import { spfCheckerWatch } from './spf-checker.js';
import { sslCheckerWatch } from './ssl-checker.js';
import { tlsConfigurationWatch } from './tls-configuration.js';
import { tlsRatingWatch } from './tls-rating.js';
import { tlsRptWatch } from './tls-rpt.js';
import type { CompiledWatchSpec } from './watch-spec.js';
import { websiteHealthWatch } from './website-health-check.js';
import { whoisWatch } from './whois.js';

const SPECS: readonly CompiledWatchSpec[] = [
  abuseContactWatch,
  asnLookupWatch,
  bimiWatch,
  daneWatch,
  dkimCheckerWatch,
  dmarcCheckerWatch,
  dnsBlacklistWatch,
  dnsLookupWatch,
  dnsPropagationWatch,
  dnssecChainWatch,
  dnssecTestWatch,
  httpHeadersWatch,
  httpRatingWatch,
  ipInfoWatch,
  mailhealthWatch,
  mtaStsWatch,
  mxLookupWatch,
  openGraphWatch,
  pingWatch,
  portCheckerWatch,
  smtpStarttlsWatch,
  spfCheckerWatch,
  sslCheckerWatch,
  tlsConfigurationWatch,
  tlsRatingWatch,
  tlsRptWatch,
  websiteHealthWatch,
  whoisWatch,
];

/** The watch spec of each tool a monitor may run. */
export const WATCH_SPECS: ReadonlyMap<string, CompiledWatchSpec> = new Map(SPECS.map((s) => [s.tool, s]));

/** The contract's presets: a name in `checks` that stands for these tools, in this order. */
export const PRESETS: Readonly<Record<string, readonly string[]>> = {
  web: ['website-health-check', 'tls-rating', 'http-rating', 'dnssec-chain', 'whois'],
  mail: ['mailhealth-check', 'dnssec-chain', 'whois'],
  tls: ['tls-rating'],
};

export type { CompiledWatchSpec, WatchSpec, Assessment, AnswerStatus, Expiry } from './watch-spec.js';
