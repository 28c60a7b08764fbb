/**
 * Trust anchors and time bounds of the connection checks (port-checker, ssl-checker,
 * tls-configuration and, later, the TLS part of website-health-check). Long-lived:
 * built once with the services.
 */

export interface ConnectionSettings {
  /**
   * Trust anchors (PEM) for the chain verdict. Undefined in production: Node's bundled
   * CA store plus NODE_EXTRA_CA_CERTS (configuration.md), which is how an operator adds
   * a private root. A test seam: tests pass their lab root here instead of touching the
   * process environment.
   */
  readonly tlsCa: string | undefined;
  /** bound on one TCP connect (decisions §8: 5 s); for port-checker also the wait before "filtered" */
  readonly connectTimeoutMs: number;
  /** bound on one TLS handshake once connected (decisions §8: 5 s) */
  readonly handshakeTimeoutMs: number;
}

export const DEFAULT_CONNECTION_SETTINGS: ConnectionSettings = Object.freeze({
  tlsCa: undefined,
  connectTimeoutMs: 5000,
  handshakeTimeoutMs: 5000,
});

/** The defaults with whatever a caller (a test, a benchmark) overrides. */
export function connectionSettings(overrides: Partial<ConnectionSettings> = {}): ConnectionSettings {
  return Object.freeze({ ...DEFAULT_CONNECTION_SETTINGS, ...overrides });
}
