/**
 * WHOIS date reading. WHOIS (RFC 3912) prescribes no format, so registries print
 * dates in dozens of renderings: ISO 8601 / RFC 3339 (ICANN's 2013 RAA and RDDS
 * specification), "14-Feb-1999" (Nominet), "2007. 03. 02." (KISA), "20000101"
 * (registro.br), C ctime "Tue Feb 10 09:42:42 2004", "Wednesday 30th Mar 2011"...
 *
 * The reader takes a value apart instead of trying one regular expression per
 * format: first the time of day and the zone that follows it, then weekday names
 * and ordinal suffixes are dropped, and the calendar date is read from what is left.
 * A value without a zone is taken as UTC: nothing better is known about it.
 */

import { replaceBracketed } from './scan.js';

/** How to read an all-numeric "NN/NN/YYYY" or "NN-NN-YYYY" date whose order is ambiguous. */
export interface DateReadingOptions {
  /** true: 03/08/2014 is 3 August (the default, as most registries print); false: 8 March (Freenom, US style). */
  dayFirst?: boolean;
}

const MONTHS: ReadonlyMap<string, number> = new Map([
  ['jan', 1],
  ['january', 1],
  ['janvier', 1],
  ['janv', 1],
  ['ene', 1],
  ['enero', 1],
  ['januar', 1],
  ['feb', 2],
  ['february', 2],
  ['fevrier', 2],
  ['fevr', 2],
  ['febrero', 2],
  ['februar', 2],
  ['mar', 3],
  ['march', 3],
  ['mars', 3],
  ['marzo', 3],
  ['marz', 3],
  ['maerz', 3],
  ['apr', 4],
  ['april', 4],
  ['avril', 4],
  ['avr', 4],
  ['abr', 4],
  ['abril', 4],
  ['may', 5],
  ['mai', 5],
  ['mayo', 5],
  ['jun', 6],
  ['june', 6],
  ['juin', 6],
  ['junio', 6],
  ['juni', 6],
  ['jul', 7],
  ['july', 7],
  ['juillet', 7],
  ['juil', 7],
  ['julio', 7],
  ['juli', 7],
  ['aug', 8],
  ['august', 8],
  ['aout', 8],
  ['ago', 8],
  ['agosto', 8],
  ['sep', 9],
  ['sept', 9],
  ['september', 9],
  ['septembre', 9],
  ['septiembre', 9],
  ['set', 9],
  ['oct', 10],
  ['october', 10],
  ['octobre', 10],
  ['octubre', 10],
  ['okt', 10],
  ['oktober', 10],
  ['nov', 11],
  ['november', 11],
  ['novembre', 11],
  ['noviembre', 11],
  ['dec', 12],
  ['december', 12],
  ['decembre', 12],
  ['dic', 12],
  ['diciembre', 12],
  ['dez', 12],
  ['dezember', 12],
]);

const WEEKDAYS = /\b(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day|nesday|sday|urday)?\b\.?,?/g;

/**
 * Zone abbreviations seen in WHOIS answers, in minutes east of UTC. Ambiguous ones
 * (CST: China or US Central; IST: India, Ireland or Israel; BST: British Summer or
 * Bangladesh; AST: Atlantic or Arabia; GST: Gulf or South Georgia) are read as UTC on
 * purpose: the time may then be a few hours off, the day rarely.
 */
const ZONE_OFFSETS: ReadonlyMap<string, number> = new Map([
  ['cst', 0],
  ['ist', 0],
  ['bst', 0],
  ['ast', 0],
  ['gst', 0],
  ['ut', 0],
  ['utc', 0],
  ['gmt', 0],
  ['wet', 0],
  ['cet', 60],
  ['met', 60],
  ['wat', 60],
  ['cest', 120],
  ['mest', 120],
  ['eet', 120],
  ['sast', 120],
  ['cat', 120],
  ['eest', 180],
  ['eat', 180],
  ['msk', 180],
  ['msd', 240],
  ['ict', 420],
  ['wib', 420],
  ['hkt', 480],
  ['sgt', 480],
  ['awst', 480],
  ['pht', 480],
  ['myt', 480],
  ['wita', 480],
  ['jst', 540],
  ['kst', 540],
  ['wit', 540],
  ['aest', 600],
  ['acst', 570],
  ['aedt', 660],
  ['nzst', 720],
  ['nzdt', 780],
  ['edt', -240],
  ['est', -300],
  ['cdt', -300],
  ['mdt', -360],
  ['mst', -420],
  ['pdt', -420],
  ['pst', -480],
  ['akst', -540],
  ['akdt', -480],
  ['hst', -600],
]);

