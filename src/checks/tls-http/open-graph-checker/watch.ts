/** open-graph-checker (docs/contract/api-v1.md): the page's title and its Open Graph and Twitter Card tags. */
import { bool, type JsonObject, memberKey, num, obj, scalar, str } from '../../../watch/projection.js';
import { defineWatch } from '../../../watch/watch-spec.js';

export const openGraphWatch = defineWatch({
  tool: 'open-graph-checker',
  project(data) {
    return {
      statusCode: num(data.statusCode),
      fetched: bool(data.fetched),
      finalUrl: str(data.finalUrl),
      title: str(data.title),
      og: tags(obj(data.og)),
      twitter: tags(obj(data.twitter)),
    };
  },
  ranked: [],
  assess(data) {
    const title = str(data.title);
    return data.fetched === true
      ? {
          status: 'ok',
          grade: null,
          summary: `${str(data.finalUrl) ?? '?'} is titled ${title === null ? '(no title)' : JSON.stringify(title)}.`,
        }
      : { status: 'warning', grade: null, summary: `${str(data.requestedUrl) ?? '?'} could not be read.` };
  },
});

/** A tag object as a set keyed by tag name (its fields are the page's, not ours). */
function tags(values: JsonObject) {
  const out: Record<string, string | number | boolean | null> = {};
  for (const name of Object.keys(values).sort()) out[memberKey(name)] = scalar(values[name]);
  return out;
}
