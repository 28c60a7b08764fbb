/**
 * What a person should make of an answer: its findings, each with what is wrong (the API's own words),
 * why it matters, how to fix it, and the RFC or guideline that says so. The catalogue is written once, as
 * data keyed by what the API names (a composite's check id, a TLS cap or warning code, a DNSSEC error or
 * warning code, an Observatory test), and read by the report page (src/web/report/client/) and the
 * `netdiag` command (src/cli/), whose `--fail-on` counts the findings' severities. Pure: bundled into the
 * browser's script too.
 */

export type Severity = 'critical' | 'warning' | 'info';

export interface Advice {
  /** why it matters, to a person who runs the domain */
  readonly why: string;
  /** what to do */
  readonly fix: string;
  /** the RFC or guideline */
  readonly link: { readonly title: string; readonly url: string };
}

export interface Finding {
  readonly severity: Severity;
  /** a stable name: the check id or the code the API gives */
  readonly code: string;
  /** a short title */
  readonly title: string;
  /** what is wrong, in the API's words (upstream text: render it as text) */
  readonly what: string;
  readonly advice: Advice | null;
}

export const SEVERITY_ORDER: Readonly<Record<Severity, number>> = { info: 0, warning: 1, critical: 2 };

const rfc = (n: number, section?: string) => ({
  title: `RFC ${n}${section ? ` §${section}` : ''}`,
  url: `https://www.rfc-editor.org/rfc/rfc${n}${section ? `#section-${section}` : ''}`,
});
const SSL_LABS_GUIDE = {
  title: 'SSL Labs Server Rating Guide',
  url: 'https://github.com/ssllabs/research/wiki/SSL-Server-Rating-Guide',
};
const MOZILLA_TLS = { title: 'Mozilla Server Side TLS', url: 'https://wiki.mozilla.org/Security/Server_Side_TLS' };
const mdnHeader = (name: string) => ({
  title: `MDN: ${name}`,
  url: `https://developer.mozilla.org/en-US/docs/Web/HTTP/Reference/Headers/${name}`,
});
const OBSERVATORY_GUIDE = {
  title: 'MDN HTTP Observatory: tests and scoring',
  url: 'https://developer.mozilla.org/en-US/observatory/docs/tests_and_scoring',
};