/** UANIC "20121216134104", ISO 8601 basic "20121216T134104": date and time in one run of digits. */
const COMPACT_TIMESTAMP = /(?<!\d)(\d{8})t?(\d{2})(\d{2})(\d{2})(?!\d)/;
const TIME = /(?<![\d:])(\d{1,2}):(\d{2})(?::(\d{2}))?(?:[.,](\d+))?(?:\s*([ap])\.?m\b\.?)?/;
/**
 * A zone written right after the time: "Z", "+09:00", "-0700", "+03", "UTC", "(JST)", "GMT+8", "(UTC+8:00)".
 * Spaces after the bracket only: `\s*\(?\s*` would split a run of spaces between its two `\s*` every way.
 */
const ZONE_AFTER_TIME = new RegExp(
  [
    String.raw`^\s*(?:\(\s*)?(?:`,
    String.raw`(z)\b`, // "Z"
    String.raw`|([a-z]{1,5})(?:\/[a-z]{1,5})?(?:\s*([+-]\d{1,2}(?::?\d{2})?))?`, // "UTC", "MSK/MSD", "GMT+8"
    String.raw`|([+-](?:\d{2}:?\d{2}|\d{1,2}(?::\d{2})?))(?![\d:])`, // "+09:00", "-0700", "+03", "+3:00", "+3"
    String.raw`)\s*\)?`,
  ].join(''),
);
/**
 * A numeric offset that ends the value, where it does not follow the time: C's ctime with a zone
 * ("Tue Jan 02 03:04:05 2024 +0300") or the time printed before the date ("03:04:05 02-Jan-2024 +0300").
 * Hours and minutes both, so that the last part of a date ("2024-01-02") is never read as one.
 */
const TRAILING_OFFSET = /\s([+-]\d{2}:?\d{2})\s*$/;
/** A zone anywhere else: "Fri Mar 29 22:03:53 GMT 2002" is caught above; this is for "2020-01-02 UTC". */
const ZONE_WORD = /\b(utc|gmt)\b(?:\s*([+-]\d{1,2}(?::?\d{2})?))?/;

/**
 * Longest value read as a date. The longest renderings (weekday, month name, time, zone, and
 * the audit-trail note of RIPE-style "changed:" lines, "registrar AT ns.il 19990605
 * (Transferred)") stay far below it; a longer value is prose, not a date.
 */
const MAX_DATE_VALUE_CHARS = 256;

interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

