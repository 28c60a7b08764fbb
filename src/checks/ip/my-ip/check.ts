/** The my-ip check: the Query field myIp and GET /api/v1/my-ip. */
import { defineCheck } from '../../../graphql/check-declaration.js';
import { MyIp, callerAddress } from './types.js';

defineCheck({
  field: 'myIp',
  tool: 'my-ip',
  family: 'IP',
  price: 1,
  type: MyIp,
  description:
    'The public source address of this connection (REST: my-ip). Forwarding headers are ignored unless the peer is a trusted front-end proxy (server.trustedProxies). A missing, malformed or private address is an input error.',
  rest: {},
  parse: callerAddress,
  answer: (address) => address,
});
