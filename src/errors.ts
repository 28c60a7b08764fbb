/**
 * Error classes that cross module boundaries. Each carries a stable `code` (for
 * GraphQL `extensions.code` and logs) and the HTTP status the REST shim answers
 * with (decisions §2). Messages are written for the API caller: they name the
 * parameter or upstream concerned and never include a stack trace.
 */
export type ErrorCode =
  | 'BAD_INPUT'
  | 'TARGET_REFUSED'
  | 'UNAUTHENTICATED'
  | 'QUOTA_EXCEEDED'
  | 'UPSTREAM_TIMEOUT'
  | 'UPSTREAM_FAILED'
  | 'UNAVAILABLE'
  | 'FAN_OUT_LIMIT'
  | 'INTERNAL';

export class NetdiagError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /**
   * True only where the error was decided before the check sent anything upstream (decisions §1): such a
   * 400 is given its price back. False by default, so an error nobody marked is charged, never free.
   */
  beforeUpstream = false;
  constructor(code: ErrorCode, status: number, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
    this.status = status;
  }
}

/** A parameter is missing or invalid (400). */
export class InputError extends NetdiagError {
  readonly parameter: string;
  constructor(parameter: string, message: string) {
    super('BAD_INPUT', 400, message);
    this.parameter = parameter;
  }
}

/** The caller's target resolves to a special-purpose address (decisions §7): 400, nothing sent. */
export class TargetRefusedError extends NetdiagError {
  readonly address: string;
  constructor(target: string, address: string, range: string) {
    const article = withArticle(range);
    super(
      'TARGET_REFUSED',
      400,
      target === address
        ? `target ${target} is ${article} address; checks of private or internal addresses are refused`
        : `target ${target} resolves to ${address}, ${article} address; checks of private or internal addresses are refused`,
    );
    this.address = address;
  }
}

/** Service-side unavailability, e.g. the shared store is down (503, fail closed). */
export class UnavailableError extends NetdiagError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('UNAVAILABLE', 503, message, options);
  }
}

/**
 * Marks an input error or refusal as decided before anything was sent upstream (its price is given back),
 * and returns it. Other values pass unchanged.
 */
export function decidedBeforeUpstream<E>(error: E): E {
  if (error instanceof NetdiagError) error.beforeUpstream = true;
  return error;
}

/** Unmarks an error met after something was sent upstream (a redirect hop): it is charged. */
export function decidedAfterUpstream<E>(error: E): E {
  if (error instanceof NetdiagError) error.beforeUpstream = false;
  return error;
}

/** "a loopback", "an IPv4-mapped loopback", "a unique-local": the article English wants before a range name. */
export function withArticle(range: string): string {
  return `${/^(?:[aeio]|u(?!ni)|IPv|NAT|AS1|RFC)/i.test(range) ? 'an' : 'a'} ${range}`;
}
