/**
 * TXT-record plumbing shared by the SPF, DKIM and DMARC checks: the injected lookup they run
 * against, and the tag-list syntax of DKIM (RFC 6376 §3.2) that DMARC reuses (RFC 7489 §6.4).
 */

/** One TXT question's result: each record's strings already joined (RFC 7208 §3.3). */
export interface TxtAnswer {
  rcode: 'NOERROR' | 'NXDOMAIN';
  records: readonly string[];
}

/** Asks one question; throws ProbeError (src/probes/errors.ts) when there is no answer. */
export type TxtLookup = (name: string) => Promise<TxtAnswer>;

export interface Tag {
  name: string;
  value: string;
}

export interface TagList {
  /** tags in record order; a repeated tag is kept only at its first occurrence */
  tags: Tag[];
  /** names that occur more than once (the whole list is then invalid) */
  duplicates: string[];
  errors: string[];
}

const TAG_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;
// VALCHAR (%x21-3A / %x3C-7E) with white space inside a value (RFC 6376 §3.2 tag-value).
const TAG_VALUE = /^[\x21-\x3a\x3c-\x7e \t\r\n]*$/;

/**
 * RFC 6376 §3.2: `name = value` pairs separated by ";", white space around names, "=" and values
 * ignored, a trailing ";" allowed. A repeated tag makes the whole list invalid (reported as an
 * error; the first value is kept). Empty specs (";;") are skipped. `foldNames` lower-cases names
 * (DMARC's ABNF literals are case-insensitive; DKIM's tag names are not).
 */
export function parseTagList(text: string, options: { foldNames?: boolean } = {}): TagList {
  const tags: Tag[] = [];
  const errors: string[] = [];
  const duplicates: string[] = [];
  const seen = new Set<string>();
  for (const spec of text.split(';')) {
    if (spec.trim() === '') continue;
    const eq = spec.indexOf('=');
    if (eq < 0) {
      errors.push(`"${clip(spec.trim())}" is not a tag=value pair`);
      continue;
    }
    const rawName = spec.slice(0, eq).trim();
    const value = spec.slice(eq + 1).trim();
    if (!TAG_NAME.test(rawName)) {
      errors.push(`"${clip(rawName)}" is not a valid tag name`);
      continue;
    }
    const name = options.foldNames ? rawName.toLowerCase() : rawName;
    if (!TAG_VALUE.test(value)) errors.push(`the value of tag "${name}" contains characters a tag value cannot hold`);
    if (seen.has(name)) {
      if (!duplicates.includes(name)) duplicates.push(name);
      errors.push(`tag "${name}" appears more than once, which makes the record invalid (RFC 6376 §3.2)`);
      continue;
    }
    seen.add(name);
    tags.push({ name, value });
  }
  return { tags, duplicates, errors };
}

export function tagsObject(list: TagList): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { name, value } of list.tags) out[name] = value;
  return out;
}

/** A tag value that lists several items separated by colons (DKIM h=, s=, t=; DMARC fo=, rf=). */
export function colonList(value: string): string[] {
  return value
    .split(':')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

function clip(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}
