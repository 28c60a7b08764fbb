/**
 * Media type and charset facts from a Content-Type value (RFC 9110 §8.3), and the
 * WHATWG Encoding label rules for turning a charset into a TextDecoder.
 */

/** The lower-case media type without parameters ("text/html"), or null when absent. */
export function mediaTypeOf(contentType: string | undefined | null): string | null {
  if (contentType === undefined || contentType === null) return null;
  const type = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return type === '' ? null : type;
}

/**
 * Whether a response is worth reading as an HTML document: text/html or
 * application/xhtml+xml, or no Content-Type at all (then the bytes decide, as browsers
 * sniff, WHATWG MIME Sniffing §7.1).
 */
export function isHtmlContentType(contentType: string | undefined | null): boolean {
  const type = mediaTypeOf(contentType);
  return type === null || type === 'text/html' || type === 'application/xhtml+xml';
}

/** The charset parameter of a Content-Type value, unquoted, or null. */
export function charsetParameter(contentType: string | undefined | null): string | null {
  if (!contentType) return null;
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType);
  const value = (match?.[1] ?? match?.[2] ?? '').trim();
  return value === '' ? null : value;
}

/**
 * The WHATWG encoding name for a label, or null when TextDecoder does not know it.
 * ("latin1" and "iso-8859-1" are windows-1252 by that standard.)
 */
export function encodingForLabel(label: string | null): string | null {
  if (label === null) return null;
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch {
    return null;
  }
}
