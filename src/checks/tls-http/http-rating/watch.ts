/**
 * http-rating (docs/contract/grades.md): the grade, the score and each test's result
 * (docs/contract/monitors.md "Events").
 */
import { arr, bool, keyed, num, obj, str } from '../../../watch/projection.js';
import { letterGrade } from '../../../watch/ranking.js';
import { goodWhenTrue, letterStatus } from '../../../watch/common.js';
import { defineWatch } from '../../../watch/watch-spec.js';

export const httpRatingWatch = defineWatch({
  tool: 'http-rating',
  project(data) {
    return {
      grade: str(data.grade),
      score: num(data.score),
      statusCode: num(data.statusCode),
      finalUrl: str(data.finalUrl),
      tests: keyed(
        arr(data.tests),
        (t) => str(obj(t).name),
        (t) => ({ pass: bool(obj(t).pass), result: str(obj(t).result) }),
      ),
    };
  },
  ranked: [
    { pattern: 'grade', ranking: letterGrade },
    { pattern: 'tests[*].pass', ranking: goodWhenTrue },
  ],
  assess(data) {
    const grade = str(data.grade);
    const url = str(data.url) ?? '?';
    return {
      status: letterStatus(grade),
      grade,
      summary:
        grade === null
          ? `The HTTP security of ${url} was not graded${str(data.error) ? `: ${str(data.error)}` : ''}.`
          : `The HTTP security of ${url} grades ${grade} (score ${num(data.score) ?? '?'}).`,
    };
  },
});
