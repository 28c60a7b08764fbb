/**
 * The per-request budget of DNS questions (the limit is fan-out-limits.ts's). A question is charged
 * once, when the request first needs it: asked again within the request it is the per-request
 * loader's answer, free. It is charged whether the answer then comes from upstream, from the
 * cross-request cache or from another request's identical question in flight, so that what a check
 * reports never depends on what other requests asked before it. Past the budget a question fails
 * with FAN_OUT_LIMIT: never dropped in silence, so the part that needed it says why it stopped.
 */
import { NetdiagError } from '../errors.js';

/** A request asked more distinct DNS questions than one request may (502: the check could not be done). */
export class FanOutLimitError extends NetdiagError {
  readonly limit: number;
  constructor(limit: number, question: string) {
    super(
      'FAN_OUT_LIMIT',
      502,
      `${question} was not asked: this request has asked the ${limit} DNS questions one request may ask (the records it follows fan out too far)`,
    );
    this.limit = limit;
  }
}

export interface QuestionBudget {
  /** charges a question the first time its key is seen; throws FanOutLimitError once the budget is spent */
  charge(key: string, question: string): void;
  /** distinct questions charged so far */
  readonly charged: number;
}

export function createQuestionBudget(limit: number): QuestionBudget {
  const seen = new Set<string>();
  return {
    charge(key, question) {
      if (seen.has(key)) return;
      if (seen.size >= limit) throw new FanOutLimitError(limit, question);
      seen.add(key);
    },
    get charged() {
      return seen.size;
    },
  };
}
