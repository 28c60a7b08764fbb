/**
 * Authentication and credits for every operation, REST or GraphQL (decisions §1, §10).
 * Runs at execution time, after parsing and validation (a malformed query costs nothing): it prices
 * the operation as it will run (an operation whose variables do not coerce is refused with 400 before
 * anything runs), requires a key when anything but introspection is selected, charges atomically, and
 * gives back the price of fields whose input error or refused target was decided before anything was
 * sent upstream. A 400 met later (a redirect hop to a refused address, a re-check of the connected
 * peer) is charged: the work was done.
 */
import { GraphQLError, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { NetdiagError } from '../../errors.js';
import { rateLimitHeaders, type ChargeOutcome } from '../../platform/quota.js';
import type { RequestContext } from '../../graphql/context.js';
import { isRefusedVariables, priceOperation } from '../../graphql/pricing.js';

function requestError(code: string, status: number, message: string, headers?: Record<string, string>): GraphQLError {
  return new GraphQLError(message, { extensions: { code, status, http: { status, ...(headers ? { headers } : {}) } } });
}

/** An error decided before anything was sent upstream: its price is given back (decisions §1). */
export function isUncharged(error: GraphQLError): boolean {
  const original = error.originalError;
  return (
    original instanceof NetdiagError &&
    original.beforeUpstream &&
    (original.code === 'BAD_INPUT' || original.code === 'TARGET_REFUSED')
  );
}

/** One part of an answer in parts: the first carries `errors`, the later ones `incremental` results. */
interface IncrementalPart {
  readonly errors?: readonly GraphQLError[];
  readonly incremental?: readonly { readonly errors?: readonly GraphQLError[] }[];
}

export function useCredits(): Plugin<RequestContext> {
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const ctx = args.contextValue as RequestContext;
      const price = priceOperation(args.schema, args.document, args.operationName, args.variableValues, ctx);
      if (isRefusedVariables(price)) {
        // What the executor would answer, as a 400 before anything runs or is charged.
        setResultAndStopExecution({
          errors: price.errors.map((e) => requestError('BAD_INPUT', 400, e.message)),
        });
        return undefined;
      }
      if (!price.needsKey) return undefined;
      // what the operation costs bounds the connections its checks open (connection-budget.ts), paid
      // here or with its job
      ctx.scope.priceIs(price.total);
      // Paid for elsewhere: a job item with its job, which gives back what its items do not use
      // (docs/contract/jobs.md); a report run without a key, from its address's budget (src/app.ts).
      if (ctx.prepaid) return undefined;
      if (!ctx.auth.ok) {
        setResultAndStopExecution({ errors: [requestError('UNAUTHENTICATED', 401, ctx.auth.error.message)] });
        return undefined;
      }
      const keyId = ctx.auth.identity.id;
      const { quota, config } = ctx.services;
      const policy = { credits: config.quota.credits, windowSeconds: config.quota.windowSeconds };
      let outcome: ChargeOutcome;
      try {
        outcome = await quota.charge(keyId, price.total);
      } catch (e) {
        // The ledger could not be asked (Redis down: UnavailableError, 503). Fail closed: nothing runs.
        if (!(e instanceof NetdiagError)) throw e;
        setResultAndStopExecution({ errors: [requestError(e.code, e.status, e.message)] });
        return undefined;
      }
      const headers = rateLimitHeaders(policy, outcome);
      Object.assign(ctx.responseHeaders, headers);
      if (!outcome.allowed) {
        setResultAndStopExecution({
          errors: [
            requestError(
              'QUOTA_EXCEEDED',
              429,
              `credit allowance exhausted: this request costs ${price.total} credits and ${Math.max(0, outcome.remaining)} of ${policy.credits} are left in the rolling ${policy.windowSeconds / 3600} h window; retry in ${outcome.retryAfterSeconds} s`,
              headers,
            ),
          ],
        });
        return undefined;
      }
      for (const f of price.fields) ctx.services.metrics.creditsCharged(f.tool, f.cost);
      // Only a result with errors may give credits back: the usual answer leaves without a promise to wait for.
      const giveBack = async (chargeId: string, failed: Set<string>, refund: number) => {
        try {
          await quota.refund(keyId, chargeId, refund);
        } catch (e) {
          // The check has run; a refund the ledger could not take leaves the caller charged (never the reverse).
          ctx.services.logger.error('refund_failed', { keyId, credits: refund, message: (e as Error).message });
          return;
        }
        for (const f of price.fields)
          if (failed.has(f.responseKey)) ctx.services.metrics.creditsRefunded(f.tool, f.cost);
        Object.assign(
          ctx.responseHeaders,
          rateLimitHeaders(policy, { ...outcome, remaining: outcome.remaining + refund }),
        );
      };
      const refundOf = (failed: Set<string>) =>
        price.fields.filter((f) => failed.has(f.responseKey)).reduce((s, f) => s + f.cost, 0);
      return {
        onExecuteDone({ result }: { result: ExecutionResult | AsyncIterable<ExecutionResult> }) {
          const chargeId = outcome.chargeId;
          if (!chargeId) return;
          if (Symbol.asyncIterator in result) {
            // An answer in parts (@defer): a deferred field's errors come in its part, with their whole path;
            // what they give back is given once the last part is made (the headers have left by then).
            const failed = new Set<string>();
            return {
              onNext({ result: part }: { result: IncrementalPart }) {
                const errors = [...(part.errors ?? []), ...(part.incremental ?? []).flatMap((i) => i.errors ?? [])];
                for (const e of errors) if (isUncharged(e)) failed.add(String(e.path?.[0] ?? ''));
              },
              onEnd() {
                const refund = refundOf(failed);
                if (refund > 0) void giveBack(chargeId, failed, refund);
              },
            };
          }
          if (!result.errors?.length) return;
          const failed = new Set(result.errors.filter(isUncharged).map((e) => String(e.path?.[0] ?? '')));
          const refund = refundOf(failed);
          return refund === 0 ? undefined : giveBack(chargeId, failed, refund);
        },
      };
    },
  };
}