/** By check id of website-health-check and mailhealth-check (the composites' parts). */
export const CHECK_ADVICE: Readonly<Record<string, Advice>> = {
  dns: {
    why: 'Without an address record nobody can reach the site.',
    fix: 'Publish A (and AAAA) records for the name at your DNS provider, and make sure every name server answers.',
    link: rfc(1035),
  },
  location: {
    why: "Where the server stands decides which network path visitors take and which country's law applies.",
    fix: 'Nothing to fix unless the address is not the host you expect.',
    link: { title: 'IANA number resources', url: 'https://www.iana.org/numbers' },
  },
  organization: {
    why: 'The network that announces the address is who carries your traffic.',
    fix: 'Nothing to fix unless the network is not the one you expect.',
    link: rfc(1930),
  },
  ping: {
    why: 'Packet loss on a host that answers echo points to a congested or failing path (many hosts never answer).',
    fix: 'Trace the path (mtr, traceroute); allow ICMP echo if you monitor the host with it.',
    link: rfc(792),
  },
  latency: {
    why: 'A slow first byte makes every page slower.',
    fix: 'Serve from closer to visitors (a CDN), keep connections alive, and resume TLS sessions.',
    link: rfc(9110, '9.3'),
  },
  http: {
    why: 'Visitors get an error instead of the site.',
    fix: "Read the server's logs for the failing status and fix what it names.",
    link: rfc(9110, '15'),
  },
  redirects: {
    why: 'Each redirect is another round trip before the page, and a long chain may loop.',
    fix: 'Redirect straight to the final https:// address, in one hop.',
    link: rfc(9110, '15.4'),
  },
  ssl: {
    why: 'An expired, untrusted or mismatched certificate stops browsers with a full-page warning.',
    fix: 'Renew before expiry (automate it with ACME), and serve the whole chain for every name of the site.',
    link: rfc(8555),
  },
  security: {
    why: 'Security headers make browsers refuse framing, content sniffing and insecure loads of your pages.',
    fix: 'Send Strict-Transport-Security, Content-Security-Policy, X-Content-Type-Options, frame-ancestors (or X-Frame-Options) and Referrer-Policy.',
    link: OBSERVATORY_GUIDE,
  },
  protocol: {
    why: 'HTTP/2 and HTTP/3 load a page over fewer connections, with less waiting.',
    fix: 'Turn on HTTP/2 in the server or its front (and HTTP/3 where offered).',
    link: rfc(9113),
  },
  compression: {
    why: 'Uncompressed text takes several times longer to download.',
    fix: 'Compress text answers (HTML, CSS, JavaScript, JSON) with brotli or gzip.',
    link: rfc(9110, '8.4'),
  },
  ports: {
    why: 'Visitors type the bare name: port 80 must answer and send them to HTTPS on 443.',
    fix: 'Serve HTTPS on 443 and redirect port 80 to it.',
    link: rfc(9110, '4.2'),
  },
  'tls-rating': {
    why: "The grade sums up how well the server's TLS protects visitors' connections.",
    fix: 'See the TLS section: drop old protocol versions and weak suites, serve a trusted, complete chain.',
    link: SSL_LABS_GUIDE,
  },
  caa: {
    why: 'CAA records name the certificate authorities that may issue for the domain; without them any CA may.',
    fix: 'Publish CAA records with issue (and issuewild) naming your CAs, and iodef for reports.',
    link: rfc(8659),
  },
  'security-txt': {
    why: 'security.txt tells whoever finds a vulnerability in your site how to reach you.',
    fix: 'Serve /.well-known/security.txt over HTTPS with Contact and an Expires within a year, signed if you can.',
    link: rfc(9116),
  },
  'http-rating': {
    why: "The Observatory's grade sums up the HTTP security headers browsers enforce for you.",
    fix: 'See the HTTP security section: each failed test says what to send.',
    link: OBSERVATORY_GUIDE,
  },
  mx: {
    why: 'Without MX records nobody can deliver mail to the domain.',
    fix: 'Publish MX records naming your mail servers; a null MX (RFC 7505) only when the domain takes no mail.',
    link: rfc(5321, '5'),
  },
  spf: {
    why: 'Receivers use SPF to tell your servers from forgers: a missing or broken record sends your mail to spam.',
    fix: 'Publish one TXT record starting "v=spf1" that names every sender, ends in -all or ~all, and needs at most 10 DNS lookups.',
    link: rfc(7208),
  },
  dmarc: {
    why: 'DMARC tells receivers what to do with mail that fails SPF and DKIM, and sends you reports of who sends as you.',
    fix: 'Publish a TXT record at _dmarc.<domain>: "v=DMARC1; p=quarantine; rua=mailto:…", then move to p=reject.',
    link: rfc(7489),
  },
  dkim: {
    why: 'A DKIM signature proves a message came from your domain unaltered.',
    fix: 'Turn on DKIM signing at your mail provider and publish its key at <selector>._domainkey.<domain>.',
    link: rfc(6376),
  },
  blacklist: {
    why: 'A listed address gets your mail rejected or sent to spam.',
    fix: 'Find why it was listed (a compromised account, an open relay), fix that, then ask each list to remove it.',
    link: rfc(5782),
  },
  'mta-sts': {
    why: 'MTA-STS makes senders require TLS with a valid certificate, so mail to you cannot be downgraded to plain text.',
    fix: 'Publish _mta-sts.<domain> TXT and https://mta-sts.<domain>/.well-known/mta-sts.txt in mode enforce, listing your MX hosts.',
    link: rfc(8461),
  },
  'tls-rpt': {
    why: 'TLS reports tell you when senders fail to reach your servers securely.',
    fix: 'Publish a TXT record at _smtp._tls.<domain>: "v=TLSRPTv1; rua=mailto:…".',
    link: rfc(8460),
  },
  starttls: {
    why: 'Without STARTTLS and a valid certificate, mail to you crosses the network readable by anyone on the path.',
    fix: 'Offer STARTTLS on every MX host, with a certificate valid for the host name.',
    link: rfc(3207),
  },
  dane: {
    why: "DANE pins your MX hosts' certificates in DNSSEC-signed TLSA records, so senders cannot be led to an impostor.",
    fix: "Sign the zone with DNSSEC and publish TLSA 3 1 1 records at _25._tcp.<mx host> matching the server's key.",
    link: rfc(7672),
  },
  bimi: {
    why: 'BIMI shows your logo beside authenticated mail in the mailboxes that support it.',
    fix: 'With DMARC at quarantine or reject, publish default._bimi.<domain> TXT naming an SVG Tiny PS logo.',
    link: {
      title: 'BIMI (IETF draft)',
      url: 'https://datatracker.ietf.org/doc/draft-brand-indicators-for-message-identification/',
    },
  },
};

