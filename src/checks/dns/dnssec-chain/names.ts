/**
 * DNS names as DNSSEC compares and signs them: the canonical wire form (RFC 4034 §6.2: lower case,
 * uncompressed), the canonical order (RFC 4034 §6.1) and label arithmetic. A name is written as the
 * probe reports it: without the trailing dot, "." (or "") for the root.
 */

/** The labels of a name, leftmost first, lower case; [] for the root. */
export function labelsOf(name: string): string[] {
  const trimmed = name.endsWith('.') ? name.slice(0, -1) : name;
  if (trimmed === '') return [];
  return splitLabels(trimmed).map((label) => label.toLowerCase());
}

/** Splits on unescaped dots and resolves the presentation escapes \X and \DDD (RFC 1035 §5.1). */
function splitLabels(name: string): string[] {
  const labels: string[] = [];
  let current = '';
  for (let i = 0; i < name.length; i++) {
    const c = name[i]!;
    if (c === '\\') {
      const digits = name.slice(i + 1, i + 4);
      if (/^\d{3}$/.test(digits)) {
        current += String.fromCharCode(Number(digits));
        i += 3;
      } else {
        current += name[i + 1] ?? '';
        i += 1;
      }
    } else if (c === '.') {
      labels.push(current);
      current = '';
    } else {
      current += c;
    }
  }
  labels.push(current);
  return labels;
}

/** Lower case without the trailing dot, "." for the root: the key every comparison here uses. */
export function normalName(name: string): string {
  const labels = labelsOf(name);
  return labels.length === 0 ? '.' : labels.join('.');
}

/** RFC 4034 §6.2: the uncompressed wire form with every letter in lower case. */
export function canonicalNameWire(name: string): Buffer {
  return nameWire(labelsOf(name));
}

/** The wire form of a name exactly as written (case kept): for fields RFC 6840 §5.1 leaves alone. */
export function nameWireAsWritten(name: string): Buffer {
  const trimmed = name.endsWith('.') ? name.slice(0, -1) : name;
  return nameWire(trimmed === '' ? [] : splitLabels(trimmed));
}

function nameWire(labels: readonly string[]): Buffer {
  const parts: Buffer[] = [];
  for (const label of labels) {
    const bytes = Buffer.from(label, 'latin1');
    parts.push(Buffer.from([bytes.length]), bytes);
  }
  parts.push(Buffer.from([0]));
  return Buffer.concat(parts);
}

/**
 * RFC 4034 §6.1: names sort by their labels from the rightmost, each label compared as lower-case
 * octets, a name sorting before every name below it.
 */
export function compareCanonical(a: string, b: string): number {
  const left = labelsOf(a).reverse();
  const right = labelsOf(b).reverse();
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const order = Buffer.compare(Buffer.from(left[i]!, 'latin1'), Buffer.from(right[i]!, 'latin1'));
    if (order !== 0) return order;
  }
  return left.length - right.length;
}

/** `name` is `zone` or below it. */
export function isAtOrBelow(name: string, zone: string): boolean {
  const inner = labelsOf(name);
  const outer = labelsOf(zone);
  if (outer.length > inner.length) return false;
  return outer.every((label, i) => inner[inner.length - outer.length + i] === label);
}

export function sameName(a: string, b: string): boolean {
  return normalName(a) === normalName(b);
}

/** The name with its leftmost `count` labels removed. */
export function ancestor(name: string, keepLabels: number): string {
  const labels = labelsOf(name);
  const kept = labels.slice(labels.length - keepLabels);
  return kept.length === 0 ? '.' : kept.join('.');
}

/** "." then every name between the root and `name`, `name` last. */
export function namesFromRoot(name: string): string[] {
  const count = labelsOf(name).length;
  const names: string[] = [];
  for (let keep = 0; keep <= count; keep++) names.push(ancestor(name, keep));
  return names;
}

export function labelCount(name: string): number {
  return labelsOf(name).length;
}

/** "*.<name>" (the root's wildcard is "*"). */
export function wildcardOf(name: string): string {
  const normal = normalName(name);
  return normal === '.' ? '*' : `*.${normal}`;
}
