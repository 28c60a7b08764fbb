/**
 * Wording by which registries say "no such domain", "you are asking too often" and
 * "personal data withheld". Matched line by line on the lower-cased answer, comment
 * lines included: many registries put the verdict in a "%" line ("%ERROR:101: no
 * entries found").
 */

/** A registry's own "not registered" wording. */
export const NOT_FOUND_PHRASES: readonly RegExp[] = [
  /\bno match(?:es)?\b/, // "No match for "X".", "No match!!", "Nincs talalat / No match"
  /\bnot found\b/, // "Domain not found.", "NOT FOUND", "Not found: x.tel", "Object "x" NOT FOUND."
  /\bno (?:entries|entry|data|records?|objects?) (?:was |were )?(?:found|matching)\b/,
  /\bno object found\b/,
  /\bobject_not_found\b/, // NIC Mexico "No_Se_Encontro_El_Objeto/Object_Not_Found"
  /\bnothing found\b/,
  /\bno matching (?:record|domain|object)s?\b/, // CNNIC "no matching record."
  /\bno such domain\b/,
  /\bno information (?:was )?found\b/,
  /^\s*no found\s*$/, // TWNIC
  /\bobject does not exist\b/,
  /\b(?:el )?dominio no (?:existe|se encuentra registrado)\b/,
  /\bqueried object does not exist\b/,
  /\bdoes not exist in (?:the )?database\b/,
  /\b(?:is|has) not (?:been )?registered\b/, // "This domain name has not been registered.", "Domain is not registered"
  /^\s*(?:domain )?status:\s*(?:free|available|not registered|no object found)\b/,
  /^\s*query_status:\s*220 available/, // .nz
  /\bis (?:free|available for (?:registration|purchase))\b/,
  /^\s*available\s*$/, // ZACR "Available"
  /\bno (?:information|data) (?:is )?available (?:about|on|for) (?:the )?domain\b/,
  /\bcould not find the requested domain\b/,
  /\bno data was found\b/,
  /^\s*key not found\s*$/,
  /\bbut this server does not have\b/, // IANA: "You queried for x.int but this server does not have any data"
  /\bnot registered to \w+/, // KISA "Above domain name is not registered to KRNIC."
  /\bnot (?:been )?found in (?:the )?(?:registry|database)\b/,
  // Freenom (.tk, .ml, .ga, .cf, .gq): "Invalid query or domain name not known in Dot TK Domain Registry"
  /\bdomain name not known in\b/,
];

/**
 * Statuses of names that exist in the registry without being registered (premium,
 * reserved): not a "not found" even when the same line says "No match".
 */
export const NOT_AVAILABLE_STATUS: readonly RegExp[] = [/^\s*(?:domain )?status:\s*(?:premium|reserved)\b/];

/** Quota, rate-limit and access-refusal wording. */
export const RATE_LIMIT_PHRASES: readonly RegExp[] = [
  // Not Donuts' terms of use: "If too many queries are received from a single IP address..."
  /(?<!\bif )\btoo many (?:requests|queries|connections|lookups)\b/,
  /\bquota (?:of queries )?(?:\w+ )?(?:has been |is )?exceeded\b/,
  /\bexceeded (?:your|the) (?:\w+ )?quota\b/,
  // The words between may not hold another "query quota": with `.*` each of many "query quota"s would
  // rescan the rest of the line. The last one before "exceeded" still matches, so the meaning is the same.
  /\bquery quota\b(?:(?!\bquery quota\b).)*\bexceeded\b/,
  /\blimit (?:exceeded|reached)\b/, // "WHOIS LIMIT EXCEEDED"
  /\b(?:queries|requests|lookups) (?:limit )?exceeded\b/,
  /\breached the maximum number of (?:queries|requests|lookups)\b/,
  /\bmaximum (?:number of )?(?:queries|requests|lookups)(?: per \w+)? (?:reached|exceeded)\b/, // DNS Belgium
  /\bexcessive querying, grace period\b/, // DNS Belgium; terms of use also speak of "excessive querying"
  /\bstill in grace period, wait\b/, // EURid
  /\bonly \d+ (?:requests?|queries|lookups?) per (?:second|minute|hour|day) allowed\b/, // SIDN
  /\baccess (?:denied|refused|blocked)\b/,
  /\btemporarily (?:blocked|denied|banned|refused)\b/,
  /\b(?:you|your (?:ip|address|ip address)|ip address [\d.:a-f]+) (?:have|has) been (?:blocked|banned|blacklisted)\b/,
];

/** Values that say personal data was withheld (ICANN Temporary Specification 2018, GDPR). */
export const REDACTION_PHRASES: readonly RegExp[] = [
  /\bredacted\b/,
  /\bdata protected\b/,
  /\bnot disclosed\b/,
  /\bwithheld\b/,
  /\bnon-public data\b/,
  /\bstatutory masking\b/,
  /\bnot displayed due to gdpr\b/,
  /\bhidden upon user request\b/,
  /\bgdpr masked\b/,
  /\bprivacy (?:protect(?:ed|ion)?|service)\b/,
];

export function matchesAny(lines: readonly string[], phrases: readonly RegExp[]): boolean {
  return lines.some((line) => phrases.some((phrase) => phrase.test(line)));
}
