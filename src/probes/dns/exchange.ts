/**
 * What the UDP and TCP legs of one DNS question share: where to send, what to send, what the answer
 * must match, and the question's deadline and AbortSignal.
 */
import type { QuestionFailures } from './failures.js';
import type { Question } from './message.js';

export interface ServerAddress {
  /** an IP literal */
  readonly address: string;
  readonly family: 4 | 6;
  readonly port: number;
}

export interface Exchange {
  readonly server: ServerAddress;
  readonly id: number;
  readonly question: Question;
  /** the encoded query message, without TCP framing */
  readonly query: Buffer;
  /** performance.now() value at which the whole question has run out of time */
  readonly deadline: number;
  readonly signal?: AbortSignal | undefined;
  readonly failures: QuestionFailures;
}
