/**
 * The loopback lab of `npm run bench:load` (bench/load-mix.ts starts it as a process of its own): a DNS
 * server with the mix's names, an HTTP server, and a TLS server on 127.0.0.1:443 for ssl-checker when
 * that port is free. The HTTP and TLS servers are nginx when it is installed (bench/load-lab-nginx.ts:
 * it takes less of the cores the service is measured on), else test/lab's node servers (also with
 * BENCH_LOAD_LAB=node). Prints `{"dnsPort", "httpPort", "tls", "servers"}` as one line once listening;
 * exits when its standard input closes. Loopback only.
 */
import { rr, startDnsLab } from '../test/lab/dns-server.js';
import { startHttpLab } from '../test/lab/http-server.js';
import { labPki } from '../test/lab/pki.js';
import { nginxBinary } from '../test/lab/nginx.js';
import { startNginxLab } from './load-lab-nginx.js';
import { startTlsServer, type LabTlsServer } from '../test/lab/tls-server.js';

const pki = await labPki();
const nginx = process.env.BENCH_LOAD_LAB === 'node' ? null : nginxBinary();
let web: { httpPort: number; tls: boolean; close(): Promise<void> };
if (nginx !== null) {
  web = await startNginxLab(nginx, pki.good);
} else {
  const http = await startHttpLab();
  // ssl-checker asks port 443; the lab takes it on loopback when it is free (root, nothing else there)
  let tls: LabTlsServer | null = null;
  try {
    tls = await startTlsServer({ cert: pki.good.chain, key: pki.good.key, port: 443 });
  } catch {
    tls = null;
  }
  web = {
    httpPort: http.port,
    tls: tls !== null,
    async close() {
      await http.close();
      await tls?.close();
    },
  };
}
const dns = await startDnsLab({
  authoritative: false,
  records: [
    rr.a('load.test', '127.0.0.1'),
    rr.mx('load.test', 10, 'mx.load.test'),
    rr.a('mx.load.test', '127.0.0.1'),
    rr.txt('load.test', 'v=spf1 ip4:192.0.2.0/24 include:_spf.load.test -all'),
    rr.txt('_spf.load.test', 'v=spf1 ip4:198.51.100.0/24 ~all'),
    rr.a('good.lab.test', '127.0.0.1'),
  ],
});
process.stdout.write(
  `${JSON.stringify({ dnsPort: dns.port, httpPort: web.httpPort, tls: web.tls, servers: nginx !== null ? 'nginx' : 'node' })}\n`,
);

process.stdin.resume();
process.stdin.on('end', async () => {
  await dns.close();
  await web.close();
  process.exit(0);
});
