import { describe, expect, it } from 'vitest';
import { parsePingOutput } from '../../../../src/probes/ping/parse.js';

// Transcripts in iputils 20221126's exact format (ping/ping_common.c finish()).
const ALL_REPLIES = `PING 127.0.0.1 (127.0.0.1) 56(84) bytes of data.
64 bytes from 127.0.0.1: icmp_seq=1 ttl=64 time=0.282 ms
64 bytes from 127.0.0.1: icmp_seq=2 ttl=64 time=0.045 ms
64 bytes from 127.0.0.1: icmp_seq=3 ttl=64 time=0.051 ms
64 bytes from 127.0.0.1: icmp_seq=4 ttl=64 time=0.049 ms

--- 127.0.0.1 ping statistics ---
4 packets transmitted, 4 received, 0% packet loss, time 3055ms
rtt min/avg/max/mdev = 0.045/0.106/0.282/0.101 ms
`;

const PARTIAL_LOSS = `PING 192.0.2.10 (192.0.2.10) 56(84) bytes of data.
64 bytes from 192.0.2.10: icmp_seq=1 ttl=57 time=12.4 ms
64 bytes from 192.0.2.10: icmp_seq=3 ttl=57 time=11.9 ms
64 bytes from 192.0.2.10: icmp_seq=4 ttl=57 time=13.1 ms

--- 192.0.2.10 ping statistics ---
4 packets transmitted, 3 received, 25% packet loss, time 3005ms
rtt min/avg/max/mdev = 11.912/12.466/13.103/0.492 ms
`;

const TOTAL_LOSS = `PING 192.0.2.1 (192.0.2.1) 56(84) bytes of data.

--- 192.0.2.1 ping statistics ---
4 packets transmitted, 0 received, 100% packet loss, time 3062ms

`;

const HOST_UNREACHABLE = `PING 192.0.2.20 (192.0.2.20) 56(84) bytes of data.
From 198.51.100.1 icmp_seq=1 Destination Host Unreachable
From 198.51.100.1 icmp_seq=2 Destination Host Unreachable
From 198.51.100.1 icmp_seq=3 Destination Host Unreachable

--- 192.0.2.20 ping statistics ---
4 packets transmitted, 0 received, +3 errors, 100% packet loss, time 3049ms
pipe 3
`;

const IPV6 = `PING 2001:db8::1(2001:db8::1) 56 data bytes
64 bytes from 2001:db8::1: icmp_seq=1 ttl=56 time=20.1 ms
64 bytes from 2001:db8::1: icmp_seq=2 ttl=56 time=19.9 ms
64 bytes from 2001:db8::1: icmp_seq=3 ttl=56 time=20.1 ms

--- 2001:db8::1 ping statistics ---
3 packets transmitted, 3 received, 0% packet loss, time 2003ms
rtt min/avg/max/mdev = 19.874/20.035/20.147/0.113 ms
`;

const DUPLICATES_AND_FRACTION = `PING 192.0.2.30 (192.0.2.30) 56(84) bytes of data.
64 bytes from 192.0.2.30: icmp_seq=1 ttl=64 time=0.040 ms
64 bytes from 192.0.2.30: icmp_seq=1 ttl=64 time=0.061 ms (DUP!)
64 bytes from 192.0.2.30: icmp_seq=2 ttl=64 time=0.060 ms

--- 192.0.2.30 ping statistics ---
3 packets transmitted, 2 received, +1 duplicates, 33.3333% packet loss, time 2002ms
rtt min/avg/max/mdev = 0.040/0.053/0.061/0.009 ms, pipe 2
`;

const BUSYBOX = `PING 192.0.2.40 (192.0.2.40): 56 data bytes
64 bytes from 192.0.2.40: seq=0 ttl=64 time=0.079 ms
64 bytes from 192.0.2.40: seq=1 ttl=64 time=0.045 ms

--- 192.0.2.40 ping statistics ---
2 packets transmitted, 2 packets received, 0% packet loss
round-trip min/avg/max = 0.045/0.062/0.079 ms
`;

describe('parsePingOutput', () => {
  it('reads a run where every packet came back', () => {
    expect(parsePingOutput(ALL_REPLIES)).toEqual({
      sent: 4,
      received: 4,
      lost: 0,
      lossPercent: 0,
      min: 0.045,
      average: 0.106,
      max: 0.282,
      errors: 0,
      duplicates: 0,
      status: 'Online',
      text: ALL_REPLIES.trimEnd(),
    });
  });

  it('reads partial loss as Online with the loss counted', () => {
    expect(parsePingOutput(PARTIAL_LOSS)).toMatchObject({
      sent: 4,
      received: 3,
      lost: 1,
      lossPercent: 25,
      min: 11.912,
      average: 12.466,
      max: 13.103,
      status: 'Online',
    });
  });

  it('reads 100 % loss as Offline with null round-trip times', () => {
    expect(parsePingOutput(TOTAL_LOSS)).toMatchObject({
      sent: 4,
      received: 0,
      lost: 4,
      lossPercent: 100,
      min: null,
      average: null,
      max: null,
      status: 'Offline',
    });
  });

  it('counts ICMP errors and ignores the pipe line', () => {
    expect(parsePingOutput(HOST_UNREACHABLE)).toMatchObject({
      sent: 4,
      received: 0,
      errors: 3,
      lossPercent: 100,
      status: 'Offline',
      average: null,
    });
  });

  it('reads an IPv6 run', () => {
    expect(parsePingOutput(IPV6)).toMatchObject({
      sent: 3,
      received: 3,
      lost: 0,
      min: 19.874,
      average: 20.035,
      max: 20.147,
      status: 'Online',
    });
  });

  it('keeps the %g loss, counts duplicates apart from replies, and tolerates ", pipe" after the rtt line', () => {
    expect(parsePingOutput(DUPLICATES_AND_FRACTION)).toMatchObject({
      sent: 3,
      received: 2,
      lost: 1,
      duplicates: 1,
      lossPercent: 33.3333,
      min: 0.04,
      average: 0.053,
      max: 0.061,
    });
  });

  it('reads the BusyBox wording', () => {
    expect(parsePingOutput(BUSYBOX)).toMatchObject({
      sent: 2,
      received: 2,
      min: 0.045,
      average: 0.062,
      max: 0.079,
      status: 'Online',
    });
  });

  it('returns null when ping printed no statistics', () => {
    expect(parsePingOutput('')).toBeNull();
    expect(parsePingOutput('PING 192.0.2.1 (192.0.2.1) 56(84) bytes of data.\n')).toBeNull();
  });
});
