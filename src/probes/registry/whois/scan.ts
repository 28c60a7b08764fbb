/**
 * Character scans for what the WHOIS reader would otherwise do with regular expressions
 * that V8 runs in quadratic time on a long run of one character: a pattern anchored at
 * the end (`/\.+$/`, `/\s*\[tag=[^\]]*\]\s*$/`) or an unclosed bracket (`/\([^)]*\)/g`)
 * is retried from every position of the run, and each try scans the rest of it. A WHOIS
 * server is chosen by the upstream (referrals), so its answer is attacker-controlled text.
 * Each scan below reads its input a bounded number of times.
 */

/** What `\s` matches in a JavaScript regular expression (ECMA-262 WhiteSpace and LineTerminator). */
const SINGLE_WHITESPACE = /^\s$/;

export function isWhitespace(char: string): boolean {
  return SINGLE_WHITESPACE.test(char);
}

/** `text` without the run of trailing characters for which `isTrailing` holds: `/[…]+$/` replaced by ''. */
export function trimEndWhile(text: string, isTrailing: (char: string) => boolean): string {
  let end = text.length;
  while (end > 0 && isTrailing(text.charAt(end - 1))) end -= 1;
  return end === text.length ? text : text.slice(0, end);
}

/**
 * Each `open`…`close` span (the first `close` after `open`, none inside) whose text after
 * `open` passes `wanted`, replaced by `replacement`, as `text.replace(/\(…[^)]*\)/g, …)` would.
 * Once an `open` has no `close` after it, no later one has either, so the scan stops there.
 */
export function replaceBracketed(
  text: string,
  open: string,
  close: string,
  replacement: string,
  wanted: (text: string, afterOpen: number) => boolean = () => true,
): string {
  let result = '';
  let copiedUpTo = 0;
  let searchFrom = 0;
  for (;;) {
    const openAt = text.indexOf(open, searchFrom);
    if (openAt < 0) break;
    if (!wanted(text, openAt + 1)) {
      searchFrom = openAt + 1;
      continue;
    }
    const closeAt = text.indexOf(close, openAt + 1);
    if (closeAt < 0) break;
    result += text.slice(copiedUpTo, openAt) + replacement;
    copiedUpTo = closeAt + 1;
    searchFrom = closeAt + 1;
  }
  return copiedUpTo === 0 ? text : result + text.slice(copiedUpTo);
}

/**
 * `text` without a final bracketed part and the whitespace around it, as
 * `text.replace(/\s*<head>[^<close>]*<close>\s*$/, '')` would, where `head` (a sticky
 * pattern matching at an `open` character, without `close` in it) tells which bracket
 * it is: Nominet's " [Tag = X]", a registrar's " (http://…)".
 */
export function stripTrailingBracketed(text: string, open: string, close: string, head: RegExp): string {
  const end = trimEndWhile(text, isWhitespace).length;
  if (end === 0 || text.charAt(end - 1) !== close) return text;
  const closeAt = end - 1;
  // The bracketed text holds no `close`, so its opening comes after the `close` before the last one.
  const previousClose = closeAt === 0 ? -1 : text.lastIndexOf(close, closeAt - 1);
  for (let openAt = text.indexOf(open, previousClose + 1); openAt >= 0 && openAt < closeAt; ) {
    head.lastIndex = openAt;
    if (head.test(text) && head.lastIndex <= closeAt) return trimEndWhile(text.slice(0, openAt), isWhitespace);
    openAt = text.indexOf(open, openAt + 1);
  }
  return text;
}
