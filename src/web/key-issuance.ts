/**
 * The developer page's routes (decisions §10): `GET /` renders the page with a fresh form token, and
 * `POST /keys` issues a key — shown once, never stored, never logged — when the post is same-site,
 * carries a valid token not used before, the client (IPv4 address or IPv6 /48) has not used up
 * `auth.issuePerIpPerDay` in the rolling 24 h, and all clients together not `auth.issuePerHour` in the
 * rolling hour. Those limits and the spent tokens live in the issue ledger (./issuance-limits.ts).
 *
 * Cross-site posting protection, in two layers:
 * - the browser's word: `Sec-Fetch-Site` when sent (it names the real relation of the two origins, so it
 *   stays right behind a proxy that rewrites Host), else `Origin` compared with the request's host;
 * - a token in a hidden field: HMAC-SHA256 under the deployment's secret over a timestamp and a random
 *   nonce, so any instance sharing the secret accepts it without state at minting. Another site can
 *   make a browser post the form but cannot read our page to learn a token. A token is spent by its
 *   first post that passes the check, so a token fetched once cannot be replayed to post many times.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { InputError, NetdiagError } from '../errors.js';
import { costOf } from '../graphql/pricing.js';
import { schema } from '../graphql-server/schema.js';
import { restRoutes } from '../rest/routes.js';
import type { Services } from '../services.js';
import { connectionClientAddress, type ClientAddress } from '../platform/client-address.js';
import { FORM_TOKEN_CLOCK_SKEW_SECONDS, FORM_TOKEN_MAX_AGE_SECONDS } from '../platform/ledger-policies.js';
import {
  FORM_TOKEN_FIELD,
  describeEndpoints,
  formatDuration,
  htmlHeaders,
  renderDeveloperPage,
  renderIssuedKeyPage,
  renderMessagePage,
} from './developer-page.js';
import { chargeIssuance, issuanceClient, spendFormToken, type IssuanceVerdict } from './issuance-limits.js';

/** A form post is one hidden field; anything bigger than this is not our form. */
export const MAX_FORM_BYTES = 4096;
const FORM_TOKEN = /^(\d{1,12})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

function formTokenMac(secret: string, issuedSeconds: number, nonce: string): string {
  // The label keeps these tags apart from the keyring's ("netdiag-key-v1:") under the same secret.
  return createHmac('sha256', secret).update(`netdiag-form-v1:${issuedSeconds}.${nonce}`).digest('base64url');
}

/** `<issued unix seconds>.<128-bit nonce>.<HMAC-SHA256 tag>`, all URL-safe. */
export function mintFormToken(secret: string, nowMs: number): string {
  const issued = Math.floor(nowMs / 1000);
  const nonce = randomBytes(16).toString('base64url');
  return `${issued}.${nonce}.${formTokenMac(secret, issued, nonce)}`;
}

/** A valid token's nonce names it in the ledger of spent tokens. */
export type FormTokenVerdict =
  | { readonly verdict: 'valid'; readonly nonce: string }
  | { readonly verdict: 'expired' }
  | { readonly verdict: 'invalid' };

export function verifyFormToken(secret: string, token: string, nowMs: number): FormTokenVerdict {
  const m = FORM_TOKEN.exec(token);
  if (!m) return { verdict: 'invalid' };
  const issued = Number(m[1]);
  const nonce = m[2]!;
  // Compare the tag's text, not its decoded bytes: base64url's last character has unused bits.
  const expected = Buffer.from(formTokenMac(secret, issued, nonce));
  const given = Buffer.from(m[3]!);
  if (!timingSafeEqual(given, expected)) return { verdict: 'invalid' };
  const age = Math.floor(nowMs / 1000) - issued;
  if (age < -FORM_TOKEN_CLOCK_SKEW_SECONDS) return { verdict: 'invalid' };
  return age > FORM_TOKEN_MAX_AGE_SECONDS ? { verdict: 'expired' } : { verdict: 'valid', nonce };
}

