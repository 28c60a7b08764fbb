/**
 * The per-request loader of whole TLS ratings (src/checks/tls-http/tls-rating/rating-loader.ts): one rating per (host, port,
 * address), whoever asks; another question is another rating; a failure is shared as an answer is.
 */
import { describe, expect, it } from 'vitest';
import { createRatingLoaders, tlsRatingQuestionKey } from './rating-loader.js';

const question = { host: 'www.example.org', port: 443, ip: '192.0.2.1', light: false };

describe('the TLS rating loader', () => {
  it('rates a question once: a second caller, even while the first runs, gets the same answer', async () => {
    const loaders = createRatingLoaders();
    let ratings = 0;
    const rate = async () => ({ rating: ++ratings });
    const [first, second] = await Promise.all([
      loaders.tlsRating(question, rate),
      loaders.tlsRating({ ...question }, rate),
    ]);
    const later = await loaders.tlsRating(question, rate);
    expect(ratings).toBe(1);
    expect(second).toBe(first);
    expect(later).toBe(first);
  });

  it('rates each (host, port, address, light or full) on its own', async () => {
    const loaders = createRatingLoaders();
    const asked: string[] = [];
    const rate = (q: typeof question) => () => {
      asked.push(tlsRatingQuestionKey(q));
      return Promise.resolve(q.port);
    };
    for (const q of [
      question,
      { ...question, port: 8443 },
      { ...question, ip: '192.0.2.2' },
      { ...question, host: 'example.org' },
      { ...question, light: true },
    ]) {
      await loaders.tlsRating(q, rate(q));
    }
    expect(asked).toEqual([
      'www.example.org|443|192.0.2.1|full',
      'www.example.org|8443|192.0.2.1|full',
      'www.example.org|443|192.0.2.2|full',
      'example.org|443|192.0.2.1|full',
      'www.example.org|443|192.0.2.1|light',
    ]);
  });

  it('shares a failure too: the server is not asked again within the request', async () => {
    const loaders = createRatingLoaders();
    let ratings = 0;
    const rate = async () => {
      ratings++;
      throw new Error('connection refused');
    };
    await expect(loaders.tlsRating(question, rate)).rejects.toThrow('connection refused');
    await expect(loaders.tlsRating(question, rate)).rejects.toThrow('connection refused');
    expect(ratings).toBe(1);
  });

  it('is per request: a new set of loaders rates again', async () => {
    let ratings = 0;
    const rate = async () => ++ratings;
    await createRatingLoaders().tlsRating(question, rate);
    await createRatingLoaders().tlsRating(question, rate);
    expect(ratings).toBe(2);
  });
});