/** By cap code of tls-rating (docs/contract/grades.md "The grade (the contract)"). */
export const TLS_CAP_ADVICE: Readonly<Record<string, Advice>> = {
  'sslv3-best': {
    why: 'SSLv3 is broken (POODLE): a server that offers nothing newer cannot protect anyone.',
    fix: 'Enable TLS 1.2 and 1.3, and turn SSLv3 off.',
    link: rfc(7568),
  },
  'weak-cipher': {
    why: 'Suites under 112 bits (NULL, EXPORT, DES, RC2) can be broken by anyone who records the traffic.',
    fix: 'Offer only AEAD suites (AES-GCM, ChaCha20-Poly1305).',
    link: MOZILLA_TLS,
  },
  anonymous: {
    why: 'An anonymous suite authenticates nobody: any machine on the path can pose as the server.',
    fix: 'Remove every anonymous (aNULL) suite.',
    link: SSL_LABS_GUIDE,
  },
  'weak-key-exchange': {
    why: 'A key exchange under 1024 bits can be broken, and with it every recorded session.',
    fix: 'Use ECDHE with X25519 or P-256, a 2048-bit or larger RSA key, and DH groups of 2048 bits or more.',
    link: SSL_LABS_GUIDE,
  },
  'md5-signature': {
    why: 'MD5 signatures can be forged.',
    fix: 'Get a certificate signed with SHA-256 or better.',
    link: rfc(6151),
  },
  sslv3: {
    why: 'SSLv3 is broken (POODLE), and a client can be pushed down to it.',
    fix: 'Turn SSLv3 off.',
    link: rfc(7568),
  },
  'no-tls12': {
    why: 'Without TLS 1.2 or 1.3 the server has only deprecated protocols, which browsers refuse.',
    fix: 'Enable TLS 1.2 and TLS 1.3.',
    link: rfc(8996),
  },
  sweet32: {
    why: '64-bit block ciphers such as 3DES leak data over long connections (Sweet32).',
    fix: 'Remove 3DES and other 64-bit block ciphers.',
    link: { title: 'Sweet32', url: 'https://sweet32.info/' },
  },
  'rc4-modern': {
    why: 'RC4 is prohibited: its biases let an attacker recover data.',
    fix: 'Remove every RC4 suite.',
    link: rfc(7465),
  },
  tls10: {
    why: 'TLS 1.0 is deprecated, and browsers no longer use it.',
    fix: 'Turn TLS 1.0 off.',
    link: rfc(8996),
  },
  tls11: {
    why: 'TLS 1.1 is deprecated, and browsers no longer use it.',
    fix: 'Turn TLS 1.1 off.',
    link: rfc(8996),
  },
  rc4: {
    why: 'RC4 is prohibited: its biases let an attacker recover data.',
    fix: 'Remove every RC4 suite.',
    link: rfc(7465),
  },
  'key-exchange-below-2048': {
    why: 'Key exchange under 2048-bit strength falls short of what current guidance asks.',
    fix: 'Use ECDHE (X25519, P-256), an RSA key of 2048 bits or more, and DH groups of 2048 bits or more.',
    link: SSL_LABS_GUIDE,
  },
  'no-forward-secrecy': {
    why: 'Without forward secrecy, whoever gets the server key later can read every recorded session.',
    fix: 'Prefer ECDHE suites, and enable TLS 1.3.',
    link: MOZILLA_TLS,
  },
  'no-aead': {
    why: 'Only CBC suites are offered, whose padding has led to attack after attack.',
    fix: 'Offer AES-GCM or ChaCha20-Poly1305 suites.',
    link: MOZILLA_TLS,
  },
  'incomplete-chain': {
    why: 'The server does not send its intermediate certificates: clients that cannot fetch them fail.',
    fix: 'Configure the full chain (the leaf followed by its intermediates).',
    link: rfc(8446, '4.4.2'),
  },
  'hostname-mismatch': {
    why: 'The certificate is not for this name: browsers stop with a full-page warning.',
    fix: 'Get a certificate that lists this name (or a wildcard covering it).',
    link: rfc(6125),
  },
  untrusted: {
    why: 'Browsers do not trust the certificate (expired, self-signed or from an unknown issuer) and stop with a warning.',
    fix: 'Serve a current certificate from a public CA, with its full chain.',
    link: rfc(5280, '6'),
  },
};

