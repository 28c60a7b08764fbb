/**
 * A JSON request body read up to a size bound (docs/jobs.md "Endpoints": a submission is at most 2 MiB).
 * A body the client stops sending (its connection closed, or reset) is a 400 the client will not read,
 * never an error of the service.
 */
export type BodyOutcome = { ok: true; value: unknown } | { ok: false; status: number; error: string };

export async function readJsonBody(request: Request, maxBytes: number): Promise<BodyOutcome> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json')
    return { ok: false, status: 415, error: 'send the job as a JSON body (Content-Type: application/json)' };
  const tooLarge = { ok: false as const, status: 413, error: `the body is too large: at most ${maxBytes} bytes` };
  if (Number(request.headers.get('content-length') ?? 0) > maxBytes) return tooLarge;
  if (!request.body) return { ok: false, status: 400, error: 'the body is empty: send the job as JSON' };
  const chunks: Uint8Array[] = [];
  let seen = 0;
  const reader = request.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      seen += value.byteLength;
      if (seen > maxBytes) return tooLarge;
      chunks.push(value);
    }
  } catch {
    return { ok: false, status: 400, error: 'the body did not arrive whole: the client stopped sending it' };
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch (e) {
    return { ok: false, status: 400, error: `the body is not JSON: ${(e as Error).message.slice(0, 200)}` };
  }
}
