/**
 * Reads the API key of a request (docs/contract/api-v1.md "Authentication"): the `x-api-key` header, or the
 * `api_key` query parameter for clients that cannot set headers. Verification is the keyring's.
 */
import { NetdiagError } from '../errors.js';
import type { KeyIdentity, Keyring } from './keys.js';

export const MISSING_KEY_MESSAGE = 'missing API key: pass it in the x-api-key header or the api_key query parameter';

/** The key the examples show (the developer page's, GraphiQL's prefilled headers): never a key. */
export const KEY_PLACEHOLDER = 'YOUR_KEY';

/** The refusal of the placeholder sent as it is: what to do instead, where a bare "invalid" leaves one guessing. */
export const PLACEHOLDER_KEY_MESSAGE = `invalid API key: ${KEY_PLACEHOLDER} is the examples' placeholder; put your own key in its place (in GraphiQL: the Headers tab, {"x-api-key": "<your key>"}); the developer page at / gives you one`;

export class AuthError extends NetdiagError {
  constructor(message: string) {
    super('UNAUTHENTICATED', 401, message);
  }
}

export type AuthOutcome = { ok: true; identity: KeyIdentity } | { ok: false; error: AuthError };

/**
 * The key's outcome for a request. The app asks once per request and passes the outcome down (to the
 * REST shim, the GraphQL context and the request log): verifying is an HMAC, not free.
 */
export function authenticate(request: Request, url: URL, keyring: Keyring): AuthOutcome {
  const header = request.headers.get('x-api-key');
  const params = url.searchParams.getAll('api_key');
  if (params.length > 1)
    return { ok: false, error: new AuthError('the api_key query parameter is repeated; pass it once') };
  const key = header?.trim() || params[0]?.trim() || '';
  if (!key) return { ok: false, error: new AuthError(MISSING_KEY_MESSAGE) };
  if (key.length > 256) return { ok: false, error: new AuthError('invalid API key') };
  const identity = keyring.verify(key);
  if (!identity && key === KEY_PLACEHOLDER) return { ok: false, error: new AuthError(PLACEHOLDER_KEY_MESSAGE) };
  if (!identity) return { ok: false, error: new AuthError('invalid API key: it is unknown or has been revoked') };
  return { ok: true, identity };
}

/** The request path with the api_key value hidden, for logs (decisions §10: keys never appear in logs). */
export function redactedPath(url: URL): string {
  if (!url.searchParams.has('api_key')) return url.pathname + url.search;
  const params = new URLSearchParams(url.searchParams);
  params.set('api_key', 'REDACTED');
  return `${url.pathname}?${params.toString()}`;
}
