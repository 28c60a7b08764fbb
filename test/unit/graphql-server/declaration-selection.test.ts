/**
 * Which check declarations a command loads (src/graphql-server/declaration-selection.ts): the tools it
 * asks for, unless one is a composite or names no folder — then every one, as the service loads them.
 */
import { describe, expect, it } from 'vitest';
import { declarationsFor } from '../../../src/graphql-server/declaration-selection.js';

const files = [
  { family: 'composite', tool: 'website-health-check' },
  { family: 'dns', tool: 'dns-lookup' },
  { family: 'dns', tool: 'mx-lookup' },
  { family: 'tls-http', tool: 'tls-rating' },
];
const tools = (outcome: { files: { tool: string }[] }) => outcome.files.map((f) => f.tool);

describe('declarationsFor', () => {
  it('loads every declaration without a selection', () => {
    expect(declarationsFor(files, null)).toEqual({ files, partial: false });
  });

  it('loads only the selected tools, in path order', () => {
    const outcome = declarationsFor(files, ['tls-rating', 'dns-lookup']);
    expect(tools(outcome)).toEqual(['dns-lookup', 'tls-rating']);
    expect(outcome.partial).toBe(true);
  });

  it('loads every declaration for a composite, whose parts come from all of them', () => {
    expect(declarationsFor(files, ['website-health-check'])).toEqual({ files, partial: false });
    expect(declarationsFor(files, ['dns-lookup', 'website-health-check'])).toEqual({ files, partial: false });
  });

  it('loads every declaration for a tool no folder is named for, so that it is refused as the service refuses it', () => {
    expect(declarationsFor(files, ['no-such-tool'])).toEqual({ files, partial: false });
    expect(declarationsFor(files, ['tls-rating', 'no-such-tool'])).toEqual({ files, partial: false });
  });

  it('is not partial when the selection names every tool', () => {
    expect(declarationsFor(files.slice(1), ['dns-lookup', 'mx-lookup', 'tls-rating']).partial).toBe(false);
  });
});
