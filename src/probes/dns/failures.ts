/**
 * The ProbeErrors of one DNS question, with messages that name the server, the question and the
 * bound, e.g. "DNS server 127.0.0.1:5353 did not answer A example.com within 2000 ms" — or, for a server
 * given a label, "the service's resolver did not answer …". `upstream` is always the address (logs, metrics).
 */
import { ProbeError } from '../errors.js';

export class QuestionFailures {
  constructor(
    /** "127.0.0.1:53" or "[::1]:53" */
    readonly upstream: string,
    /** "A example.com" */
    readonly question: string,
    readonly timeoutMs: number,
    /** how messages name the server; "DNS server <upstream>" unless the server has a label */
    label?: string,
  ) {
    this.server = label ?? `DNS server ${upstream}`;
  }

  private readonly server: string;

  timeout(): ProbeError {
    return new ProbeError(
      'TIMEOUT',
      this.upstream,
      `${this.server} did not answer ${this.question} within ${this.timeoutMs} ms`,
    );
  }

  /**
   * The bound passed and every packet that came back was unusable (undecodable, another ID, another
   * question): the server answers, but garbage, which is a 502 rather than a 504.
   */
  onlyUnusableAnswers(reason: string): ProbeError {
    return new ProbeError(
      'MALFORMED',
      this.upstream,
      `${this.server} sent no usable answer to ${this.question} within ${this.timeoutMs} ms, only ${reason}`,
    );
  }

  aborted(): ProbeError {
    return new ProbeError(
      'ABORTED',
      this.upstream,
      `DNS question ${this.question} to ${this.server.replace(/^DNS server /, '')} was abandoned`,
    );
  }

  malformed(detail: string): ProbeError {
    return new ProbeError('MALFORMED', this.upstream, `${this.server} answered ${this.question} with ${detail}`);
  }

  /** Non-result rcodes (decisions §8): REFUSED keeps its name, every other one counts as SERVFAIL. */
  rcode(name: string): ProbeError {
    const kind = name === 'REFUSED' ? 'REFUSED' : 'SERVFAIL';
    return new ProbeError(kind, this.upstream, `${this.server} answered ${this.question} with rcode ${name}`);
  }

  /**
   * Socket-level failures. ECONNREFUSED (ICMP port unreachable on a connected UDP socket, RST to a
   * TCP connect) means nothing listens there: kind REFUSED, as for any refused connection (errors.ts).
   * Everything else (no route, reset, closed early) is UNREACHABLE.
   */
  socket(transport: 'udp' | 'tcp', error: NodeJS.ErrnoException): ProbeError {
    if (error.code === 'ECONNREFUSED') {
      return new ProbeError(
        'REFUSED',
        this.upstream,
        transport === 'udp'
          ? `${this.server} is not listening (ICMP port unreachable) for ${this.question}`
          : `${this.server} refused the TCP connection for ${this.question}`,
        { cause: error },
      );
    }
    return new ProbeError(
      'UNREACHABLE',
      this.upstream,
      `${this.server} could not be reached over ${transport.toUpperCase()} for ${this.question} (${error.code ?? error.message})`,
      { cause: error },
    );
  }

  closedEarly(): ProbeError {
    return new ProbeError(
      'UNREACHABLE',
      this.upstream,
      `${this.server} closed the TCP connection before answering ${this.question}`,
    );
  }

  unresolvableServer(error: NodeJS.ErrnoException): ProbeError {
    return new ProbeError(
      'UNREACHABLE',
      this.upstream,
      `the address of ${this.server} could not be found (${error.code ?? error.message})`,
      { cause: error },
    );
  }
}
