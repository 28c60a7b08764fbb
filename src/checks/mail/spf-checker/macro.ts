/**
 * SPF macros in domain-specs (RFC 7208 §7): their syntax, and their expansion where it does not depend
 * on the sender (%{d}, the escapes). Pure: no lookups.
 */
import { canonicalName } from '../../../net/dns-name.js';

/** Letters a domain-spec may use (§7.2); c, r and t belong to explanation strings only. */
const DOMAIN_MACRO_LETTERS = 'slodiphv';
// Sticky: matched in place at an index, so a record full of macros is scanned in linear time.
const MACRO_EXPAND = /%\{([A-Za-z])(\d*)(r?)([.\-+,/_=]*)\}/iy;

function macroAt(text: string, index: number): RegExpExecArray | null {
  MACRO_EXPAND.lastIndex = index;
  return MACRO_EXPAND.exec(text);
}

interface MacroScan {
  error: string | null;
  /** macro letters used, lower case */
  letters: string[];
  /** whether the string ends with a macro-expand (which may stand for the domain-end, §12) */
  endsWithMacro: boolean;
  /** the literal text after the last macro-expand */
  literalTail: string;
}

export function scanMacroString(text: string): MacroScan {
  const letters: string[] = [];
  let endsWithMacro = false;
  let tailStart = 0;
  for (let i = 0; i < text.length; ) {
    const code = text.charCodeAt(i);
    if (text[i] === '%') {
      const next = text[i + 1];
      if (next === '%' || next === '_' || next === '-') {
        i += 2;
      } else {
        const m = macroAt(text, i);
        if (!m)
          return {
            error: `invalid macro at "${clip(text.slice(i))}" (RFC 7208 §7.1)`,
            letters,
            endsWithMacro,
            literalTail: '',
          };
        const letter = (m[1] ?? '').toLowerCase();
        if (!DOMAIN_MACRO_LETTERS.includes(letter)) {
          return {
            error: `macro letter "${m[1]}" is not allowed here (RFC 7208 §7.2)`,
            letters,
            endsWithMacro,
            literalTail: '',
          };
        }
        if (m[2] !== '' && Number(m[2]) === 0)
          return {
            error: 'a macro digit transformer must not be zero (RFC 7208 §7.3)',
            letters,
            endsWithMacro,
            literalTail: '',
          };
        letters.push(letter);
        i += m[0].length;
      }
      endsWithMacro = true;
      tailStart = i;
    } else if (code >= 0x21 && code <= 0x7e) {
      endsWithMacro = false;
      i += 1;
    } else {
      return {
        error: `character ${JSON.stringify(text[i])} is not allowed (RFC 7208 §7.1)`,
        letters,
        endsWithMacro,
        literalTail: '',
      };
    }
  }
  return { error: null, letters, endsWithMacro, literalTail: text.slice(tailStart) };
}

export function macroStringError(text: string): string | null {
  return scanMacroString(text).error;
}

export type DomainSpecExpansion = { domain: string } | { senderMacros: string[] };

/**
 * Expands a valid domain-spec for `currentDomain` (§7.3). Only %{d} (the domain being evaluated)
 * and the escapes %%, %_ and %- are known without a message; any other letter depends on the
 * sender, and the spec is reported unexpanded with the letters it uses.
 */
export function expandDomainSpec(spec: string, currentDomain: string): DomainSpecExpansion {
  const scan = scanMacroString(spec);
  const sender = [...new Set(scan.letters.filter((l) => l !== 'd'))];
  if (sender.length > 0) return { senderMacros: sender };
  let out = '';
  for (let i = 0; i < spec.length; ) {
    if (spec[i] !== '%') {
      out += spec[i];
      i += 1;
      continue;
    }
    const next = spec[i + 1];
    if (next === '%' || next === '_' || next === '-') {
      out += next === '%' ? '%' : next === '_' ? ' ' : '%20';
      i += 2;
      continue;
    }
    const m = macroAt(spec, i);
    if (!m) break; // unreachable for a spec that passed domainSpecError
    out += transformMacroValue(currentDomain, m[2] ?? '', m[3] === 'r' || m[3] === 'R', m[4] ?? '');
    i += m[0].length;
  }
  return { domain: truncateDomain(canonicalName(out)) };
}

function transformMacroValue(value: string, digits: string, reverse: boolean, delimiters: string): string {
  const splitter = new RegExp(`[${(delimiters || '.').replace(/[\\\]^-]/g, '\\$&')}]`);
  let parts = value.split(splitter);
  if (reverse) parts = parts.reverse();
  if (digits !== '') parts = parts.slice(-Number(digits));
  return parts.join('.');
}

/** §7.3: an expansion longer than 253 characters loses labels from the left until it fits. */
function truncateDomain(domain: string): string {
  if (domain.length <= 253) return domain;
  // The longest suffix that starts after a dot and fits: one search, not one slice per label.
  const cut = domain.indexOf('.', domain.length - 254);
  return cut < 0 ? domain : domain.slice(cut + 1);
}

/** A piece of a record quoted in a finding, cut at 60 characters. */
export function clip(s: string): string {
  return s.length > 60 ? `${s.slice(0, 60)}…` : s;
}
