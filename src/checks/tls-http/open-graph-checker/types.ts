/** open-graph-checker: its object types; the check is ./check.ts. */
import type { OpenGraphTags, TwitterCardTags } from './open-graph.js';
import type { OpenGraphCheckerResult } from './run.js';
import { builder } from '../../../graphql/builder.js';
export const OpenGraphTagsRef = builder.objectRef<OpenGraphTags>('OpenGraphTags').implement({
  description:
    'Open Graph tags (https://ogp.me) of the document head, from <meta property="og:…"> (name= accepted too); the first non-empty one of each wins; null when absent. HTML entities are decoded.',
  fields: (t) => ({
    title: t.exposeString('title', { nullable: true }),
    description: t.exposeString('description', { nullable: true }),
    image: t.exposeString('image', {
      nullable: true,
      description: 'og:image (or og:image:url), resolved against the final URL.',
    }),
    url: t.exposeString('url', { nullable: true, description: 'Resolved against the final URL.' }),
    type: t.exposeString('type', { nullable: true }),
    site_name: t.exposeString('site_name', { nullable: true }),
  }),
});

export const TwitterCardTagsRef = builder.objectRef<TwitterCardTags>('TwitterCardTags').implement({
  description:
    'Twitter Card tags of the document head, from <meta name="twitter:…"> (property= accepted too); null when absent.',
  fields: (t) => ({
    card: t.exposeString('card', { nullable: true }),
    title: t.exposeString('title', { nullable: true }),
    description: t.exposeString('description', { nullable: true }),
    image: t.exposeString('image', {
      nullable: true,
      description: 'twitter:image (or twitter:image:src), resolved against the final URL.',
    }),
    site: t.exposeString('site', { nullable: true }),
  }),
});

export const OpenGraphChecker = builder.objectRef<OpenGraphCheckerResult>('OpenGraphChecker').implement({
  fields: (t) => ({
    requestedUrl: t.exposeString('requestedUrl'),
    finalUrl: t.exposeString('finalUrl', { description: 'The URL of the final response, after redirects.' }),
    statusCode: t.exposeInt('statusCode'),
    fetched: t.exposeBoolean('fetched', {
      description:
        'An HTML document (text/html, application/xhtml+xml or untyped) was read, whatever its status; false for other media types (the tags are then null).',
    }),
    title: t.exposeString('title', { description: 'The first <title>, white space collapsed; "" when there is none.' }),
    og: t.field({ type: OpenGraphTagsRef, resolve: (r) => r.og }),
    twitter: t.field({ type: TwitterCardTagsRef, resolve: (r) => r.twitter }),
    bodyCapped: t.exposeBoolean('bodyCapped', {
      description:
        'Reading stopped at http.maxBodyBytes before the head ended, so tags after that point were not seen.',
    }),
  }),
});
