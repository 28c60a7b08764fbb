/**
 * Pathological inputs of about 100 KB for every parser that reads upstream text (ReDoS-style repetition,
 * unclosed constructs, deep nesting). Shared by the security suite (each must finish) and the benchmark
 * (bench/parsers.ts: time per size, which shows whether it grows linearly).
 *
 * HOSTILE_REGISTRY_ANSWERS are whole WHOIS and RDAP answers carrying one 200 KB value of a shape that
 * regular expressions anchored at the end, or with overlapping repetitions, backtrack over quadratically
 * (a WHOIS referral server is chosen upstream, so its answer is attacker-controlled). They fit under the
 * WHOIS probe's 256 KiB answer cap, and each comes with a check that the parse result stays sane.
 */
import { parseDkimKey } from '../../src/checks/mail/dkim-checker/dkim.js';
import { parseDmarcRecord } from '../../src/checks/mail/dmarc-checker/dmarc.js';
import { parseSpfRecord } from '../../src/checks/mail/spf-checker/syntax.js';
import { extractHeadTags } from '../../src/checks/tls-http/open-graph-checker/open-graph.js';
import { normaliseHeaderFields } from '../../src/probes/http/header-fields.js';
import { scoreSecurityHeaders } from '../../src/checks/tls-http/http-headers/security-headers.js';
import { parseRdapDomain } from '../../src/probes/registry/rdap-parse.js';
import { normaliseWhoisDate, parseWhois } from '../../src/probes/registry/whois-parse.js';

export interface HostileCase {
  readonly name: string;
  /** builds the input at about `bytes` long */
  readonly input: (bytes: number) => string;
  readonly parse: (input: string) => unknown;
}

const repeat = (unit: string, bytes: number) => unit.repeat(Math.max(1, Math.floor(bytes / unit.length)));

export const HOSTILE_CASES: readonly HostileCase[] = [
  { name: 'SPF: macro soup', input: (n) => `v=spf1 include:${repeat('%{d}', n)}.example`, parse: parseSpfRecord },
  {
    name: 'SPF: dashes and digits',
    input: (n) => `v=spf1 a:${repeat('1-', n)}x ${repeat('/1', n / 4)}`,
    parse: parseSpfRecord,
  },
  {
    name: 'SPF: a mechanism per term',
    input: (n) => `v=spf1 ${repeat('ip4:192.0.2.1 ', n)}-all`,
    parse: parseSpfRecord,
  },
  { name: 'DMARC: separators', input: (n) => `v=DMARC1; p=reject;${repeat(' ;=', n)}`, parse: parseDmarcRecord },
  {
    name: 'DMARC: one long rua',
    input: (n) => `v=DMARC1; p=none; rua=${repeat('mailto:a@b.example,', n)}`,
    parse: parseDmarcRecord,
  },
  { name: 'DKIM: spaces in the key', input: (n) => `v=DKIM1; k=rsa; p=${repeat('A B ', n)}`, parse: parseDkimKey },
  { name: 'DKIM: tag soup', input: (n) => `v=DKIM1;${repeat('t=;', n)}`, parse: parseDkimKey },
  {
    name: 'WHOIS: dot leaders',
    input: (n) => `Domain Name${repeat('.', n)}: example.com\n`,
    parse: (s) => parseWhois(s, 'example.com'),
  },
  {
    name: 'WHOIS: one endless line of colons',
    input: (n) => repeat('a: ', n),
    parse: (s) => parseWhois(s, 'example.com'),
  },
  {
    name: 'WHOIS: many short lines',
    input: (n) => repeat('Name Server: ns1.example.com\n', n),
    parse: (s) => parseWhois(s, 'example.com'),
  },
  {
    name: 'HTTP headers: a long CSP and HSTS',
    input: (n) => repeat("default-src 'self' ", n),
    parse: (s) =>
      scoreSecurityHeaders(
        normaliseHeaderFields([
          ['content-security-policy', s],
          ['strict-transport-security', `max-age=31536000;${s.replace(/'/g, '')}`],
          ['x-frame-options', s],
        ]),
        'https://example.com/',
      ),
  },
  {
    name: 'HTML: unclosed tags and attributes',
    input: (n) => `<html><head>${repeat('<meta property="og:title" content="x', n)}`,
    parse: (s) => extractHeadTags(Buffer.from(s), 'text/html', 'https://example.com/'),
  },
  {
    name: 'HTML: deep nesting and entities',
    input: (n) => `<html><head>${repeat('<div>&amp;&#x27;', n)}<title>${repeat('&lt;', n / 4)}</title></head>`,
    parse: (s) => extractHeadTags(Buffer.from(s), 'text/html', 'https://example.com/'),
  },
];