/**
 * Why a post must be refused as cross-site, or null. Without either header (an old browser, or not a
 * browser at all) the form token alone decides.
 */
export function crossSiteRefusal(headers: Headers, url: URL): string | null {
  const site = headers.get('sec-fetch-site')?.toLowerCase();
  if (site !== undefined) {
    return site === 'same-origin' || site === 'none' ? null : `the browser reports it as ${site} (Sec-Fetch-Site)`;
  }
  const origin = headers.get('origin');
  if (origin === null) return null;
  if (origin === 'null') return 'it comes from an opaque origin (Origin: null)';
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return 'its Origin header is malformed';
  }
  return host === url.host ? null : `it comes from ${origin.slice(0, 200)}`;
}

/**
 * The body as text, or null when it is longer than `limit` bytes (read no further than that).
 * A refused body is left unread, never cancelled: cancelling the request stream makes the Node adapter
 * destroy the socket before the response is written, and the client sees an empty reply instead of the
 * refusal. Node's HTTP server discards what is left once the response has been sent.
 */
async function readBoundedBody(request: Request, limit: number): Promise<string | null> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) return null;
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) return null;
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  return Buffer.concat(chunks).toString('utf8');
}

export interface DeveloperRoutes {
  /** GET / (and HEAD) */
  page(request: Request, url: URL): Response;
  /** POST /keys */
  issueKey(request: Request, url: URL, peerAddress: string | null): Promise<Response>;
}

