/** The facts of a domain's registration that RDAP and WHOIS answers both give (their parsers' common part). */
export interface RegistrationFacts {
  /** the domain the answer is about (lower case, no trailing dot) */
  domainName: string | null;
  registrar: string | null;
  /** ISO 8601 UTC as Date#toISOString writes it ("2024-01-02T03:04:05.000Z"); a date without time is midnight UTC */
  creationDate: string | null;
  updatedDate: string | null;
  expiryDate: string | null;
  /** lower case, no trailing dot, in the order served, without duplicates */
  nameServers: string[];
  /** the registrar's abuse contact (ICANN RAA 2013 §3.18) */
  abuseEmail: string | null;
  abusePhone: string | null;
  /** the server says it withheld personal data ("REDACTED FOR PRIVACY", RFC 9537 "redacted", …) */
  redacted: boolean;
}
