/**
 * The HTTP and TLS servers of the load lab as nginx (Debian's `nginx-light`), when it is installed: the
 * lab shares the machine's cores with the service it measures, and nginx takes less of them for the
 * mix's new connections than node's TLS and HTTP servers, which leaves more to the service (the
 * figures: docs/performance.md "Measured reasons behind design choices").
 * The same pages as test/lab/http-server.ts's /ok and the same certificate as test/lab/tls-server.ts's,
 * so the checks see the same answers. Loopback only: nginx listens on 127.0.0.1 and nothing else.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SECURITY_HEADER_VALUES } from '../test/lab/http-server.js';
import { nginxConfigStart, portTaken, runNginx } from '../test/lab/nginx.js';
import type { LabLeaf } from '../test/lab/pki.js';
import { unusedPort } from '../test/lab/tcp-server.js';

export interface NginxLab {
  httpPort: number;
  /** whether it serves TLS on 127.0.0.1:443 (the port ssl-checker asks; taken when free) */
  tls: boolean;
  close(): Promise<void>;
}

function configOf(dir: string, httpPort: number, tls: boolean): string {
  const headers = Object.entries(SECURITY_HEADER_VALUES)
    .map(([name, value]) => `      add_header ${name} "${value.replaceAll('"', '\\"')}" always;`)
    .join('\n');
  // ssl-checker asks 443; sessions are not kept (the probes never resume one either)
  const tlsListener = `
    listen 127.0.0.1:443 ssl;
    ssl_certificate ${join(dir, 'chain.pem')};
    ssl_certificate_key ${join(dir, 'key.pem')};
    ssl_protocols TLSv1.2 TLSv1.3;
    ssl_session_cache off;
    ssl_session_tickets off;`;
  return `${nginxConfigStart(dir, { errorLogLevel: 'warn', workerConnections: 4096 })}
  server_tokens off;
  server {
    listen 127.0.0.1:${httpPort};
${tls ? tlsListener : ''}
    location = /ok {
      default_type "text/html; charset=utf-8";
${headers}
      return 200 "<title>ok</title>";
    }
    location / { return 404; }
  }
}
`;
}

/**
 * Starts nginx with the lab's /ok page on a free port and, when 443 is free and may be bound (ports below
 * 1024 need root), TLS with `leaf`; without TLS when it cannot have 443.
 */
export async function startNginxLab(binary: string, leaf: LabLeaf): Promise<NginxLab> {
  if (!(await portTaken(443))) {
    try {
      return await startNginx(binary, leaf, true);
    } catch {
      // e.g. not root: 443 cannot be bound; ssl-checker is left out of the mix, as with node's servers
    }
  }
  return startNginx(binary, leaf, false);
}

async function startNginx(binary: string, leaf: LabLeaf, tls: boolean): Promise<NginxLab> {
  const dir = mkdtempSync(join(tmpdir(), 'netdiag-load-nginx-'));
  writeFileSync(join(dir, 'chain.pem'), leaf.chain);
  writeFileSync(join(dir, 'key.pem'), leaf.key, { mode: 0o600 });
  // nginx takes no port 0: one free now (only the lab listens on this namespace's loopback)
  const httpPort = await unusedPort();
  writeFileSync(join(dir, 'nginx.conf'), configOf(dir, httpPort, tls));
  const nginx = await runNginx(binary, dir, tls ? [httpPort, 443] : [httpPort]);
  return { httpPort, tls, close: () => nginx.close() };
}
