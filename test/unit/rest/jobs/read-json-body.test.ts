/** The structure bound of a job's body (src/rest/jobs/read-json-body.ts), checked before it is parsed. */
import { describe, expect, it } from 'vitest';
import { structureFault } from '../../../../src/rest/jobs/read-json-body.js';

const bounds = { maxMembers: 3, maxDepth: 3 };

describe('structureFault', () => {
  it('counts the members of each object, not of arrays', () => {
    expect(structureFault('{"a":1,"b":2,"c":3}', bounds)).toBeNull();
    expect(structureFault('{"a":1,"b":2,"c":3,"d":4}', bounds)).toBe('it has an object of more than 3 members');
    expect(structureFault('{"t":[1,2,3,4,5,6,7,8],"p":{"x":1}}', bounds)).toBeNull();
    expect(structureFault('{"t":[{"a":1,"b":2,"c":3,"d":4}]}', bounds)).toBe('it has an object of more than 3 members');
  });

  it('bounds nesting', () => {
    expect(structureFault('{"t":[{"a":1}]}', bounds)).toBeNull();
    expect(structureFault('{"t":[{"a":[1]}]}', bounds)).toBe('it nests deeper than 3 levels');
  });

  it('reads strings whole: colons, braces and escaped quotes inside them are text', () => {
    expect(structureFault('{"a":"x:y:z:{[","b":"q\\":\\":"}', bounds)).toBeNull();
    // an escaped backslash ends before the quote, which closes the string
    expect(structureFault('{"a":"x\\\\","b":1,"c":2,"d":3}', bounds)).toBe('it has an object of more than 3 members');
  });

  it('leaves what is not JSON to the parser', () => {
    expect(structureFault('{"a":"never closed', bounds)).toBeNull();
    expect(structureFault(':::', bounds)).toBeNull();
  });
});
