/**
 * The DNSSEC chain as a picture (after DNSViz, simpler): one box per zone cut from the trust anchor down,
 * each zone's keys inside its box, the parent's DS records in the band above it with a line to the key each
 * names, states coloured (and written: colour never carries a state alone), and the link that breaks drawn
 * in red with its code. Inline SVG made with DOM calls; zone names, key tags and codes are text nodes.
 * A table under it says the same for readers that do not see the picture.
 */
import { dnssecChainFindings } from '../../findings.js';
import { type Child, type Data, h, isObject, list, s, text } from '../dom.js';
import { badge, findingsList, rawAnswer, table } from './common.js';

const WIDTH = 720;
const MARGIN = 16;
const PILL_W = 158;
const PILL_H = 24;
const GAP = 10;
const HEADER_H = 30;
const BAND_H = 58;
const PER_ROW = Math.floor((WIDTH - 2 * MARGIN - 2 * GAP + GAP) / (PILL_W + GAP));

type Tone = 'good' | 'bad' | 'warn' | 'neutral';

const zoneTone = (status: string): Tone =>
  status === 'secure' ? 'good' : status === 'bogus' ? 'bad' : status === 'indeterminate' ? 'warn' : 'neutral';
const dsTone = (status: string): Tone => (status === 'valid' ? 'good' : status === 'unsupported' ? 'neutral' : 'bad');
const keyTone = (status: string): Tone => (status === 'unused' ? 'neutral' : 'good');
const signatureTone = (status: string): Tone =>
  status === 'valid' ? 'good' : status === 'unsupported-algorithm' ? 'neutral' : 'bad';

/** At most `max` characters, the rest as "…" (the whole name stays in the box's <title>). */
const clip = (value: string, max: number) => (value.length > max ? `${value.slice(0, max - 1)}…` : value);

interface Placed {
  readonly x: number;
  readonly y: number;
}

function pill(x: number, y: number, label: string, tone: Tone, extraClass = ''): SVGGElement {
  return s(
    'g',
    { class: `pill tone-${tone} ${extraClass}`.trim() },
    s('rect', { x, y, width: PILL_W, height: PILL_H, rx: 6 }),
    s(
      'text',
      { x: x + PILL_W / 2, y: y + PILL_H / 2 + 1, 'text-anchor': 'middle', 'dominant-baseline': 'middle' },
      clip(label, 24),
    ),
  );
}

const rowsOf = (count: number) => Math.max(1, Math.ceil(count / PER_ROW));
const pillAt = (index: number, top: number): Placed => ({
  x: MARGIN + GAP + (index % PER_ROW) * (PILL_W + GAP),
  y: top + Math.floor(index / PER_ROW) * (PILL_H + GAP),
});

const keyLabel = (key: Data) =>
  `${key.sep === true ? 'KSK' : 'ZSK'} ${text(key.keyTag)} · alg ${text(key.algorithm)}${key.revoked === true ? ' · revoked' : ''}`;

