/**
 * The union of a composite check's details types (WebsiteCheckDetails, MailCheckDetails): which member
 * a details object is follows its check's id. The `details` field hands out the object tagged with that
 * id (a symbol key, invisible to GraphQL), and the union reads the tag back: no state outside the answer.
 */
import type { ObjectRef } from '@pothos/core';
import { builder } from '../../../graphql/builder.js';
import type { CompositeParts, PartSpec } from './parts.js';

const CHECK_ID = Symbol('check id');

type Tagged<Id extends string> = { readonly [CHECK_ID]?: Id };

type Member = ObjectRef<typeof builder.$inferSchemaTypes, any>;

/** A member whatever the check's id, for the details `is` recognises (a part that has no data of its own). */
export interface OtherDetails<Type extends Member> {
  readonly type: Type;
  readonly is: (details: unknown) => boolean;
}

/**
 * The union of the composite's own details types (`typeOf`, by check id), the details types of the parts
 * that joined it (`parts`: call this once every check is declared) and `others`.
 */
export function checkDetailsUnion<Refs extends Readonly<Record<string, Member>>, Other extends Member = never>(
  name: string,
  description: string,
  typeOf: Refs,
  parts: CompositeParts<PartSpec>,
  others: readonly OtherDetails<Other>[] = [],
) {
  const byId = new Map<string, Member>([
    ...Object.entries(typeOf),
    ...parts.joined.map((p) => [p.spec.id, p.details] as const),
  ]);
  const union = builder.unionType(name, {
    description,
    types: [...byId.values(), ...others.map((o) => o.type)],
    resolveType: (details) => {
      const other = others.find((o) => o.is(details));
      if (other) return other.type;
      const id = (details as Tagged<string>)[CHECK_ID];
      const type = id === undefined ? undefined : byId.get(id);
      if (type === undefined) throw new Error(`${name}: details without their check (${String(id)})`);
      return type;
    },
  });
  return union;
}

/** The details of check `id`, tagged for its composite's union. */
export function tagDetails<D extends object>(id: string, details: D): D {
  return { ...details, [CHECK_ID]: id };
}
