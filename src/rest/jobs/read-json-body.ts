/**
 * A JSON request body read up to a size bound (docs/jobs.md "Endpoints": a submission is at most 2 MiB).
 * A body the client stops sending (its connection closed, or reset) is a 400 the client will not read,
 * never an error of the service.
 *
 * Before it is parsed, its structure is bounded: no object with more than `maxMembers` members, no nesting
 * deeper than `maxDepth`. Parsing an object of a hundred thousand members, and then listing them, takes
 * the event loop far longer than reading the bytes; the scan that refuses it only jumps from one
 * structural character to the next.
 */
export type BodyOutcome = { ok: true; value: unknown } | { ok: false; status: number; error: string };

export interface JsonShapeBounds {
  readonly maxMembers: number;
  readonly maxDepth: number;
}

/** what is wrong with the structure of `text` within `bounds`, or null (invalid JSON is left to the parser) */
export function structureFault(text: string, bounds: JsonShapeBounds): string | null {
  const members: number[] = []; // per open container: its members so far, -1 for an array
  const structural = /["{}[\]:]/g;
  for (let m = structural.exec(text); m !== null; m = structural.exec(text)) {
    const at = m.index;
    const c = text.charCodeAt(at);
    if (c === 0x22) {
      // a string: on to its closing quote, one not escaped by an odd run of backslashes
      let end = at + 1;
      for (;;) {
        end = text.indexOf('"', end);
        if (end < 0) return null;
        let slashes = 0;
        while (text.charCodeAt(end - 1 - slashes) === 0x5c) slashes++;
        if (slashes % 2 === 0) break;
        end++;
      }
      structural.lastIndex = end + 1;
    } else if (c === 0x7b || c === 0x5b) {
      if (members.length >= bounds.maxDepth) return `it nests deeper than ${bounds.maxDepth} levels`;
      members.push(c === 0x7b ? 0 : -1);
    } else if (c === 0x7d || c === 0x5d) {
      members.pop();
    } else if (++members[members.length - 1]! > bounds.maxMembers) {
      return `it has an object of more than ${bounds.maxMembers} members`;
    }
  }
  return null;
}

export async function readJsonBody(request: Request, maxBytes: number, bounds: JsonShapeBounds): Promise<BodyOutcome> {
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
  const text = Buffer.concat(chunks).toString('utf8');
  const fault = structureFault(text, bounds);
  if (fault) return { ok: false, status: 400, error: `the body is not a job: ${fault}` };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, status: 400, error: `the body is not JSON: ${(e as Error).message.slice(0, 200)}` };
  }
}