/** The size of the hostile value in each registry answer: under the WHOIS probe's 256 KiB cap with room to spare. */
export const HOSTILE_VALUE_BYTES = 200 * 1024;

export interface HostileRegistryAnswer {
  /** the entry point and what it reads: "whois hostile answer", "whois date value", "rdap hostile answer" */
  readonly kind: string;
  /** what the hostile value is made of ("dots", "spaces in a key"...) */
  readonly shape: string;
  /** the input, its hostile value about `bytes` long */
  readonly input: (bytes: number) => string;
  readonly parse: (input: string) => unknown;
  /** what is wrong with the parse result, or null when it is sane */
  readonly problem: (result: unknown) => string | null;
}

/** Longer than any real fact: a string this long in a result is the hostile value leaking through. */
const LONG_FACT = /"[^"]{257,}"/;

type Facts = Readonly<Record<string, unknown>>;

const shown = (value: unknown) => JSON.stringify(value ?? null).slice(0, 80);

/** Sane: `fact` is `expected`, the facts in `kept` were still read, and no fact is over-long. */
function expectFacts(fact: string, expected: unknown, kept: Facts): (result: unknown) => string | null {
  return (result) => {
    const facts = result as Facts;
    for (const [name, value] of Object.entries({ [fact]: expected, ...kept })) {
      if (JSON.stringify(facts[name] ?? null) !== JSON.stringify(value)) {
        return `${name} is ${shown(facts[name])}, not ${shown(value)}`;
      }
    }
    const long = LONG_FACT.exec(JSON.stringify(result ?? null))?.[0];
    return long === undefined ? null : `a fact of ${long.length - 2} characters`;
  };
}

/** A real line after the hostile one, which the parser must still read. */
const NAME_SERVER_LINE = 'Name Server: ns1.example.net';
const NAME_SERVER_READ = { nameServers: ['ns1.example.net'] };

const whois = (
  shape: string,
  hostileLine: (bytes: number) => string,
  fact: string,
  expected: unknown,
): HostileRegistryAnswer => ({
  kind: 'whois hostile answer',
  shape,
  input: (n) => `${hostileLine(n)}\n${NAME_SERVER_LINE}\n`,
  parse: (s) => parseWhois(s, 'example.com'),
  problem: expectFacts(fact, expected, NAME_SERVER_READ),
});

const whoisDate = (shape: string, value: (bytes: number) => string): HostileRegistryAnswer => ({
  kind: 'whois date value',
  shape,
  input: value,
  parse: (s) => ({ date: normaliseWhoisDate(s) }),
  problem: expectFacts('date', null, {}),
});

const rdapDomain = (fields: Record<string, unknown>) =>
  JSON.stringify({ objectClassName: 'domain', ldhName: 'example.com', ...fields });

const rdap = (
  shape: string,
  answer: (bytes: number) => string,
  fact: string,
  expected: unknown,
  kept: Facts = { domainName: 'example.com' },
): HostileRegistryAnswer => ({
  kind: 'rdap hostile answer',
  shape,
  input: answer,
  parse: (s) => parseRdapDomain(JSON.parse(s)),
  problem: expectFacts(fact, expected, kept),
});

const vcardEntity = (role: string, properties: unknown[][]) => ({
  roles: [role],
  vcardArray: ['vcard', [['version', {}, 'text', '4.0'], ...properties]],
});

/**
 * One case per shape and per reader of the WHOIS and RDAP parsers: the host name, key, registrar,
 * date, e-mail, telephone and phrase readers behind parseWhois, the date reader on its own, and
 * parseRdapDomain.
 */
