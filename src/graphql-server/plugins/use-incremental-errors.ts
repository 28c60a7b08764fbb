/**
 * The errors of deferred parts (`@defer`), masked and coded as every other error is (./../errors.ts):
 * envelop's useMaskedErrors, which yoga's `maskedErrors` option installs, maps a result's `errors` only,
 * while a deferred part's errors travel in `incremental[].errors` — they would reach the client as thrown,
 * an internal message unmasked and no `extensions.code`. Installed after the credits plugin, which reads
 * the errors as thrown to give back what was refused before anything was sent upstream.
 */
import { handleStreamOrSingleExecutionResult, type Plugin } from 'graphql-yoga';

interface IncrementalItem {
  readonly errors?: readonly unknown[];
}

export function useIncrementalErrors(maskError: (error: unknown) => Error): Plugin {
  return {
    onExecute() {
      return {
        onExecuteDone(payload) {
          return handleStreamOrSingleExecutionResult(payload, ({ result, setResult }) => {
            const incremental = (result as { incremental?: readonly IncrementalItem[] }).incremental;
            if (!incremental?.some((item) => item.errors?.length)) return;
            setResult({
              ...result,
              incremental: incremental.map((item) =>
                item.errors?.length ? { ...item, errors: item.errors.map((e) => maskError(e)) } : item,
              ),
            } as typeof result);
          });
        },
      };
    },
  };
}
