/**
 * The report bench's app in a process of its own (bench/report.ts): playwright drives Chromium from the
 * bench's process, and every page event, frame and network event of the browser's protocol is handled on
 * that process's event loop; the measured app must not share it, as a service does not share its process
 * with its clients' browsers. Serves the app against the lab whose addresses are the first argument, prints
 * its origin as one JSON line, then answers each line of stdin: `parts` with the record of its last answer
 * in parts (./report-app.ts `PartsLeaving`, times in this process's clock), `close` by closing and exiting.
 */
import { createInterface } from 'node:readline';
import type { ReportLabAddresses } from '../test/lab/report-lab.js';
import { serveReportLab } from './report-app.js';

const lab = JSON.parse(process.argv[2] ?? '{}') as ReportLabAddresses;
const app = await serveReportLab(lab);
process.stdout.write(`${JSON.stringify({ origin: app.origin })}\n`);
createInterface({ input: process.stdin }).on('line', async (line) => {
  if (line === 'parts') {
    const { left, ...times } = app.parts;
    process.stdout.write(`${JSON.stringify({ ...times, left: [...left] })}\n`);
  } else if (line === 'close') {
    await app.close();
    process.exit(0);
  }
});
