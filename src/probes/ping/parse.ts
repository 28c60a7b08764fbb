/**
 * Parses the transcript of Debian's ping (iputils) into ping's `data` numbers.
 *
 * iputils prints, after the replies (ping/ping_common.c, finish()):
 *   --- 192.0.2.1 ping statistics ---
 *   4 packets transmitted, 3 received, +1 duplicates, +2 errors, 25% packet loss, time 3004ms
 *   rtt min/avg/max/mdev = 0.045/0.163/0.282/0.118 ms[, pipe 2][, ipg/ewma …]
 * The duplicates/corrupted/errors parts appear only when non-zero, the loss is printed
 * with %g (so "33.3333%"), and the rtt line only when a reply arrived. BusyBox and
 * older builds say "round-trip min/avg/max = …", which is accepted too.
 */
export interface PingStatistics {
  sent: number;
  received: number;
  lost: number;
  lossPercent: number;
  /** round-trip times in ms; null when no reply arrived */
  min: number | null;
  max: number | null;
  average: number | null;
  /** ICMP errors ping counted (e.g. Destination Host Unreachable from a router) */
  errors: number;
  duplicates: number;
  /** decisions §4: Online with at least one reply, else Offline */
  status: 'Online' | 'Offline';
  /** the transcript as ping printed it */
  text: string;
}

const SUMMARY =
  /^(\d+) packets transmitted, (\d+) (?:packets )?received(?:, \+(\d+) duplicates)?(?:, \+(\d+) corrupted)?(?:, \+(\d+) errors)?(?:, ([\d.]+)% packet loss)?/m;
const ROUND_TRIP =
  /^(?:rtt|round-trip) min\/avg\/max(?:\/(?:mdev|stddev))? = ([\d.]+)\/([\d.]+)\/([\d.]+)(?:\/[\d.]+)? ms/m;

/** The statistics of a transcript, or null when it has no summary line (ping failed early). */
export function parsePingOutput(text: string): PingStatistics | null {
  const summary = SUMMARY.exec(text);
  if (!summary) return null;
  const sent = Number(summary[1]);
  const received = Number(summary[2]);
  const lost = Math.max(0, sent - received);
  const printedLoss = summary[6] === undefined ? null : Number(summary[6]);
  const lossPercent = printedLoss ?? (sent === 0 ? 100 : Math.round((lost / sent) * 10000) / 100);
  const roundTrip = received > 0 ? ROUND_TRIP.exec(text) : null;
  return {
    sent,
    received,
    lost,
    lossPercent,
    min: roundTrip ? Number(roundTrip[1]) : null,
    average: roundTrip ? Number(roundTrip[2]) : null,
    max: roundTrip ? Number(roundTrip[3]) : null,
    errors: summary[5] === undefined ? 0 : Number(summary[5]),
    duplicates: summary[3] === undefined ? 0 : Number(summary[3]),
    status: received > 0 ? 'Online' : 'Offline',
    text: text.trimEnd(),
  };
}
