/**
 * What an answer means for a pipeline: its findings (src/web/report/findings.ts) against `--fail-on`, and
 * its grades against `--min-grade`.
 */
import { findingsOf, SEVERITY_ORDER, type Finding } from '../web/report/findings.js';
import { meetsGrade, websitePart } from '../web/report/verdicts.js';
import { UsageError, type CliOptions } from './args.js';
import { EXIT } from './io.js';

/** The tools whose answers carry grades. */
export const GRADED_TOOLS = new Set(['tls-rating', 'http-rating', 'website-health-check']);

export interface Grade {
  readonly name: string;
  readonly grade: string | null;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The grades of an answer: the TLS letter, the Observatory's grade, or both for the website check. */
export function gradesOf(tool: string, data: unknown): Grade[] {
  if (!isObject(data)) return [];
  const tls = (rating: Record<string, unknown> | null): Grade => ({
    name: 'TLS',
    grade: isObject(rating?.grade) && typeof rating.grade.letter === 'string' ? rating.grade.letter : null,
  });
  const http = (rating: Record<string, unknown> | null): Grade => ({
    name: 'HTTP security',
    grade: typeof rating?.grade === 'string' ? rating.grade : null,
  });
  if (tool === 'tls-rating') return [tls(data)];
  if (tool === 'http-rating') return [http(data)];
  if (tool === 'website-health-check') {
    return [tls(websitePart(data, 'tls-rating', 'tlsRating')), http(websitePart(data, 'http-rating', 'httpRating'))];
  }
  return [];
}

export function checkGradeOption(tool: string, options: CliOptions): void {
  if (options.minGrade !== null && !GRADED_TOOLS.has(tool) && tool !== 'report') {
    throw new UsageError(`--min-grade applies to ${[...GRADED_TOOLS].join(', ')} and report, not ${tool}`);
  }
}

export interface Judgement {
  readonly findings: Finding[];
  readonly grades: Grade[];
  /** the findings that reach --fail-on, and the grades below --min-grade */
  readonly failing: Finding[];
  readonly belowGrade: Grade[];
  readonly exit: number;
}

export function judge(tool: string, data: unknown, options: Pick<CliOptions, 'failOn' | 'minGrade'>): Judgement {
  const findings = findingsOf(tool, data);
  const grades = gradesOf(tool, data);
  const failing = findings.filter((f) => SEVERITY_ORDER[f.severity] >= SEVERITY_ORDER[options.failOn]);
  const minimum = options.minGrade;
  const belowGrade = minimum === null ? [] : grades.filter((g) => !meetsGrade(g.grade, minimum));
  return {
    findings,
    grades,
    failing,
    belowGrade,
    exit: failing.length > 0 || belowGrade.length > 0 ? EXIT.failed : EXIT.ok,
  };
}
