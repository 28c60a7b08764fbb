/**
 * A test PKI made at run time with selfsigned 5: a root, an intermediate, and
 * leaves for every certificate verdict. Generated lazily once per process (per
 * vitest worker, so per test file) because key generation takes a while.
 *
 * The hierarchy uses P-256 keys (fast to make; signatures "ecdsa-with-SHA256").
 * The self-signed leaf uses an RSA key, so that a "sha256WithRSAEncryption"
 * signature is also on hand. selfsigned signs with a key of the leaf's own type,
 * so an RSA leaf under the EC hierarchy is not possible.
 */
import { generate } from 'selfsigned';

export const LAB_HOST = 'good.lab.test';
export const LAB_WILDCARD = '*.lab.test';
export const WRONG_HOST = 'other.example.test';

export interface LabKeyPair {
  /** the certificate alone, PEM */
  readonly cert: string;
  /** its private key, PKCS#8 PEM */
  readonly key: string;
}

export interface LabLeaf extends LabKeyPair {
  /** what a server sends: the leaf, then the intermediate (PEM, concatenated) */
  readonly chain: string;
}

export interface LabPki {
  /** the moment the validity periods were computed from */
  readonly issuedAt: Date;
  /** trust anchor to pass as `ca` */
  readonly root: LabKeyPair;
  readonly intermediate: LabKeyPair;
  /** CN good.lab.test; SAN DNS good.lab.test, *.lab.test, IP 127.0.0.1, ::1; valid 1 day ago … 90 days ahead */
  readonly good: LabLeaf;
  /** good.lab.test, valid 100 … 10 days ago */
  readonly expired: LabLeaf;
  /** good.lab.test, valid 10 … 100 days ahead */
  readonly notYetValid: LabLeaf;
  /** CN and SAN other.example.test, otherwise like `good` */
  readonly wrongHost: LabLeaf;
  /** RSA 2048, self-signed, good.lab.test with the same SANs as `good`; `chain` is the certificate alone */
  readonly selfSigned: LabLeaf;
}

const DAY_MS = 86_400_000;

/** selfsigned's PEM may lack the final newline, which breaks concatenation (OpenSSL: "bad end line"). */
function pem(text: string): string {
  return `${text.trim()}\n`;
}

const CA_EXTENSIONS = [
  { name: 'basicConstraints' as const, cA: true, critical: true },
  { name: 'keyUsage' as const, keyCertSign: true, cRLSign: true, critical: true },
];

function leafExtensions(dnsNames: string[], ips: string[]) {
  return [
    { name: 'basicConstraints' as const, cA: false },
    { name: 'keyUsage' as const, digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage' as const, serverAuth: true },
    {
      name: 'subjectAltName' as const,
      altNames: [
        ...dnsNames.map((value) => ({ type: 2 as const, value })),
        ...ips.map((ip) => ({ type: 7 as const, ip })),
      ],
    },
  ];
}

async function build(): Promise<LabPki> {
  const issuedAt = new Date();
  const at = (days: number): Date => new Date(issuedAt.getTime() + days * DAY_MS);
  const ec = { keyType: 'ec' as const, curve: 'P-256' as const, algorithm: 'sha256' };

  const root = await generate(
    [
      { name: 'commonName', value: 'Netdiag Lab Root CA' },
      { name: 'organizationName', value: 'Netdiag Lab' },
    ],
    {
      ...ec,
      notBeforeDate: at(-30),
      notAfterDate: at(3650),
      extensions: CA_EXTENSIONS,
    },
  );
  const rootPair = { cert: pem(root.cert), key: pem(root.private) };
  const intermediate = await generate([{ name: 'commonName', value: 'Netdiag Lab Intermediate CA' }], {
    ...ec,
    notBeforeDate: at(-30),
    notAfterDate: at(1825),
    extensions: CA_EXTENSIONS,
    ca: rootPair,
  });
  const intermediatePair = { cert: pem(intermediate.cert), key: pem(intermediate.private) };

  const goodNames = [LAB_HOST, LAB_WILDCARD];
  const goodIps = ['127.0.0.1', '::1'];
  const leaf = async (
    commonName: string,
    names: string[],
    ips: string[],
    from: number,
    to: number,
  ): Promise<LabLeaf> => {
    const made = await generate([{ name: 'commonName', value: commonName }], {
      ...ec,
      notBeforeDate: at(from),
      notAfterDate: at(to),
      extensions: leafExtensions(names, ips),
      ca: intermediatePair,
    });
    const cert = pem(made.cert);
    return { cert, key: pem(made.private), chain: cert + intermediatePair.cert };
  };

  const [good, expired, notYetValid, wrongHost] = await Promise.all([
    leaf(LAB_HOST, goodNames, goodIps, -1, 90),
    leaf(LAB_HOST, goodNames, goodIps, -100, -10),
    leaf(LAB_HOST, goodNames, goodIps, 10, 100),
    leaf(WRONG_HOST, [WRONG_HOST], [], -1, 90),
  ]);
  const self = await generate([{ name: 'commonName', value: LAB_HOST }], {
    keyType: 'rsa',
    keySize: 2048,
    algorithm: 'sha256',
    notBeforeDate: at(-1),
    notAfterDate: at(90),
    extensions: leafExtensions(goodNames, goodIps),
  });
  const selfCert = pem(self.cert);

  return {
    issuedAt,
    root: rootPair,
    intermediate: intermediatePair,
    good,
    expired,
    notYetValid,
    wrongHost,
    selfSigned: { cert: selfCert, key: pem(self.private), chain: selfCert },
  };
}

/**
 * A leaf for the given DNS names, valid 1 day ago … 90 days ahead, issued by the lab intermediate (for
 * servers whose names the fixed leaves do not cover, e.g. mta-sts.<domain> hosts).
 */
export async function labLeafFor(names: string[]): Promise<LabLeaf> {
  const { intermediate, issuedAt } = await labPki();
  const made = await generate([{ name: 'commonName', value: names[0] ?? LAB_HOST }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(issuedAt.getTime() - DAY_MS),
    notAfterDate: new Date(issuedAt.getTime() + 90 * DAY_MS),
    extensions: leafExtensions(names, []),
    ca: intermediate,
  });
  const cert = pem(made.cert);
  return { cert, key: pem(made.private), chain: cert + intermediate.cert };
}

let pki: Promise<LabPki> | undefined;

/** The lab PKI of this process, made on first use. */
export function labPki(): Promise<LabPki> {
  pki ??= build();
  return pki;
}