/** By warning code of tls-rating. */
export const TLS_WARNING_ADVICE: Readonly<Record<string, Advice>> = {
  'no-tls13': {
    why: 'TLS 1.3 is faster (one round trip) and drops every legacy weakness.',
    fix: 'Enable TLS 1.3.',
    link: rfc(8446),
  },
  'hsts-short': {
    why: 'An HSTS max-age under 180 days lets browsers forget to insist on HTTPS.',
    fix: 'Send Strict-Transport-Security: max-age=31536000 (a year), with includeSubDomains when you can.',
    link: rfc(6797),
  },
};

/** By DNSSEC error or warning code of dnssec-chain (docs/contract/dnssec-chain.md). */
export const DNSSEC_ADVICE: Readonly<Record<string, Advice>> = {
  ALGORITHM_PROHIBITED: {
    why: 'The algorithm must not be used for DNSSEC: validators treat the zone as unsigned.',
    fix: 'Roll the zone to algorithm 13 (ECDSA P-256) or 8 (RSA/SHA-256) and replace the DS.',
    link: rfc(8624),
  },
  ALGORITHM_UNSUPPORTED: {
    why: 'Validators that do not know the algorithm treat the zone as unsigned.',
    fix: 'Roll the zone to algorithm 13 (ECDSA P-256) or 8 (RSA/SHA-256).',
    link: rfc(8624),
  },
  DENIAL_INVALID: {
    why: 'A signature over the proof that a name does not exist fails: validating resolvers answer SERVFAIL.',
    fix: 'Re-sign the zone; check that the signer covers NSEC/NSEC3 records.',
    link: rfc(4035, '5.4'),
  },
  DENIAL_MISSING: {
    why: 'The zone gives no proof that a name does not exist: validating resolvers answer SERVFAIL.',
    fix: 'Re-sign the zone so that every negative answer carries its NSEC or NSEC3 records.',
    link: rfc(4035, '3.1.3'),
  },
  DIGEST_PROHIBITED: {
    why: 'The DS digest type must not be used: validators ignore it and treat the zone as unsigned.',
    fix: 'Publish a DS with digest type 2 (SHA-256) at the parent.',
    link: rfc(8624, '3.3'),
  },
  DNSKEY_MISSING: {
    why: 'The parent says the zone is signed (DS) but the zone publishes no key: every answer fails validation.',
    fix: 'Sign the zone again, or remove the DS at the registrar if you stopped signing.',
    link: rfc(4035, '5.2'),
  },
  DS_DIGEST_MISMATCH: {
    why: "The parent's DS does not match the zone's key: validating resolvers answer SERVFAIL for the whole domain.",
    fix: "Replace the DS at the registrar with the one computed from the zone's current key-signing key.",
    link: rfc(4034, '5'),
  },
  DS_NO_MATCHING_DNSKEY: {
    why: "The parent's DS names a key the zone does not publish (a key rollover left half done).",
    fix: "Publish the key the DS names again, or replace the DS with the current key's.",
    link: rfc(6781, '4.1.2'),
  },
  INSECURE_DELEGATION_UNPROVEN: {
    why: 'The parent does not prove that the zone is unsigned: validating resolvers cannot trust the answer.',
    fix: "Ask the parent's operator to fix its NSEC/NSEC3 proof for the delegation.",
    link: rfc(4035, '5.2'),
  },
  NO_TRUSTED_DNSKEY: {
    why: 'No key of the zone is vouched for by the parent: the chain of trust stops here.',
    fix: "Publish the DS of the zone's key-signing key at the registrar.",
    link: rfc(4035, '5.2'),
  },
  RRSIG_EXPIRED: {
    why: 'Expired signatures fail validation: validating resolvers answer SERVFAIL.',
    fix: 'Re-sign the zone and make sure the signer runs on a schedule.',
    link: rfc(4035, '5.3.1'),
  },
  RRSIG_INVALID: {
    why: 'A signature does not verify: validating resolvers answer SERVFAIL.',
    fix: 'Re-sign the zone; check that every server serves the same, current, signed zone.',
    link: rfc(4035, '5.3'),
  },
  RRSIG_MISSING: {
    why: 'Signed data arrives without its signature: validating resolvers answer SERVFAIL.',
    fix: 'Re-sign the zone; check that every server serves the signed zone.',
    link: rfc(4035, '3.1.1'),
  },
  RRSIG_NOT_YET_VALID: {
    why: "Signatures that start in the future fail validation (often a signer's clock ahead).",
    fix: "Correct the signer's clock and re-sign the zone.",
    link: rfc(4035, '5.3.1'),
  },
  SERVER_FAILURE: {
    why: "The zone's servers did not answer: its chain cannot be checked, and resolvers cannot reach it either.",
    fix: 'Check that every name server of the zone runs and answers over UDP and TCP.',
    link: rfc(1035),
  },
  ALGORITHM_DEPRECATED: {
    why: 'The algorithm is deprecated: validators are dropping it.',
    fix: 'Roll the zone to algorithm 13 (ECDSA P-256) or 8 (RSA/SHA-256).',
    link: rfc(8624),
  },
  DIGEST_SHA1: {
    why: 'SHA-1 DS digests are being phased out.',
    fix: 'Publish a DS with digest type 2 (SHA-256) and remove the SHA-1 one.',
    link: rfc(8624, '3.3'),
  },
  NSEC3_ITERATIONS: {
    why: 'Extra NSEC3 iterations cost resolvers work and add no protection; some validators treat them as insecure.',
    fix: 'Set NSEC3 iterations to 0 and the salt empty.',
    link: rfc(9276),
  },
  REVOKED_KEY_IN_USE: {
    why: 'A revoked key still signs data: validators that track revocation reject it.',
    fix: 'Sign with a key that is not revoked, and remove the revoked one after the rollover.',
    link: rfc(5011),
  },
  RRSIG_EXPIRES_SOON: {
    why: 'The signatures expire within days: if the signer stops, the domain goes dark.',
    fix: 'Check that the signer re-signs on schedule.',
    link: rfc(6781, '4.4'),
  },
};

