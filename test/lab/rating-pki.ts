/**
 * The PKI of tls-rating's graded servers, made with the openssl command line at run time (a root, an RSA
 * intermediate, and RSA and EC leaves of the sizes the grade rules tell apart), because the grades need
 * RSA leaves under a CA, 1024-bit keys and an AIA extension, which the selfsigned-based lab PKI cannot
 * make. Nothing here touches the network.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RatingLeaf {
  /** the leaf, PEM */
  readonly cert: string;
  readonly key: string;
  /** leaf then intermediate, PEM */
  readonly chain: string;
}

export interface RatingPki {
  readonly root: string;
  /** the intermediate, DER (what an AIA URL serves) */
  readonly intermediateDer: Buffer;
  /** issue a leaf for `names` under the intermediate */
  leaf(options: { names: string[]; key: 'rsa2048' | 'rsa1024' | 'rsa512' | 'ec256'; aiaUrl?: string }): RatingLeaf;
  /** a self-signed RSA 2048 certificate for `names` */
  selfSigned(names: string[]): RatingLeaf;
  close(): void;
}

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

function keyArgs(key: 'rsa2048' | 'rsa1024' | 'rsa512' | 'ec256'): string[] {
  if (key === 'ec256') return ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1'];
  return ['-newkey', `rsa:${key.slice('rsa'.length)}`];
}

export function createRatingPki(): RatingPki {
  const dir = mkdtempSync(join(tmpdir(), 'netdiag-rating-pki-'));
  const caExtensions = join(dir, 'ca.ext');
  writeFileSync(caExtensions, 'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n');
  openssl(dir, [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    'root.key',
    '-out',
    'root.pem',
    '-days',
    '3650',
    '-subj',
    '/CN=Netdiag Rating Root',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  openssl(dir, [
    'req',
    '-new',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'int.key',
    '-out',
    'int.csr',
    '-subj',
    '/CN=Netdiag Rating Intermediate',
  ]);
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    'int.csr',
    '-CA',
    'root.pem',
    '-CAkey',
    'root.key',
    '-CAcreateserial',
    '-out',
    'int.pem',
    '-days',
    '1825',
    '-sha256',
    '-extfile',
    caExtensions,
  ]);
  openssl(dir, ['x509', '-in', 'int.pem', '-outform', 'DER', '-out', 'int.der']);
  const intermediate = readFileSync(join(dir, 'int.pem'), 'utf8');
  let serial = 0;

  return {
    root: readFileSync(join(dir, 'root.pem'), 'utf8'),
    intermediateDer: readFileSync(join(dir, 'int.der')),
    leaf({ names, key, aiaUrl }) {
      const id = `leaf${++serial}`;
      const extensions = join(dir, `${id}.ext`);
      writeFileSync(
        extensions,
        [
          'basicConstraints=CA:FALSE',
          'keyUsage=critical,digitalSignature,keyEncipherment',
          'extendedKeyUsage=serverAuth',
          `subjectAltName=${names.map((n) => `DNS:${n}`).join(',')}`,
          ...(aiaUrl ? [`authorityInfoAccess=caIssuers;URI:${aiaUrl}`] : []),
        ].join('\n'),
      );
      openssl(dir, [
        'req',
        '-new',
        ...keyArgs(key),
        '-nodes',
        '-keyout',
        `${id}.key`,
        '-out',
        `${id}.csr`,
        '-subj',
        `/CN=${names[0]}`,
      ]);
      openssl(dir, [
        'x509',
        '-req',
        '-in',
        `${id}.csr`,
        '-CA',
        'int.pem',
        '-CAkey',
        'int.key',
        '-CAcreateserial',
        '-out',
        `${id}.pem`,
        '-days',
        '90',
        '-sha256',
        '-extfile',
        extensions,
      ]);
      const cert = readFileSync(join(dir, `${id}.pem`), 'utf8');
      return { cert, key: readFileSync(join(dir, `${id}.key`), 'utf8'), chain: cert + intermediate };
    },
    selfSigned(names) {
      const id = `self${++serial}`;
      openssl(dir, [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        `${id}.key`,
        '-out',
        `${id}.pem`,
        '-days',
        '90',
        '-subj',
        `/CN=${names[0]}`,
        '-addext',
        `subjectAltName=${names.map((n) => `DNS:${n}`).join(',')}`,
      ]);
      const cert = readFileSync(join(dir, `${id}.pem`), 'utf8');
      return { cert, key: readFileSync(join(dir, `${id}.key`), 'utf8'), chain: cert };
    },
    close() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
