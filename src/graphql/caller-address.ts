/**
 * The caller's public address as a check reads it from its request (my-ip, what-is-my-ip): the socket's
 * peer, and forwarding headers only from a trusted front-end proxy (`server.trustedProxies`). Checks read
 * the request through here, not the platform's parser itself (the layers, .dependency-cruiser.cjs).
 */
import { clientAddress, type ClientAddress } from '../platform/client-address.js';
import type { RequestContext } from './context.js';

export type CallerAddress = ClientAddress;

export function callerAddress(ctx: RequestContext): CallerAddress {
  return clientAddress(
    ctx.peerAddress,
    ctx.request.headers.get('x-forwarded-for'),
    ctx.services.config.server.trustedProxies,
  );
}