/** By Observatory test name of http-rating. */
export const OBSERVATORY_ADVICE: Readonly<Record<string, Advice>> = {
  'content-security-policy': {
    why: 'A Content-Security-Policy stops injected scripts from running: the main defence against XSS.',
    fix: "Send Content-Security-Policy with default-src 'self' and no 'unsafe-inline' in script-src.",
    link: mdnHeader('Content-Security-Policy'),
  },
  cookies: {
    why: 'Cookies without Secure, HttpOnly and SameSite can be stolen or sent along with forged requests.',
    fix: 'Set Secure, HttpOnly and SameSite=Lax (or Strict) on every cookie.',
    link: mdnHeader('Set-Cookie'),
  },
  'cross-origin-resource-sharing': {
    why: 'A CORS policy open to every origin lets any site read your answers.',
    fix: 'Allow only the origins that need access, never * with credentials.',
    link: mdnHeader('Access-Control-Allow-Origin'),
  },
  'cross-origin-resource-policy': {
    why: 'Without it, other sites can embed your resources and leak them through side channels.',
    fix: 'Send Cross-Origin-Resource-Policy: same-origin (or same-site).',
    link: mdnHeader('Cross-Origin-Resource-Policy'),
  },
  redirection: {
    why: 'Visitors who type the bare name arrive over plain HTTP unless it redirects to HTTPS at once.',
    fix: 'Redirect http:// to https:// on the same host, first.',
    link: OBSERVATORY_GUIDE,
  },
  'referrer-policy': {
    why: 'Full addresses sent as Referer can leak private paths and tokens to other sites.',
    fix: 'Send Referrer-Policy: strict-origin-when-cross-origin (or stricter).',
    link: mdnHeader('Referrer-Policy'),
  },
  'strict-transport-security': {
    why: 'Without HSTS, a visitor can be downgraded to plain HTTP on their first request.',
    fix: 'Send Strict-Transport-Security: max-age=31536000 (add includeSubDomains when you can).',
    link: rfc(6797),
  },
  'subresource-integrity': {
    why: 'A script loaded from another host without integrity runs whatever that host serves.',
    fix: 'Add integrity="sha384-…" and crossorigin to scripts loaded from other origins.',
    link: {
      title: 'MDN: Subresource Integrity',
      url: 'https://developer.mozilla.org/en-US/docs/Web/Security/Subresource_Integrity',
    },
  },
  'x-content-type-options': {
    why: 'Without it, browsers may sniff an upload as a script and run it.',
    fix: 'Send X-Content-Type-Options: nosniff.',
    link: mdnHeader('X-Content-Type-Options'),
  },
  'x-frame-options': {
    why: 'A page that may be framed by any site can be used for clickjacking.',
    fix: "Send Content-Security-Policy: frame-ancestors 'self' (or X-Frame-Options: DENY).",
    link: mdnHeader('X-Frame-Options'),
  },
};

