/**
 * The loopback lab of `npm run bench:load` (bench/load-mix.ts starts it as a process of its own): a DNS
 * server with the mix's names, an HTTP server, and a TLS server on 127.0.0.1:443 for ssl-checker when
 * that port is free. Prints `{"dnsPort", "httpPort", "tls"}` as one line once listening; exits when its
 * standard input closes. Loopback only.
 */
import { rr, startDnsLab } from '../test/lab/dns-server.js';
import { startHttpLab } from '../test/lab/http-server.js';
import { labPki } from '../test/lab/pki.js';
import { startTlsServer, type LabTlsServer } from '../test/lab/tls-server.js';

const http = await startHttpLab();
const pki = await labPki();
// ssl-checker asks port 443; the lab takes it on loopback when it is free (root, nothing else there)
let tls: LabTlsServer | null = null;
try {
  tls = await startTlsServer({ cert: pki.good.chain, key: pki.good.key, port: 443 });
} catch {
  tls = null;
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
process.stdout.write(`${JSON.stringify({ dnsPort: dns.port, httpPort: http.port, tls: tls !== null })}\n`);

process.stdin.resume();
process.stdin.on('end', async () => {
  await dns.close();
  await http.close();
  await tls?.close();
  process.exit(0);
});
