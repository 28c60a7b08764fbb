/**
 * ip-info and asn-lookup are one check under two tool names (docs/contract/api-v1.md lists both): the
 * same arguments, parser and run function, each with its own Query field and REST route.
 */
import { runIpInfo } from './run.js';
import { defineCheck } from '../../../graphql/check-declaration.js';
import type { CompiledWatchSpec } from '../../../watch/watch-spec.js';
import { IpInfo, parsePublicTarget } from './types.js';

/** `summary`: the first sentence, which says what the tool is asked for (the answer is the same); `watch` its spec. */
export function defineIpFactsCheck(field: string, tool: string, summary: string, watch: CompiledWatchSpec): void {
  defineCheck({
    field,
    tool,
    family: 'IP',
    type: IpInfo,
    description: `${summary} (REST: ${tool}). The answer holds the AS, AS name, country and continent; a private or reserved address is an input error: it has no public routing data.`,
    args: (arg) => ({
      target: arg.string({
        required: true,
        description: 'A public IP address, or a domain (its first A record is used).',
      }),
    }),
    rest: { target: 'required' },
    parse: parsePublicTarget,
    run: runIpInfo,
    watch,
  });
}
