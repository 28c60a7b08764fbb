/** open-graph-checker: the awaiting part, one guarded fetch through the check context (the head of the document). */
import type { CheckContext } from '../../../loaders/context.js';
import { openGraphData, type OpenGraphCheckerData } from './open-graph.js';
export interface OpenGraphCheckerResult extends OpenGraphCheckerData {
  /**
   * The read stopped at http.maxBodyBytes before the head ended: tags after that point
   * were not seen. False when the head ended (or the document did) within the bound.
   */
  bodyCapped: boolean;
}

/** open-graph-checker (api-v1.md rule 16): the og and twitter tags of the final document's head. */
export async function runOpenGraphChecker(ctx: CheckContext, url: URL): Promise<OpenGraphCheckerResult> {
  const result = await ctx.fetch(url, { readBody: 'head' });
  return { ...openGraphData(result), bodyCapped: result.bodyEnd === 'cap' };
}
