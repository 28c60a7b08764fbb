/**
 * The REST route table: each `GET /api/v1/<tool>` is a fixed GraphQL document (schema/rest/<tool>.graphql,
 * typed by the code generator) plus a mapping of query parameters to its variables. A tool that is not
 * in this table is a 404: there are no stubs.
 */
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { Kind, type DocumentNode } from 'graphql';
import * as ops from './generated/operations.js';
import type { QueryReader } from './query-reader.js';

export interface RestRoute {
  readonly tool: string;
  readonly document: DocumentNode;
  /** the root field whose value is the envelope's data */
  readonly field: string;
  readonly variables: (query: QueryReader) => Record<string, unknown>;
}

function route<TData, TVariables extends Record<string, unknown>>(
  tool: string,
  document: TypedDocumentNode<TData, TVariables>,
  variables: (query: QueryReader) => TVariables,
): RestRoute {
  const operation = document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
  const first = operation?.kind === Kind.OPERATION_DEFINITION ? operation.selectionSet.selections[0] : undefined;
  if (!first || first.kind !== Kind.FIELD) throw new Error(`route ${tool}: its document must select one root field`);
  return { tool, document, field: first.alias?.value ?? first.name.value, variables };
}

export const restRoutes: ReadonlyMap<string, RestRoute> = new Map(
  [
    route('my-ip', ops.MyIpDocument, () => ({})),
    route('dns-lookup', ops.DnsLookupDocument, (q) => ({
      domain: q.required('domain'),
      resolver: q.optional('resolver'),
    })),
    route('mx-lookup', ops.MxLookupDocument, (q) => ({ domain: q.required('domain') })),
    route('dns-propagation', ops.DnsPropagationDocument, (q) => ({
      domain: q.required('domain'),
      type: q.optional('type'),
    })),
    route('spf-checker', ops.SpfCheckerDocument, (q) => ({ domain: q.required('domain') })),
    route('dkim-checker', ops.DkimCheckerDocument, (q) => ({
      domain: q.required('domain'),
      selector: q.required('selector'),
    })),
    route('dmarc-checker', ops.DmarcCheckerDocument, (q) => ({ domain: q.required('domain') })),
    route('dnssec-test', ops.DnssecTestDocument, (q) => ({ domain: q.required('domain') })),
    route('dns-blacklist-checker', ops.DnsBlacklistCheckerDocument, (q) => ({ host: q.required('host') })),
    route('ip-info', ops.IpInfoDocument, (q) => ({ target: q.required('target') })),
    route('asn-lookup', ops.AsnLookupDocument, (q) => ({ target: q.required('target') })),
    route('whois', ops.WhoisDocument, (q) => ({ domain: q.required('domain') })),
    route('abuse-contact-lookup', ops.AbuseContactLookupDocument, (q) => ({ domain: q.required('domain') })),
    route('what-is-my-ip', ops.WhatIsMyIpDocument, () => ({})),
    route('ssl-checker', ops.SslCheckerDocument, (q) => ({ domain: q.required('domain') })),
    route('tls-configuration', ops.TlsConfigurationDocument, (q) => ({ domain: q.required('domain') })),
    route('port-checker', ops.PortCheckerDocument, (q) => ({ host: q.required('host'), port: q.port('port') })),
    route('http-headers', ops.HttpHeadersDocument, (q) => ({ url: q.required('url') })),
    route('open-graph-checker', ops.OpenGraphCheckerDocument, (q) => ({ url: q.required('url') })),
    route('ping', ops.PingDocument, (q) => ({ host: q.required('host') })),
    route('website-health-check', ops.WebsiteHealthCheckDocument, (q) => ({ target: q.required('target') })),
    route('mailhealth-check', ops.MailhealthCheckDocument, (q) => ({ domain: q.required('domain') })),
    route('tls-rpt', ops.TlsRptDocument, (q) => ({ domain: q.required('domain') })),
    route('smtp-starttls', ops.SmtpStarttlsDocument, (q) => ({
      host: q.required('host'),
      port: q.optionalPort('port'),
    })),
    route('mta-sts', ops.MtaStsDocument, (q) => ({ domain: q.required('domain') })),
    route('bimi', ops.BimiDocument, (q) => ({ domain: q.required('domain'), selector: q.optional('selector') })),
    route('dane', ops.DaneDocument, (q) => ({ host: q.required('host'), port: q.optionalPort('port') })),
  ].map((r) => [r.tool, r]),
);
