/** The ping check: the Query field ping and GET /api/v1/ping. */
import { runPingCheck } from './run.js';
import { parseHostOrIp } from '../../../validation.js';
import { defineCheck } from '../../../graphql/check-declaration.js';
import { Ping } from './types.js';
import { pingWatch } from './watch.js';

defineCheck({
  field: 'ping',
  tool: 'ping',
  watch: pingWatch,
  family: 'IP',
  type: Ping,
  description:
    'ICMP echo to a host: round-trip times and packet loss, with ping.count packets within ping.timeoutMs (REST: ping). No reply is status Offline, not an error. Private and internal addresses are refused.',
  args: (arg) => ({ host: arg.string({ required: true, description: 'Hostname or IP address.' }) }),
  rest: { host: 'required' },
  parse: (args: { host: string }) => parseHostOrIp('host', args.host),
  run: runPingCheck,
});
