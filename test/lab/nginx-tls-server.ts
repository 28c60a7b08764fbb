/**
 * An nginx HTTPS server on loopback for tls-rating's graded servers and its bench: one `server` block on
 * 127.0.0.1 and a port found free at run time, with the protocols, cipher list, DH group and HSTS header
 * given. Debian's nginx links the system OpenSSL 3, so it accepts what that library builds (no 3DES, RC4
 * or SSLv3). Null when nginx is not installed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nginxBinary, nginxConfigStart, runNginx } from './nginx.js';
import { unusedPort } from './tcp-server.js';

export interface NginxTlsOptions {
  /** PEM chain to serve, leaf first */
  readonly chain: string;
  readonly key: string;
  /** `ssl_protocols`, e.g. "TLSv1.2 TLSv1.3" */
  readonly protocols: string;
  /** `ssl_ciphers` (TLS 1.2 and below) */
  readonly ciphers: string;
  /** `ssl_ecdh_curve`; default nginx's */
  readonly curves?: string;
  /** an RFC 7919 group for DHE suites (ffdhe2048, …); none: nginx offers no DHE suite */
  readonly dhGroup?: string;
  /** the Strict-Transport-Security value of every answer; none when absent */
  readonly hsts?: string;
  readonly preferServerCiphers?: boolean;
}

export interface NginxTlsServer {
  readonly port: number;
  close(): Promise<void>;
}

export async function startNginxTls(options: NginxTlsOptions): Promise<NginxTlsServer | null> {
  const binary = nginxBinary();
  if (binary === null) return null;
  const dir = mkdtempSync(join(tmpdir(), 'netdiag-nginx-tls-'));
  writeFileSync(join(dir, 'chain.pem'), options.chain);
  writeFileSync(join(dir, 'key.pem'), options.key);
  if (options.dhGroup) {
    // a named group is made at once, unlike `openssl dhparam`
    spawnSync('openssl', [
      'genpkey',
      '-genparam',
      '-algorithm',
      'DH',
      '-pkeyopt',
      `group:${options.dhGroup}`,
      '-out',
      join(dir, 'dh.pem'),
    ]);
  }
  const port = await unusedPort();
  const hsts = options.hsts ? `add_header Strict-Transport-Security "${options.hsts}" always;` : '';
  writeFileSync(
    join(dir, 'nginx.conf'),
    `${nginxConfigStart(dir, { errorLogLevel: 'crit', workerConnections: 1024 })}
  server {
    listen 127.0.0.1:${port} ssl;
    ssl_certificate ${join(dir, 'chain.pem')};
    ssl_certificate_key ${join(dir, 'key.pem')};
    ${options.dhGroup ? `ssl_dhparam ${join(dir, 'dh.pem')};` : ''}
    ${options.curves ? `ssl_ecdh_curve ${options.curves};` : ''}
    ssl_protocols ${options.protocols};
    ssl_ciphers '${options.ciphers}';
    ssl_prefer_server_ciphers ${options.preferServerCiphers === false ? 'off' : 'on'};
    ssl_session_cache off;
    ssl_session_tickets off;
    location / { ${hsts} return 200 "rated\\n"; }
  }
}
`,
  );
  const nginx = await runNginx(binary, dir, [port]);
  return { port, close: () => nginx.close() };
}
