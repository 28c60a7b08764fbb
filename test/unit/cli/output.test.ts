/** Human output (src/cli/output.ts): upstream text cannot drive a terminal, columns align, colour only when asked. */
import { describe, expect, it } from 'vitest';
import { columns, dataLines, printable, styleFor } from '../../../src/cli/output.js';

describe('output', () => {
  it('shows control characters of an answer escaped, so an answer cannot move the cursor or recolour', () => {
    expect(printable('ok\u001b[2J\u001b]0;pwned\u0007\r\n')).toBe('ok\\x1b[2J\\x1b]0;pwned\\x07\\x0d\\x0a');
    expect(printable(null)).toBe('–');
  });

  it('colours only a terminal without NO_COLOR', () => {
    expect(styleFor({ isTTY: true }, {}, null).tone('critical', 'x')).toBe('\u001b[31mx\u001b[39m');
    expect(styleFor({ isTTY: true }, { NO_COLOR: '1' }, null).tone('critical', 'x')).toBe('x');
    expect(styleFor({ isTTY: false }, {}, null).bold('x')).toBe('x');
    expect(styleFor({ isTTY: false }, {}, true).bold('x')).toBe('\u001b[1mx\u001b[22m');
  });

  it('aligns columns and nests objects', () => {
    expect(
      columns([
        ['a', 'bb'],
        ['ccc', 'd'],
      ]),
    ).toEqual(['a    bb', 'ccc  d']);
    const style = styleFor({}, {}, false);
    expect(dataLines({ status: 'ok', list: ['x', 'y'], nested: { n: 1 }, rows: [{ a: 1, b: 2 }] }, style)).toEqual([
      'status  ok',
      'list    x, y',
      'nested',
      '  n  1',
      'rows',
      '  a  b',
      '  1  2',
    ]);
  });
});
