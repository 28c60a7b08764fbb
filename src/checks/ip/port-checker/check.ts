/** The port-checker check: the Query field portChecker and GET /api/v1/port-checker. */
import { runPortChecker } from './run.js';
import { parseHostOrIp } from '../../../validation.js';
import { defineCheck } from '../../../graphql/check-declaration.js';
import { portArgument } from '../../tls-http/shared/tls-types.js';
import { PortChecker } from './types.js';
import { portCheckerWatch } from './watch.js';

defineCheck({
  field: 'portChecker',
  tool: 'port-checker',
  watch: portCheckerWatch,
  family: 'IP',
  type: PortChecker,
  description:
    'Whether a TCP port of a host accepts connections from this service (REST: port-checker). A closed or filtered port is a result; private and internal addresses are refused.',
  args: (arg) => ({
    host: arg.string({ required: true, description: 'Hostname or IP address.' }),
    port: arg.int({ required: true, description: '1–65535.' }),
  }),
  rest: { host: 'required', port: 'port' },
  parse: (args: { host: string; port: number }) => ({
    host: parseHostOrIp('host', args.host),
    port: portArgument('port', args.port),
  }),
  run: runPortChecker,
});
