/**
 * The GraphQL object types of jobs, built from their one declaration (src/jobs/job-shape.ts): each named
 * zod object becomes the object type of its name, each named enum the enum type, and each field the field
 * of the same name, type, nullability and description. A field added to a job's shape is in the schema
 * with no code here.
 */
import type { z } from 'zod';
import { builder } from '../builder.js';
import { JOB_SCHEMAS } from '../../jobs/job-shape.js';

type Ref = unknown;
const made = new Map<z.ZodType, Ref>();

interface ZodDef {
  readonly type: string;
  readonly innerType?: z.ZodType;
  readonly element?: z.ZodType;
  readonly shape?: Record<string, z.ZodType>;
  readonly entries?: Record<string, string>;
  readonly format?: string;
}
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: ZodDef } })._zod.def;

function nameOf(schema: z.ZodType): string {
  const meta = JOB_SCHEMAS.get(schema);
  if (!meta) throw new Error('jobs: a nested object or enum of a job shape needs a name (JOB_SCHEMAS)');
  return meta.id;
}

/** The schema without its nullable/optional wrappers, whether it may be null, and the first description met. */
function unwrapped(schema: z.ZodType): { inner: z.ZodType; nullable: boolean; description: string | undefined } {
  let inner = schema;
  let nullable = false;
  let description = schema.description;
  for (;;) {
    const def = defOf(inner);
    if ((def.type === 'nullable' || def.type === 'optional') && def.innerType) {
      nullable = true;
      inner = def.innerType;
      description ??= inner.description;
    } else return { inner, nullable, description };
  }
}

/** The Pothos type of a field's (unwrapped) schema: a scalar name, a list, or a named enum or object. */
function typeOf(schema: z.ZodType, field: string): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case 'string':
      return field === 'id' ? 'ID' : 'String';
    case 'number':
      return def.format === 'safeint' || def.format === 'int32' ? 'Int' : 'Float';
    case 'boolean':
      return 'Boolean';
    case 'array':
      return [typeOf(unwrapped(def.element!).inner, field)];
    case 'enum':
      // a named enum is a GraphQL enum; an unnamed one is a string of the listed values
      return JOB_SCHEMAS.has(schema) ? enumOf(schema) : 'String';
    case 'object':
      return objectOf(schema);
    default:
      return 'JSON';
  }
}

function enumOf(schema: z.ZodType): Ref {
  const known = made.get(schema);
  if (known) return known;
  const meta = JOB_SCHEMAS.get(schema);
  const ref = builder.enumType(nameOf(schema), {
    ...(meta?.description ? { description: meta.description } : {}),
    values: Object.values(defOf(schema).entries!),
  });
  made.set(schema, ref);
  return ref;
}

/** The object type of a named zod object (made once; its fields resolve to the properties of the same name). */
export function objectOf<T>(schema: z.ZodType<T>): Ref {
  const known = made.get(schema);
  if (known) return known;
  const meta = JOB_SCHEMAS.get(schema);
  const ref = builder.objectRef<Record<string, unknown>>(nameOf(schema));
  made.set(schema, ref);
  ref.implement({
    ...(meta?.description ? { description: meta.description } : {}),
    fields: (t) =>
      Object.fromEntries(
        Object.entries(defOf(schema).shape!).map(([name, field]) => {
          const { inner, nullable, description } = unwrapped(field);
          return [
            name,
            t.field({
              type: typeOf(inner, name) as 'String',
              nullable,
              ...(description ? { description } : {}),
              resolve: (parent) => (parent[name] ?? null) as string,
            }),
          ];
        }),
      ),
  });
  return ref;
}
