/**
 * The report lab in a process of its own (bench/report.ts): its servers' work (TLS handshakes above all)
 * must not share the measured app's event loop, as remote servers do not. Prints the lab's addresses as one
 * JSON line, then serves until stdin closes.
 */
import { startReportLab } from '../test/lab/report-lab.js';

const latency = JSON.parse(process.argv[2] ?? '{}');
const lab = await startReportLab({ latency });
const { domain, https, http, whoisPort, smtpPort, dnsPort, rootCert } = lab;
process.stdout.write(`${JSON.stringify({ domain, https, http, whoisPort, smtpPort, dnsPort, rootCert })}\n`);
process.stdin.resume();
process.stdin.on('end', () => void lab.close().then(() => process.exit(0)));