/** The picture of a chain answer. */
export function chainPicture(chain: Data): SVGSVGElement {
  const links = list(chain.chain);
  const broken = isObject(chain.brokenLink) ? chain.brokenLink : null;
  const parts: Child[] = [];
  let y = MARGIN;
  for (const [index, link] of links.entries()) {
    const zone = text(link.zone);
    const ds = list(link.ds);
    const keys = list(link.dnskeys);
    const isBroken = broken !== null && text(broken.zone) === zone;
    // the band above the zone: the parent's DS records (the trust anchors above the first zone)
    const bandTop = y;
    parts.push(
      s(
        'text',
        { x: MARGIN, y: bandTop + 12, class: 'band-label' },
        index === 0 ? 'trust anchor' : `DS at ${text(links[index - 1]?.zone)}`,
      ),
    );
    const dsPlaced = ds.map((record, i) => {
      const at = pillAt(i, bandTop + 18);
      parts.push(
        pill(
          at.x,
          at.y,
          `DS ${text(record.keyTag)} · alg ${text(record.algorithm)} · d${text(record.digestType)}`,
          dsTone(text(record.status)),
        ),
      );
      return at;
    });
    if (ds.length === 0) {
      parts.push(
        s('text', { x: MARGIN + GAP, y: bandTop + 36, class: 'band-none' }, 'no DS: the chain ends above this zone'),
      );
    }
    y = bandTop + 18 + rowsOf(ds.length) * (PILL_H + GAP) + (BAND_H - 18 - PILL_H - GAP);
    // the zone's box and its keys
    const boxTop = y;
    const keyRows = rowsOf(keys.length);
    const boxH = HEADER_H + keyRows * (PILL_H + GAP) + GAP;
    const status = text(link.status);
    const signatures = list(link.dnskeySignatures);
    const signedBy = signatures.map((sig) => `${text(sig.keyTag)} ${text(sig.status)}`).join(', ');
    parts.push(
      s(
        'g',
        { class: `zone tone-${zoneTone(status)}${isBroken ? ' broken' : ''}`, 'data-zone': zone },
        s('title', {}, `${zone}: ${status}`),
        s('rect', { x: MARGIN, y: boxTop, width: WIDTH - 2 * MARGIN, height: boxH, rx: 10 }),
        s('text', { x: MARGIN + GAP, y: boxTop + 20, class: 'zone-name' }, clip(zone === '.' ? '. (root)' : zone, 44)),
        s(
          'text',
          { x: WIDTH - MARGIN - GAP, y: boxTop + 20, 'text-anchor': 'end', class: 'zone-status' },
          `${status}${signedBy ? ` · DNSKEY signed by ${clip(signedBy, 40)}` : ''}`,
        ),
      ),
    );
    const keyPlaced = new Map<string, Placed>();
    keys.forEach((key, i) => {
      const at = pillAt(i, boxTop + HEADER_H);
      const signs = signatures.filter((sig) => text(sig.keyTag) === text(key.keyTag));
      const tone: Tone = signs.some((sig) => signatureTone(text(sig.status)) === 'bad')
        ? 'bad'
        : keyTone(text(key.status));
      parts.push(pill(at.x, at.y, keyLabel(key), tone, 'key'));
      if (!keyPlaced.has(text(key.keyTag))) keyPlaced.set(text(key.keyTag), at);
    });
    if (keys.length === 0) {
      parts.push(s('text', { x: MARGIN + GAP, y: boxTop + HEADER_H + 16, class: 'band-none' }, 'no DNSKEY'));
    }
    // DS → DNSKEY: a line from each DS to the key of its tag (dashed and red when it does not verify)
    ds.forEach((record, i) => {
      const from = dsPlaced[i]!;
      const to = keyPlaced.get(text(record.keyTag));
      const tone = dsTone(text(record.status));
      const x1 = from.x + PILL_W / 2;
      const y1 = from.y + PILL_H;
      const x2 = to ? to.x + PILL_W / 2 : x1;
      const y2 = to ? to.y : boxTop;
      parts.push(
        s('line', {
          x1,
          y1,
          x2,
          y2,
          class: `link tone-${tone}${isBroken ? ' broken' : ''}`,
          'marker-end': 'url(#arrow)',
        }),
      );
    });
    if (isBroken && broken) {
      parts.push(
        s(
          'g',
          { class: 'break-mark' },
          s('text', { x: WIDTH - MARGIN - GAP, y: boxTop - 8, 'text-anchor': 'end' }, `✗ broken: ${text(broken.code)}`),
        ),
      );
    }
    y = boxTop + boxH + GAP;
  }
  // the answer at the end of the chain
  const answer = isObject(chain.answer) ? chain.answer : null;
  if (answer) {
    const status = text(answer.status);
    const records = Array.isArray(answer.records) ? answer.records.length : 0;
    parts.push(
      s(
        'g',
        { class: `answer tone-${zoneTone(status)}` },
        s('rect', { x: MARGIN, y, width: WIDTH - 2 * MARGIN, height: 34, rx: 10 }),
        s(
          'text',
          { x: MARGIN + GAP, y: y + 21 },
          clip(
            `${text(answer.name)} ${text(answer.type)}: ${status}, ${text(answer.rcode) || 'no answer'}, ${records} record${records === 1 ? '' : 's'}`,
            90,
          ),
        ),
      ),
    );
    y += 34 + GAP;
  }
  const height = y + MARGIN - GAP;
  const title = `DNSSEC chain of ${text(chain.domain)} ${text(chain.type)}: ${text(chain.status)}${broken ? `, broken at ${text(broken.zone)} (${text(broken.code)})` : ''}`;
  return s(
    'svg',
    {
      class: 'chain',
      viewBox: `0 0 ${WIDTH} ${height}`,
      width: WIDTH,
      height,
      role: 'img',
      'aria-label': title,
      preserveAspectRatio: 'xMidYMin meet',
      focusable: 'false',
    },
    s('title', {}, title),
    s(
      'defs',
      {},
      s(
        'marker',
        { id: 'arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto' },
        s('path', { d: 'M0 0L10 5L0 10z', class: 'arrow-head' }),
      ),
    ),
    parts,
  );
}

export function renderDnssec(chain: Data): Child[] {
  const status = text(chain.status);
  const broken = isObject(chain.brokenLink) ? chain.brokenLink : null;
  const links = list(chain.chain);
  return [
    h(
      'p',
      { class: 'lead' },
      badge(
        status,
        status === 'bogus'
          ? 'critical'
          : status === 'indeterminate'
            ? 'warning'
            : status === 'secure'
              ? 'ok'
              : 'neutral',
      ),
      ' ',
      broken
        ? `The chain breaks at ${text(broken.zone)}: ${text(broken.code)}.`
        : status === 'secure'
          ? 'Every link from the trust anchor verifies.'
          : status === 'insecure'
            ? 'An unsigned delegation ends the chain: answers are not protected by DNSSEC.'
            : 'The chain could not be followed to the end.',
    ),
    h(
      'figure',
      { class: 'chain-figure' },
      chainPicture(chain),
      h(
        'figcaption',
        {},
        `${text(chain.domain)} ${text(chain.type)}, asked through the ${text(chain.source)}, ${text(chain.questions)} questions`,
      ),
    ),
    table(
      'Zones of the chain',
      ['Zone', 'Status', 'DS', 'DNSKEY', 'DNSKEY signatures'],
      links.map((link) => [
        text(link.zone),
        text(link.status),
        list(link.ds)
          .map((d) => `${text(d.keyTag)}/${text(d.algorithm)}/${text(d.digestType)} ${text(d.status)}`)
          .join(', ') || '–',
        list(link.dnskeys)
          .map((k) => `${keyLabel(k)} ${text(k.status)}`)
          .join(', ') || '–',
        list(link.dnskeySignatures)
          .map((sig) => `${text(sig.keyTag)} ${text(sig.status)}`)
          .join(', ') || '–',
      ]),
      { rowHeader: true },
    ),
    findingsList(dnssecChainFindings(chain)),
    rawAnswer('dnssec-chain', chain),
  ];
}
