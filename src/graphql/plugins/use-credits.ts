/**
 * Authentication and credits for every operation, REST or GraphQL (decisions §1, §10).
 * Runs at execution time, after parsing and validation (a malformed query costs nothing): it prices
 * the operation, requires a key when anything but introspection is selected, charges atomically, and
 * gives back the price of fields that ended in an input error or a refused target (400s are not charged).
 */
import { GraphQLError, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { NetdiagError } from '../../errors.js';
import { rateLimitHeaders } from '../../server/quota.js';
import type { RequestContext } from '../context.js';
import { priceOperation } from '../pricing.js';

function requestError(code: string, status: number, message: string, headers?: Record<string, string>): GraphQLError {
  return new GraphQLError(message, { extensions: { code, status, http: { status, ...(headers ? { headers } : {}) } } });
}

function isUncharged(error: GraphQLError): boolean {
  const original = error.originalError;
  return original instanceof NetdiagError && (original.code === 'BAD_INPUT' || original.code === 'TARGET_REFUSED');
}

export function useCredits(): Plugin<RequestContext> {
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const ctx = args.contextValue as RequestContext;
      const price = priceOperation(args.schema, args.document, args.operationName, args.variableValues, ctx);
      if (!price.needsKey) return undefined;
      if (!ctx.auth.ok) {
        setResultAndStopExecution({ errors: [requestError('UNAUTHENTICATED', 401, ctx.auth.error.message)] });
        return undefined;
      }
      const keyId = ctx.auth.identity.id;
      const { quota, config } = ctx.services;
      const policy = { credits: config.quota.credits, windowSeconds: config.quota.windowSeconds };
      {
        const outcome = await quota.charge(keyId, price.total);
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
        return {
          async onExecuteDone({ result }: { result: ExecutionResult | AsyncIterable<ExecutionResult> }) {
            if (!outcome.chargeId || Symbol.asyncIterator in result) return;
            const failed = new Set(
              (result.errors ?? []).filter(isUncharged).map((e) => String(e.path?.[0] ?? '')),
            );
            const refund = price.fields.filter((f) => failed.has(f.responseKey)).reduce((s, f) => s + f.cost, 0);
            if (refund === 0) return;
            await quota.refund(keyId, outcome.chargeId, refund);
            Object.assign(ctx.responseHeaders, rateLimitHeaders(policy, { ...outcome, remaining: outcome.remaining + refund }));
          },
        };
      }
    },
  };
}
