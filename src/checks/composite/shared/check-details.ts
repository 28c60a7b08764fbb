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

/** A member whatever the check's id, for the details `is` recognises (a part that has no data of its own). */
export interface OtherDetails<Type extends Member> {
  readonly type: Type;
  readonly is: (details: unknown) => boolean;
}

export function checkDetailsUnion<Refs extends Readonly<Record<string, Member>>, Other extends Member = never>(
  name: string,
  description: string,
  typeOf: Refs,
  others: readonly OtherDetails<Other>[] = [],
) {
  const members: (Refs[keyof Refs] | Other)[] = [
    ...(Object.values(typeOf) as Refs[keyof Refs][]),
    ...others.map((o) => o.type),
  ];
  const union = builder.unionType(name, {
    description,
    types: members,
    resolveType: (details) => {
      const other = others.find((o) => o.is(details));
      if (other) return other.type;
      const id = (details as Tagged<keyof Refs & string>)[CHECK_ID];
      if (id === undefined) throw new Error(`${name}: details without their check`);
      return typeOf[id];
    },
  });
  /** the details of check `id`, tagged for the union */
  const tag = <D extends object>(id: keyof Refs & string, details: D): D => ({ ...details, [CHECK_ID]: id });
  return { union, tag };
}