export const REGISTRATION_ADVICE: Advice = {
  why: 'When the registration lapses the domain stops resolving, and after the grace period anyone may register it.',
  fix: 'Renew at your registrar, and turn on automatic renewal.',
  link: rfc(3915),
};

/** How many days before expiry a registration is a warning. */
export const REGISTRATION_WARNING_DAYS = 30;

/* ------------------------------------------------------------------ findings of an answer */

type Data = Record<string, unknown>;
const isObject = (v: unknown): v is Data => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): Data[] => (Array.isArray(v) ? v.filter(isObject) : []);
const text = (v: unknown): string => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v));

/** A composite's check status as a severity (decisions §4: `error` counts as a warning); ok is none. */
export function severityOfStatus(status: unknown): Severity | null {
  switch (status) {
    case 'critical':
      return 'critical';
    case 'warning':
    case 'error':
      return 'warning';
    case 'info':
      return 'info';
    default:
      return null;
  }
}

/** The findings of a website-health-check or mailhealth-check answer: every check that is not ok. */
export function compositeFindings(data: Data): Finding[] {
  const findings: Finding[] = [];
  for (const check of list(data.checks)) {
    const severity = severityOfStatus(check.status);
    if (!severity) continue;
    const id = text(check.id);
    const host = text(check.host);
    findings.push({
      severity,
      code: id,
      title: `${text(check.label) || id}${host ? ` (${host})` : ''}`,
      what: text(check.error) || text(check.summary),
      advice: CHECK_ADVICE[id] ?? null,
    });
  }
  return findings;
}

export function tlsRatingFindings(data: Data): Finding[] {
  const findings: Finding[] = [];
  const grade = isObject(data.grade) ? data.grade : {};
  const letter = text(grade.letter);
  if (letter === 'M' || letter === 'T') {
    const code = letter === 'M' ? 'hostname-mismatch' : 'untrusted';
    const certificate = isObject(data.certificate) ? text(data.certificate.status) : '';
    findings.push({
      severity: 'critical',
      code,
      title: letter === 'M' ? 'The certificate is not for this name' : 'The certificate is not trusted',
      what: `grade ${letter}${certificate ? `: certificate ${certificate}` : ''}; ${text(grade.letterIgnoringTrust)} if it were trusted`,
      advice: TLS_CAP_ADVICE[code] ?? null,
    });
  }
  for (const cap of list(grade.caps)) {
    const code = text(cap.code);
    findings.push({
      // a cap to F leaves nothing to protect; caps to B and C are weaknesses
      severity: text(cap.cap) === 'F' ? 'critical' : 'warning',
      code,
      title: `Capped at ${text(cap.cap)}: ${code}`,
      what: text(cap.reason),
      advice: TLS_CAP_ADVICE[code] ?? null,
    });
  }
  for (const warning of list(grade.warnings)) {
    const code = text(warning.code);
    findings.push({
      severity: 'warning',
      code,
      title: `Warning: ${code}`,
      what: text(warning.reason),
      advice: TLS_WARNING_ADVICE[code] ?? null,
    });
  }
  return findings;
}

export function httpRatingFindings(data: Data): Finding[] {
  const findings: Finding[] = [];
  if (data.grade === null && text(data.error)) {
    findings.push({
      severity: 'warning',
      code: 'not-graded',
      title: 'Not graded',
      what: text(data.error),
      advice: null,
    });
  }
  for (const test of list(data.tests)) {
    if (test.pass !== false) continue;
    const name = text(test.name);
    findings.push({
      severity: 'warning',
      code: text(test.result) || name,
      title: name,
      what: text(test.description),
      advice: OBSERVATORY_ADVICE[name] ?? null,
    });
  }
  return findings;
}

