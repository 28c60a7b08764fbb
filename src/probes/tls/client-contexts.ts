/**
 * The client SecureContexts of the handshakes, made once per setting instead of once per connection.
 *
 * tls.connect without a `secureContext` builds one for every connection (an OpenSSL SSL_CTX with its
 * cipher list and trust store): a measurable share of a worker's CPU on the load mix
 * (docs/performance.md "Measured reasons behind design choices"). A context holds
 * no session of its own: Node's contexts keep no internal session cache (SSL_SESS_CACHE_NO_INTERNAL),
 * so a client resumes only a session it is handed, and every probe stays a full handshake (a test
 * checks it on the server's side).
 *
 * Only these options shape a context; the per-connection ones (servername, ALPN, the certificate
 * checks) stay on tls.connect.
 */
import tls from 'node:tls';

export interface ClientContextOptions {
  readonly minVersion?: tls.SecureVersion;
  readonly maxVersion?: tls.SecureVersion;
  readonly ciphers?: string;
  readonly ecdhCurve?: string;
  readonly ca?: string | Buffer | readonly (string | Buffer)[];
}

/**
 * Settings come from configuration, the protocol pins and tls-rating's one-suite and one-group offers
 * (a few hundred at most); a bound keeps a caller that varies them from growing the maps without end.
 */
const MAX_CONTEXTS = 256;
/**
 * By CA value first: the configured CA is one string, Buffer or array for the life of the process, so
 * it is found by identity (or a string's cached hash) without joining a bundle's text per handshake.
 */
const contextsByCa = new Map<ClientContextOptions['ca'], Map<string, tls.SecureContext>>();
let count = 0;

/** The shared context of these settings; throws as tls.createSecureContext does (a bad cipher list or CA). */
export function clientSecureContext(options: ClientContextOptions): tls.SecureContext {
  const key = `${options.minVersion ?? ''}|${options.maxVersion ?? ''}|${options.ciphers ?? ''}|${options.ecdhCurve ?? ''}`;
  let contexts = contextsByCa.get(options.ca);
  let context = contexts?.get(key);
  if (!context) {
    context = tls.createSecureContext({
      ...(options.minVersion ? { minVersion: options.minVersion } : {}),
      ...(options.maxVersion ? { maxVersion: options.maxVersion } : {}),
      ...(options.ciphers ? { ciphers: options.ciphers } : {}),
      ...(options.ecdhCurve ? { ecdhCurve: options.ecdhCurve } : {}),
      ...(options.ca !== undefined ? { ca: options.ca as string | Buffer | (string | Buffer)[] } : {}),
    });
    if (count >= MAX_CONTEXTS) {
      contextsByCa.clear();
      count = 0;
      contexts = undefined;
    }
    if (!contexts) {
      contexts = new Map();
      contextsByCa.set(options.ca, contexts);
    }
    contexts.set(key, context);
    count++;
  }
  return context;
}