export const HOSTILE_REGISTRY_ANSWERS: readonly HostileRegistryAnswer[] = [
  // The reported attack, exactly: `/\.+$/` on the host name retried from each of the dots.
  whois('dots', (n) => `Domain Name: a${repeat('.', n)}b`, 'domainName', null),
  whois('trailing dots', (n) => `Domain Name: example.com${repeat('.', n)}`, 'domainName', 'example.com'),
  whois('dots in a key', (n) => `Domain Name${repeat('.', n)}x: example.com`, 'domainName', null),
  whois('dots in a name server', (n) => `Name Server: ns2.a${repeat('.', n)}b`, 'nameServers', ['ns1.example.net']),
  whois('dots in a referral', (n) => `Registrar WHOIS Server: whois.a${repeat('.', n)}b`, 'referral', null),
  whois('spaces in a key', (n) => `Registrar${repeat(' ', n)}x: Example Registrar`, 'registrar', null),
  whois('colons in a bare line', (n) => `${repeat(':', n)}x`, 'registrar', null),
  whois('tabs before a line separator', (n) => `a${repeat('\t', n)}\u2028x`, 'registrar', null),
  whois('unclosed brackets in a header', (n) => `${repeat('(', n)}\n   value`, 'registrar', null),
  // Cut at the line cap, the line is left with an ordinary value.
  whois('spaces in a registrar', (n) => `Registrar: a${repeat(' ', n)}x`, 'registrar', 'a'),
  whois('registrar tag pattern', (n) => `Registrar: x${repeat(' [tag=', n)}`, 'registrar', null),
  whois('registrar web address pattern', (n) => `Registrar: x${repeat(' (http://', n)}`, 'registrar', null),
  whois('registrar e-mail pattern', (n) => `Registrar: ${repeat("'", n)}x`, 'registrar', null),
  whois('digits in a date', (n) => `Creation Date: ${repeat('1', n)}`, 'creationDate', null),
  whois('digits and dashes in a date', (n) => `Creation Date: 2020${repeat('-1', n)}x`, 'creationDate', null),
  whois('e-mail pattern in a date', (n) => `Creation Date: 2020-01-02 ${repeat('x-1', n)}!`, 'creationDate', null),
  whois('comment marks in a date', (n) => `Creation Date: 2020-01-02 ${repeat('#', n)}\u2028x`, 'creationDate', null),
  whois('format hints in a date', (n) => `Creation Date: 2020-01-02 ${repeat('(yyyy', n)}`, 'creationDate', null),
  whois('letters in an abuse e-mail', (n) => `Registrar Abuse Contact Email: ${repeat('a', n)}`, 'abuseEmail', null),
  whois('spaces in an abuse phone', (n) => `Registrar Abuse Contact Phone: (${repeat(' ', n)}x`, 'abusePhone', null),
  {
    // Phrases are matched on an answer without domain facts: no name server line after it.
    kind: 'whois hostile answer',
    shape: 'quota phrase',
    input: (n) => repeat('query quota ', n),
    parse: (s) => parseWhois(s, 'example.com'),
    problem: expectFacts('rateLimited', false, { notFound: false }),
  },
  whoisDate('digits', (n) => repeat('1', n)),
  whoisDate('digits and colons', (n) => repeat('1:', n)),
  whoisDate('spaces', (n) => `2020-01-02${repeat(' ', n)}x`),
  whoisDate('e-mail pattern', (n) => `2020-01-02 ${repeat('x-1', n)}!`),
  whoisDate('format hints', (n) => `2020-01-02 ${repeat('(yyyy', n)}`),
  rdap('dots', (n) => rdapDomain({ ldhName: `a${repeat('.', n)}b` }), 'domainName', null, {}),
  rdap(
    'digits in a date',
    (n) =>
      rdapDomain({ events: [{ eventAction: 'registration', eventDate: `2020-01-02T03:04:05.${repeat('1', n)}x` }] }),
    'creationDate',
    null,
  ),
  rdap(
    'spaces in a date',
    (n) => rdapDomain({ events: [{ eventAction: 'expiration', eventDate: `2020-01-02${repeat(' ', n)}x` }] }),
    'expiryDate',
    null,
  ),
  rdap(
    'dots in a name server',
    (n) => rdapDomain({ nameservers: [{ ldhName: `ns2.a${repeat('.', n)}b` }, { ldhName: 'ns1.example.net.' }] }),
    'nameServers',
    ['ns1.example.net'],
  ),
  rdap(
    'spaces in the registrar and abuse contact',
    (n) =>
      rdapDomain({
        entities: [
          {
            ...vcardEntity('registrar', [['fn', {}, 'text', `a${repeat(' ', n / 2)}x`]]),
            handle: '1234',
            entities: [vcardEntity('abuse', [['tel', { type: 'voice' }, 'uri', `tel:+1${repeat(' ', n / 2)}x`]])],
          },
        ],
      }),
    'registrar',
    '1234',
    { domainName: 'example.com', abusePhone: null },
  ),
];