export function dnssecChainFindings(data: Data): Finding[] {
  const findings: Finding[] = [];
  const broken = isObject(data.brokenLink) ? data.brokenLink : null;
  if (broken) {
    const code = text(broken.code);
    findings.push({
      severity: data.status === 'bogus' ? 'critical' : 'warning',
      code,
      title: `Broken at ${text(broken.zone)}: ${code}`,
      what: text(broken.message),
      advice: DNSSEC_ADVICE[code] ?? null,
    });
  }
  for (const link of list(data.chain)) {
    for (const error of list(link.errors)) {
      const code = text(error.code);
      if (broken && code === text(broken.code) && text(link.zone) === text(broken.zone)) continue;
      findings.push({
        severity: 'warning',
        code,
        title: `${text(link.zone)}: ${code}`,
        what: text(error.message),
        advice: DNSSEC_ADVICE[code] ?? null,
      });
    }
    for (const warning of list(link.warnings)) {
      const code = text(warning.code);
      findings.push({
        severity: 'warning',
        code,
        title: `${text(link.zone)}: ${code}`,
        what: text(warning.message),
        advice: DNSSEC_ADVICE[code] ?? null,
      });
    }
  }
  if (!broken && data.status === 'insecure') {
    findings.push({
      severity: 'info',
      code: 'insecure',
      title: 'Not signed',
      what: 'The chain ends in an unsigned delegation: answers for this name are not protected by DNSSEC.',
      advice: {
        why: 'Without DNSSEC, a resolver cannot tell a forged answer from a real one.',
        fix: 'Sign the zone at your DNS provider and publish its DS at the registrar.',
        link: rfc(4033),
      },
    });
  }
  return findings;
}

export function whoisFindings(data: Data): Finding[] {
  const days = data.daysUntilExpiry;
  if (typeof days !== 'number') return [];
  if (days < 0 || days <= REGISTRATION_WARNING_DAYS) {
    return [
      {
        severity: days < 0 ? 'critical' : 'warning',
        code: days < 0 ? 'registration-expired' : 'registration-expires-soon',
        title: days < 0 ? 'The registration has expired' : 'The registration expires soon',
        what: `expiry ${text(data.expiryDate)} (${days} days)`,
        advice: REGISTRATION_ADVICE,
      },
    ];
  }
  return [];
}

export function sslCheckerFindings(data: Data): Finding[] {
  const status = text(data.status);
  if (status && status !== 'valid') {
    const code = status === 'hostname-mismatch' ? 'hostname-mismatch' : 'untrusted';
    return [
      {
        severity: 'critical',
        code: status,
        title: `Certificate ${status}`,
        what: `the certificate is ${status}`,
        advice: TLS_CAP_ADVICE[code] ?? null,
      },
    ];
  }
  return [];
}

/** The findings of one tool's answer (`data` of the REST envelope); a tool without findings has none. */
export function findingsOf(tool: string, data: unknown): Finding[] {
  if (!isObject(data)) return [];
  switch (tool) {
    case 'website-health-check':
    case 'mailhealth-check':
      return compositeFindings(data);
    case 'tls-rating':
      return tlsRatingFindings(data);
    case 'http-rating':
      return httpRatingFindings(data);
    case 'dnssec-chain':
      return dnssecChainFindings(data);
    case 'whois':
      return whoisFindings(data);
    case 'ssl-checker':
      return sslCheckerFindings(data);
    default: {
      // a single check of the composites' kind (dnssec-test) says its status the same way
      const severity = severityOfStatus(data.status);
      return severity && typeof data.summary === 'string'
        ? [{ severity, code: tool, title: tool, what: data.summary, advice: CHECK_ADVICE[tool] ?? null }]
        : [];
    }
  }
}

/** The worst severity among findings, or null when there are none. */
export function worstSeverity(findings: readonly Finding[]): Severity | null {
  let worst: Severity | null = null;
  for (const f of findings)
    if (worst === null || SEVERITY_ORDER[f.severity] > SEVERITY_ORDER[worst]) worst = f.severity;
  return worst;
}
