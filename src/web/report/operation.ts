/**
 * The report's one GraphQL operation, composed from the REST documents of its parts (./sections.ts): each
 * part's root field with the tool's REST selection, its main parameter given the report's `$domain` (its
 * other, optional, parameters left to their defaults), inside `... @defer(label: "<part>")`, so that the
 * executor sends each part as soon as it is done (incremental delivery over /graphql, docs/report.md
 * "One operation"). The answer's shape is therefore the API's own, and a check added to the report brings
 * its whole answer without a field list kept here. Priced as any operation: the sum of its fields' prices.
 */
import {
  Kind,
  OperationTypeNode,
  print,
  type ArgumentNode,
  type DocumentNode,
  type FieldNode,
  type InlineFragmentNode,
} from 'graphql';
import type { RestRoute } from '../../rest/routes.js';
import { REPORT_VIEWS, partsOf, type ReportView } from './sections.js';

/** The report's one variable. */
export const REPORT_VARIABLE = 'domain';

function rootFieldOf(document: DocumentNode, tool: string): FieldNode {
  const operation = document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
  const field = operation?.kind === Kind.OPERATION_DEFINITION ? operation.selectionSet.selections[0] : undefined;
  if (field?.kind !== Kind.FIELD) throw new Error(`report: the REST document of ${tool} selects no root field`);
  return field;
}

/** The part's field with its required parameters fed by $domain and the optional ones left out. */
function partField(route: RestRoute): FieldNode {
  const root = rootFieldOf(route.document, route.tool);
  const required = new Set(route.parameters.filter((name) => route.check.rest[name] === 'required'));
  if (required.size !== 1) {
    throw new Error(`report: ${route.tool} has ${required.size} required parameters; a report part takes one`);
  }
  const args: ArgumentNode[] = [];
  for (const argument of root.arguments ?? []) {
    if (argument.value.kind !== Kind.VARIABLE || !required.has(argument.value.name.value)) continue;
    args.push({ ...argument, value: { kind: Kind.VARIABLE, name: { kind: Kind.NAME, value: REPORT_VARIABLE } } });
  }
  return { ...root, arguments: args };
}

/** The operation of one view, as its text (what the page sends, and what the app recognises). */
export function composeReportOperation(view: ReportView, routes: ReadonlyMap<string, RestRoute>): string {
  const fragments: InlineFragmentNode[] = partsOf(view).map((part) => {
    const route = routes.get(part.tool);
    if (!route) throw new Error(`report: part ${part.id} names the tool ${part.tool}, which has no REST route`);
    return {
      kind: Kind.INLINE_FRAGMENT,
      directives: [
        {
          kind: Kind.DIRECTIVE,
          name: { kind: Kind.NAME, value: 'defer' },
          arguments: [
            {
              kind: Kind.ARGUMENT,
              name: { kind: Kind.NAME, value: 'label' },
              value: { kind: Kind.STRING, value: part.id },
            },
          ],
        },
      ],
      selectionSet: { kind: Kind.SELECTION_SET, selections: [partField(route)] },
    };
  });
  const document: DocumentNode = {
    kind: Kind.DOCUMENT,
    definitions: [
      {
        kind: Kind.OPERATION_DEFINITION,
        operation: OperationTypeNode.QUERY,
        name: { kind: Kind.NAME, value: 'NetdiagReport' },
        variableDefinitions: [
          {
            kind: Kind.VARIABLE_DEFINITION,
            variable: { kind: Kind.VARIABLE, name: { kind: Kind.NAME, value: REPORT_VARIABLE } },
            type: {
              kind: Kind.NON_NULL_TYPE,
              type: { kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value: 'String' } },
            },
          },
        ],
        selectionSet: { kind: Kind.SELECTION_SET, selections: fragments },
      },
    ],
  };
  return print(document);
}

export interface ReportOperations {
  /** the operation text of a view */
  text(view: ReportView): string;
  /** the view whose operation this exact text is, else null (a report without a key: src/app.ts) */
  viewOf(query: unknown): ReportView | null;
  /** the credits a view's operation costs: its parts' tools' prices */
  price(view: ReportView, costOf: (tool: string) => number): number;
}

/** Composed once per process, on first use. */
export function reportOperations(routes: ReadonlyMap<string, RestRoute>): ReportOperations {
  let texts: Map<ReportView, string> | undefined;
  const all = () => (texts ??= new Map(REPORT_VIEWS.map((view) => [view, composeReportOperation(view, routes)])));
  return {
    text: (view) => all().get(view)!,
    viewOf(query) {
      if (typeof query !== 'string') return null;
      for (const [view, text] of all()) if (text === query) return view;
      return null;
    },
    price: (view, costOf) => partsOf(view).reduce((sum, part) => sum + costOf(part.tool), 0),
  };
}