interface TimeOfDay {
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

/**
 * Reads a WHOIS date value and returns it as an ISO 8601 UTC timestamp
 * ("2024-01-02T03:04:05.000Z"), or null when the value is not a full calendar date
 * ("before Aug-1996", "2010", empty, out-of-range fields).
 */
export function normaliseWhoisDate(value: string, options: DateReadingOptions = {}): string | null {
  if (value.length > MAX_DATE_VALUE_CHARS) return null;
  let text = cleanDateText(value);
  if (text === '' || /^(?:before|after|prior to|circa)\b/.test(text)) return null;

  let time: TimeOfDay = { hour: 0, minute: 0, second: 0, millisecond: 0 };
  // An explicit offset is part of the instant: "03:04:05+03:00" is 00:04:05 UTC, not 03:04:05 UTC.
  let offsetMinutes = 0;
  let zoneRead = false;
  const compact = COMPACT_TIMESTAMP.exec(text);
  const timeMatch = compact ? null : TIME.exec(text);
  // A compact timestamp's eight date digits stay for the calendar reader; the time and its zone are read.
  const timeOfDay = compact
    ? {
        match: compact,
        kept: ` ${compact[1]} `,
        time: readTime(compact[2], compact[3], compact[4], undefined, undefined),
      }
    : timeMatch
      ? {
          match: timeMatch,
          kept: ' ',
          time: readTime(timeMatch[1], timeMatch[2], timeMatch[3], timeMatch[4], timeMatch[5]),
        }
      : null;
  if (timeOfDay) {
    if (!timeOfDay.time) return null;
    time = timeOfDay.time;
    const { match } = timeOfDay;
    const rest = text.slice(match.index + match[0].length);
    const zone = readZoneAtStart(rest);
    if (zone) {
      offsetMinutes = zone.offsetMinutes;
      zoneRead = true;
    }
    text = `${text.slice(0, match.index)}${timeOfDay.kept}${rest.slice(zone?.length ?? 0)}`;
  }
  if (timeOfDay && !zoneRead) {
    const trailing = TRAILING_OFFSET.exec(text);
    const offset = trailing?.[1] === undefined ? undefined : parseOffset(trailing[1]);
    if (trailing && offset !== undefined) {
      offsetMinutes = offset;
      zoneRead = true;
      text = text.slice(0, trailing.index);
    }
  }
  if (!zoneRead) {
    const word = ZONE_WORD.exec(text);
    if (word) {
      offsetMinutes = word[2] ? (parseOffset(word[2]) ?? 0) : 0;
      text = text.replace(word[0], ' ');
    }
  }

  const date = readCalendarDate(text, options.dayFirst ?? true);
  if (!date) return null;
  const millis =
    Date.UTC(date.year, date.month - 1, date.day, time.hour, time.minute, time.second, time.millisecond) -
    offsetMinutes * 60_000;
  return new Date(millis).toISOString();
}

/** What `.` does not match without the `s` flag (ECMA-262 LineTerminator). */
const LINE_TERMINATOR = /[\n\r\u2028\u2029]/;

/** "(YYYY-MM-DD)" format hints, once lower-cased. */
const FORMAT_HINT_START = /yyyy|dd|mm/y;

function isFormatHint(text: string, afterOpen: number): boolean {
  FORMAT_HINT_START.lastIndex = afterOpen;
  return FORMAT_HINT_START.test(text);
}

function cleanDateText(value: string): string {
  const withoutAddresses = value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // "févr." → "fevr."
    .toLowerCase()
    .replace(/<<<|>>>|["']/g, ' ')
    // AFNIC "changed: 20/03/2015 nic@nic.fr": a whole word with an "@" inside. The lookbehind
    // tries only where a word starts, instead of rescanning a long word from each character.
    .replace(/(?<!\S)\S+@\S+/g, ' ');
  // registro.br "created: 20000101 #12345"
  const withoutComment = withoutTrailingComment(withoutAddresses);
  return replaceBracketed(withoutComment, '(', ')', ' ', isFormatHint).replace(/\s+/g, ' ').trim();
}

/**
 * `text.replace(/#.*$/, ' ')` as a scan: the rest of the last line from its first "#" is a
 * comment. Answers are split at CR and LF, so only U+2028 or U+2029 can end a line in a value.
 */
function withoutTrailingComment(text: string): string {
  let lastLineStart = text.length;
  while (lastLineStart > 0 && !LINE_TERMINATOR.test(text.charAt(lastLineStart - 1))) lastLineStart -= 1;
  const hashAt = text.indexOf('#', lastLineStart);
  return hashAt < 0 ? text : `${text.slice(0, hashAt)} `;
}

function readTime(
  hourText: string | undefined,
  minuteText: string | undefined,
  secondText: string | undefined,
  fractionText: string | undefined,
  meridiem: string | undefined,
): TimeOfDay | null {
  let hour = Number(hourText);
  const minute = Number(minuteText);
  const second = secondText === undefined ? 0 : Math.min(Number(secondText), 59); // a leap second stays in its minute
  const millisecond = fractionText === undefined ? 0 : Math.floor(Number(`0.${fractionText}`) * 1000);
  if (meridiem !== undefined) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (meridiem === 'p' ? 12 : 0);
  }
  if (hour > 24 || minute > 59 || (hour === 24 && (minute > 0 || second > 0))) return null;
  return { hour, minute, second, millisecond };
}

/** The zone written at the start of `rest` (what follows a time), with the length it takes. */
function readZoneAtStart(rest: string): { offsetMinutes: number; length: number } | null {
  const match = ZONE_AFTER_TIME.exec(rest);
  if (!match) return null;
  const offsetMinutes = readZone(match);
  return offsetMinutes === undefined ? null : { offsetMinutes, length: match[0].length };
}

function readZone(match: RegExpExecArray): number | undefined {
  if (match[1] !== undefined) return 0;
  if (match[4] !== undefined) return parseOffset(match[4]);
  const name = match[2];
  if (name === undefined) return undefined;
  const base = ZONE_OFFSETS.get(name);
  if (base === undefined) return undefined;
  if (match[3] === undefined) return base;
  const shift = parseOffset(match[3]);
  return shift === undefined ? undefined : base + shift;
}

/** "+09:00", "-0700", "+03", "+8" → minutes east of UTC. */
function parseOffset(text: string): number | undefined {
  const match = /^([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(text);
  if (!match) return undefined;
  const hours = Number(match[2]);
  const minutes = match[3] === undefined ? 0 : Number(match[3]);
  if (hours > 14 || minutes > 59) return undefined;
  return (match[1] === '-' ? -1 : 1) * (hours * 60 + minutes);
}

type DateReader = (match: RegExpExecArray, dayFirst: boolean) => CalendarDate | null;

/** Calendar date renderings, tried in order on the text left once the time is removed. */
const DATE_FORMS: ReadonlyArray<readonly [RegExp, DateReader]> = [
  // 2020-01-02, 2020/01/02, 2020.01.02, "2007. 03. 02." (KISA)
  [/(?<!\d)(\d{4})\s*([-/.])\s*(\d{1,2})\s*\2\s*(\d{1,2})(?!\d)/, (m) => ymd(m[1], m[3], m[4])],
  // 2005年05月30日
  [/(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日/, (m) => ymd(m[1], m[2], m[3])],
  // 20200102 (registro.br), and the date part of 20121216134104 (UANIC, time read below)
  [/(?<!\d)(\d{4})(\d{2})(\d{2})(?:\d{6})?(?!\d)/, (m) => ymd(m[1], m[2], m[3])],
  // 02.01.2020 is always day first; 02/01/2020 and 02-01-2020 depend on the registry
  [/(?<!\d)(\d{1,2})\s*([-/.])\s*(\d{1,2})\s*\2\s*(\d{4})(?!\d)/, (m, dayFirst) => numericDayMonth(m, dayFirst)],
  // 02-jan-2020, 2 jan 2020, 02-january-2020, 29-apr-05
  [/(?<![\d])(\d{1,2})[-\s/.]*([a-z]{3,9})\.?[-\s/.,]*(\d{4}|\d{2})(?![\d:])/, (m) => named(m[3], m[2], m[1])],
  // jan 2 2020, jan 02, 2020, "feb 10 2004" (ctime once the time is gone)
  [/\b([a-z]{3,9})\.?[-\s/.]*(\d{1,2})(?:,)?[-\s/.,]+(\d{4})(?!\d)/, (m) => named(m[3], m[1], m[2])],
  // 2001-aug-23, 2020 jan 02
  [/(?<!\d)(\d{4})[-\s/.]*([a-z]{3,9})\.?[-\s/.]*(\d{1,2})(?!\d)/, (m) => named(m[1], m[2], m[3])],
];

function readCalendarDate(text: string, dayFirst: boolean): CalendarDate | null {
  const cleaned = text
    .replace(WEEKDAYS, ' ')
    .replace(/(\d)(?:st|nd|rd|th)\b/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
  for (const [pattern, read] of DATE_FORMS) {
    const match = pattern.exec(cleaned);
    if (!match) continue;
    const date = read(match, dayFirst);
    if (date) return date;
  }
  return null;
}

function numericDayMonth(match: RegExpExecArray, dayFirst: boolean): CalendarDate | null {
  const first = Number(match[1]);
  const second = Number(match[3]);
  const year = match[4] ?? '';
  // A part above 12 settles the order whatever the registry's habit.
  if (first > 12) return ymd(year, match[3], match[1]);
  if (second > 12) return ymd(year, match[1], match[3]);
  if (match[2] === '.' || dayFirst) return ymd(year, match[3], match[1]);
  return ymd(year, match[1], match[3]);
}

type Part = string | undefined;

function named(yearText: Part, monthName: Part, dayText: Part): CalendarDate | null {
  const month = MONTHS.get(monthName ?? '');
  if (month === undefined || yearText === undefined) return null;
  let year = Number(yearText);
  // Two-digit years ("29-APR-05") only come with month names; 70–99 are 19xx.
  if (yearText.length === 2) year += year >= 70 ? 1900 : 2000;
  return ymd(String(year), String(month), dayText);
}

/**
 * Latest year read. Registries print far-future expiry dates for names that never lapse (ZACR
 * "Registry Expiry Date: 2999-12-30T22:00:00Z" for nic.za, "3000-01-01" in other registries'
 * reserved names): those are the registry's own statement, so any four-digit year is read.
 */
const MAX_YEAR = 9999;

function ymd(yearText: Part, monthText: Part, dayText: Part): CalendarDate | null {
  const year = Number(yearText);
  const month = Number(monthText);
  const day = Number(dayText);
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) return null;
  if (year < 1970 || year > MAX_YEAR || month < 1 || month > 12 || day < 1) return null;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > daysInMonth) return null;
  return { year, month, day };
}
