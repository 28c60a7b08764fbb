/**
 * The union of a composite check's details types (WebsiteCheckDetails, MailCheckDetails): which member
 * a details object is follows its check's id. The `details` field hands out the object tagged with that
 * id (a symbol key, invisible to GraphQL), and the union reads the tag back: no state outside the answer.
 */
import type { ObjectRef } from '@pothos/core';
import { builder } from '../../../graphql/builder.js';

const CHECK_ID = Symbol('check id');

type Tagged<Id extends string> = { readonly [CHECK_ID]?: Id };

type Member = ObjectRef<typeof builder.$inferSchemaTypes, any>;

export function checkDetailsUnion<Refs extends Readonly<Record<string, Member>>>(
  name: string,
  description: string,
  typeOf: Refs,
) {
  const union = builder.unionType(name, {
    description,
    types: Object.values(typeOf) as Refs[keyof Refs][],
    resolveType: (details) => {
      const id = (details as Tagged<keyof Refs & string>)[CHECK_ID];
      if (id === undefined) throw new Error(`${name}: details without their check`);
      return typeOf[id];
    },
  });
  /** the details of check `id`, tagged for the union */
  const tag = <D extends object>(id: keyof Refs & string, details: D): D => ({ ...details, [CHECK_ID]: id });
  return { union, tag };
}
