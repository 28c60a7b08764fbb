/**
 * The SVG Tiny Portable/Secure profile a BIMI logo must follow (draft-brand-indicators-for-message-
 * identification, "SVG Tiny PS"), checked with htmlparser2 in XML mode. Pure: the file's text in, the
 * violations out. What is checked:
 * - the root element is <svg> with baseProfile="tiny-ps" and version="1.2", and no x= or y=;
 * - a <title> (the brand name, for accessibility);
 * - no <script>, no animation (<animate>, <animateMotion>, <animateTransform>, <animateColor>, <set>);
 * - no external reference: no <image> or <foreignObject>, and every href / xlink:href a fragment ("#id").
 */
import { Parser } from 'htmlparser2';

const ANIMATION = new Set(['animate', 'animatemotion', 'animatetransform', 'animatecolor', 'set']);
const EMBEDDING = new Set(['image', 'foreignobject']);

export interface SvgProfileResult {
  /** the file declares baseProfile="tiny-ps" and has none of the forbidden content */
  tinyPs: boolean;
  errors: string[];
}

export function checkSvgTinyPs(text: string): SvgProfileResult {
  const errors = new Set<string>();
  let root: { name: string; attributes: Record<string, string> } | null = null;
  let hasTitle = false;
  let parseError: string | null = null;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const tag = name.toLowerCase();
        root ??= { name: tag, attributes };
        if (tag === 'title') hasTitle = true;
        if (tag === 'script') errors.add('the file has a <script> element');
        if (ANIMATION.has(tag)) errors.add(`the file has an animation element (<${name}>)`);
        if (EMBEDDING.has(tag)) errors.add(`the file embeds external content (<${name}>)`);
        for (const [attribute, value] of Object.entries(attributes)) {
          const key = attribute.toLowerCase();
          if ((key === 'href' || key === 'xlink:href') && !value.trim().startsWith('#'))
            errors.add(`the file references "${value.slice(0, 80)}" outside itself (${attribute})`);
          if (key.startsWith('on')) errors.add(`the file has an event handler attribute (${attribute})`);
        }
      },
      onerror(error) {
        parseError = error.message;
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(text);
  parser.end();
  const top = root as { name: string; attributes: Record<string, string> } | null;
  const ordered: string[] = [];
  if (parseError !== null) ordered.push(`the file is not well-formed XML (${parseError})`);
  if (top === null || top.name !== 'svg') ordered.push('the root element is not <svg>');
  else {
    if (top.attributes.baseProfile !== 'tiny-ps')
      ordered.push('the <svg> element does not declare baseProfile="tiny-ps"');
    if (top.attributes.version !== '1.2') ordered.push('the <svg> element does not declare version="1.2"');
    if ('x' in top.attributes || 'y' in top.attributes) ordered.push('the <svg> element has x= or y= attributes');
  }
  if (!hasTitle) ordered.push('the file has no <title> (the brand name)');
  return { tinyPs: ordered.length === 0 && errors.size === 0, errors: [...ordered, ...errors] };
}
