/** An answer in parts ends its request once, when its last part has been made or its client went away. */
import { describe, expect, it } from 'vitest';
import { afterLastPart, isIncremental } from '../../../src/platform/incremental-response.js';

function parts(): { response: Response; push(text: string): void; close(): void; cancelled: () => boolean } {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c;
    },
    cancel: () => {
      cancelled = true;
    },
  });
  return {
    response: new Response(body, { headers: { 'content-type': 'multipart/mixed; boundary="-"' } }),
    push: (text) => controller.enqueue(new TextEncoder().encode(text)),
    close: () => controller.close(),
    cancelled: () => cancelled,
  };
}

describe('afterLastPart', () => {
  it('ends after the last part is made, even when nobody has read the body yet', async () => {
    const source = parts();
    expect(isIncremental(source.response)).toBe(true);
    let ended = 0;
    const wrapped = afterLastPart(source.response, () => ended++);
    source.push('first');
    await new Promise((r) => setTimeout(r, 10));
    expect(ended).toBe(0);
    source.push('second');
    source.close();
    await expect.poll(() => ended).toBe(1);
    expect(await wrapped.text()).toBe('firstsecond');
    expect(ended).toBe(1);
  });

  it('ends, and cancels the execution, when the client goes away', async () => {
    const source = parts();
    let ended = 0;
    const wrapped = afterLastPart(source.response, () => ended++);
    await wrapped.body!.cancel('client gone');
    expect(ended).toBe(1);
    expect(source.cancelled()).toBe(true);
  });

  it('is only for answers in parts', () => {
    expect(isIncremental(Response.json({}))).toBe(false);
  });
});