export function createDeveloperRoutes(services: Services): DeveloperRoutes {
  const { config } = services;
  // The route table, the schema and the costs are fixed for the process: describe them once, when the page is
  // first asked for (a process that never shows it, the command, never does).
  let endpoints: ReturnType<typeof describeEndpoints> | undefined;
  const endpointsOnce = () =>
    (endpoints ??= describeEndpoints(restRoutes.values(), schema, (tool) => costOf(config, tool)));
  const allowance = { credits: config.quota.credits, windowSeconds: config.quota.windowSeconds };
  const perDay = config.auth.issuePerIpPerDay;
  const perHour = config.auth.issuePerHour;

  const html = (status: number, body: string, options: { headers?: Record<string, string>; head?: boolean } = {}) =>
    new Response(options.head ? null : body, { status, headers: { ...htmlHeaders(body), ...options.headers } });
  const message = (status: number, title: string, paragraphs: string[], headers?: Record<string, string>) =>
    html(status, renderMessagePage(title, paragraphs), headers ? { headers } : {});
  /** The issue ledger fails closed (e.g. a shared store that is unreachable): no key without the count. */
  const unavailable = (e: unknown) => {
    if (!(e instanceof NetdiagError)) throw e;
    return message(e.status, 'Keys cannot be issued right now', [`${e.message}.`, 'Try again in a few minutes.']);
  };

  return {
    page(request, url) {
      const head = request.method === 'HEAD';
      if (request.method !== 'GET' && !head) {
        return message(405, 'Method not allowed', [`The developer page answers GET, not ${request.method}.`], {
          Allow: 'GET, HEAD',
        });
      }
      const body = renderDeveloperPage({
        origin: url.origin,
        endpoints: endpointsOnce(),
        allowance,
        issuePerDay: perDay,
        formToken: mintFormToken(services.secret, services.now()),
      });
      return html(200, body, { head });
    },

    async issueKey(request, url, peerAddress) {
      if (request.method !== 'POST') {
        return message(
          405,
          'Use the form',
          [`Keys are issued by the form on the developer page, which posts here; ${request.method} is not allowed.`],
          {
            Allow: 'POST',
          },
        );
      }
      const crossSite = crossSiteRefusal(request.headers, url);
      if (crossSite) {
        return message(403, 'Refused: the form was posted from another site', [
          `This request was refused because ${crossSite}.`,
          'Keys are issued only from the form on this service’s own developer page: open it and use the button there.',
        ]);
      }
      if (perDay === 0) {
        return message(403, 'Key issuance is off', [
          'This instance does not issue keys from its developer page. Ask its operator for a key.',
        ]);
      }
      const mediaType = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
      if (mediaType !== 'application/x-www-form-urlencoded') {
        return message(415, 'Not a form post', [
          'This address takes the developer page’s form (application/x-www-form-urlencoded).',
        ]);
      }
      const text = await readBoundedBody(request, MAX_FORM_BYTES);
      if (text === null) {
        return message(
          413,
          'Form too large',
          [`The form post is larger than ${MAX_FORM_BYTES} bytes; the developer page’s form is much smaller.`],
          {
            Connection: 'close',
          },
        );
      }
      const tokens = new URLSearchParams(text).getAll(FORM_TOKEN_FIELD);
      const token: FormTokenVerdict =
        tokens.length === 1 ? verifyFormToken(services.secret, tokens[0]!, services.now()) : { verdict: 'invalid' };
      if (token.verdict === 'expired') {
        return message(403, 'The form has expired', [
          `A form is valid for ${formatDuration(FORM_TOKEN_MAX_AGE_SECONDS)} after the page was loaded. Reload the developer page and press the button again.`,
        ]);
      }
      if (token.verdict === 'invalid') {
        return message(403, 'Refused: the form’s security token is missing or invalid', [
          'Keys are issued only from the form on this service’s own developer page, which carries a token that other sites cannot forge. Open the page and use the button there.',
        ]);
      }
      // Spent before anything else is decided: whatever the answer, this form has had it.
      let firstUse: boolean;
      try {
        firstUse = await spendFormToken(services.issueLedger, token.nonce);
      } catch (e) {
        return unavailable(e);
      }
      if (!firstUse) {
        return message(403, 'This form was already used', [
          'This form was already used; reload the page to get a fresh one, then press the button again.',
          'Each form can be sent once, so that one visit to the page cannot be replayed to collect keys.',
        ]);
      }

      let client: ClientAddress;
      try {
        client = connectionClientAddress(
          peerAddress,
          request.headers.get('x-forwarded-for'),
          config.server.trustedProxies,
        );
      } catch (e) {
        if (!(e instanceof InputError)) throw e;
        return message(400, 'No client address', [`A key cannot be issued: ${e.message}.`]);
      }
      const issuance = issuanceClient(client);
      let outcome: IssuanceVerdict;
      try {
        outcome = await chargeIssuance(services.issueLedger, issuance);
      } catch (e) {
        return unavailable(e);
      }
      if (!outcome.allowed && outcome.limit === 'client') {
        return message(
          429,
          'Key limit reached for your address',
          [
            `Keys are limited to ${perDay} per client address per rolling 24 hours${client.version === 'IPv6' ? ' (an IPv6 address counts with its whole /48 network)' : ''}, and ${issuance.label} has received ${perDay === 1 ? 'one' : `${perDay}`} in that time.`,
            `The next key can be issued in ${formatDuration(outcome.retryAfterSeconds)}. A key you already have keeps working.`,
          ],
          { 'Retry-After': String(outcome.retryAfterSeconds) },
        );
      }
      if (!outcome.allowed) {
        // Real visitors are refused too: the operator should hear of it (a raid, or a cap set too low).
        services.logger.warn('key_issuance_capped', { issuePerHour: perHour });
        return message(
          429,
          'Too many keys issued in the last hour',
          [
            `This service issues at most ${perHour} key${perHour === 1 ? '' : 's'} per hour to all its visitors together, and that many have been issued in the last hour. This limit is not about your address.`,
            `The next key can be issued in ${formatDuration(outcome.retryAfterSeconds)}: reload the developer page then and press the button again. A key you already have keeps working.`,
          ],
          { 'Retry-After': String(outcome.retryAfterSeconds) },
        );
      }
      const { key, identity } = services.keyring.issue();
      services.logger.info('key_issued', { keyId: identity.id });
      return html(
        200,
        renderIssuedKeyPage({
          origin: url.origin,
          key,
          endpoints: endpointsOnce(),
          allowance,
          keysLeftForAddress: outcome.keysLeftForClient,
        }),
      );
    },
  };
}
