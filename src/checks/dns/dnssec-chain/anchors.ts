/** Trust anchors from configuration: whole DS records in presentation format (RFC 4034 §5.3). */
import { normalName } from './names.js';
import type { TrustAnchor } from './observations.js';

const DS_TEXT = /^(\S+)\s+(?:\d+\s+)?(?:IN\s+)?DS\s+(\d+)\s+(\d+)\s+(\d+)\s+([0-9A-Fa-f\s]+)$/i;

/** Parses anchors checked by the configuration schema; all of them must name one zone. */
export function parseTrustAnchors(texts: readonly string[]): TrustAnchor[] {
  const anchors = texts.map((text) => {
    const m = DS_TEXT.exec(text.trim());
    if (!m) throw new Error(`not a DS record: ${text}`);
    return {
      owner: normalName(m[1]!),
      ds: {
        keyTag: Number(m[2]),
        algorithm: Number(m[3]),
        digestType: Number(m[4]),
        digest: m[5]!.replace(/\s+/g, '').toUpperCase(),
      },
    };
  });
  const owners = new Set(anchors.map((a) => a.owner));
  if (owners.size > 1)
    throw new Error(`the trust anchors name several zones (${[...owners].join(', ')}); dnssec-chain starts from one`);
  return anchors;
}
