/** CSV results (src/jobs/results-csv.ts): RFC 4180 quoting, and cells that a spreadsheet would run neutralised. */
import { describe, expect, it } from 'vitest';
import { csvHeader, csvRow, neutralised } from '../../../src/jobs/results-csv.js';

describe('CSV results', () => {
  it("prefixes with ' a cell that starts with =, +, -, @, a tab or a carriage return", () => {
    for (const text of ['=1+2', '+1', '-1+2', '@SUM(A1)', '\t=1', '\r=1']) expect(neutralised(text)).toBe(`'${text}`);
    for (const text of ['example.com', '1=1', "'quoted", '']) expect(neutralised(text)).toBe(text);
  });

  it('writes the service’s own numbers as they are, and upstream text neutralised and quoted', () => {
    const line = JSON.stringify({
      index: 0,
      target: '=evil.test',
      ok: true,
      status: 200,
      data: { ttl: -1, title: '=HYPERLINK("http://x","y")', tags: ['=a'] },
    });
    expect(csvHeader(['ttl', 'title', 'tags'])).toBe('index,target,ok,status,error,data.ttl,data.title,data.tags\r\n');
    expect(csvRow(line, ['ttl', 'title', 'tags'])).toBe(
      `0,'=evil.test,true,200,,-1,"'=HYPERLINK(""http://x"",""y"")","[""=a""]"\r\n`,
    );
  });
});
