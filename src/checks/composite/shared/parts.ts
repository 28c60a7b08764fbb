/**
 * The parts of a composite that are single checks (tls-rating in website-health-check, mta-sts in
 * mailhealth-check). Each such check says in its own declaration how its composite embeds it (`partOf`:
 * the part's id, label and place, its rule, and how it asks and judges), so a check joins a composite from
 * its own folder. From the parts joined, the composite derives the rest:
 * - each part's details type, `<Prefix><Id>Details` (WebsiteTlsRatingDetails), with one field holding the
 *   check's own result type under the check's field name (tlsRating): GraphQL forbids one response name
 *   with two types across a union's members, so each part's data has a field of its own;
 * - the `@flatten` mark of that field in the composite's REST document (src/rest/flatten.ts), since REST
 *   answers the data itself as the part's details (docs/contract/grades.md "website-health-check");
 * - its place in the composite's checks, after the composite's own, by `order`, and so in the verdict
 *   (./verdict.ts counts every check alike).
 */
import type { ObjectRef } from '@pothos/core';
import { builder } from '../../../graphql/builder.js';
import type { CheckDeclaration, PartOfComposite } from '../../../graphql/check-declaration.js';

export type DetailsRef = ObjectRef<typeof builder.$inferSchemaTypes, Record<string, unknown>>;

/** What every embedded part says of itself; each composite adds how it asks and judges. */
export interface PartSpec {
  /** the part's id among the composite's checks (`tls-rating`) */
  readonly id: string;
  /** the human-readable name (`TLS rating`) */
  readonly label: string;
  /** how the composite's description names the part, when not by its label (`a light TLS grade`) */
  readonly named?: string;
  /** a sentence of the composite's description about the part: what it does differently from its check */
  readonly note?: string;
  /** where the part sits among the joined parts, ascending (after the composite's own checks) */
  readonly order: number;
  /** the details type's description: what the part reports and its rule, status by status */
  readonly description: string;
  /** the details field holding the check's data; by default the check's Query field (`tlsRating`) */
  readonly field?: string;
  /** that field's description */
  readonly fieldDescription: string;
}

export interface JoinedPart<S extends PartSpec> {
  readonly spec: S;
  /** the embedded check */
  readonly check: CheckDeclaration;
  /** the details field holding the check's data */
  readonly field: string;
  readonly details: DetailsRef;
}

/** `tls-rating` → `TlsRating` */
const pascal = (id: string) => id.replace(/(^|-)([a-z])/g, (_m, _dash, c: string) => c.toUpperCase());

export class CompositeParts<S extends PartSpec> {
  readonly #joined: JoinedPart<S>[] = [];

  /**
   * `typePrefix` names the details types (`Website` → WebsiteTlsRatingDetails); `nullableData` says whether
   * a part that could not run has its data field null (website-health-check) or other details instead.
   */
  constructor(
    readonly composite: string,
    readonly typePrefix: string,
    readonly nullableData: boolean,
  ) {}

  /** The `partOf` entry of a check's declaration. */
  part(spec: S): PartOfComposite {
    return { composite: this.composite, id: spec.id, join: (check) => this.#join(spec, check) };
  }

  #join(spec: S, check: CheckDeclaration): void {
    if (this.#joined.some((p) => p.spec.id === spec.id))
      throw new Error(`${this.composite}: part ${spec.id} joined twice (${check.tool})`);
    const field = spec.field ?? check.field;
    const details: DetailsRef = builder
      .objectRef<Record<string, unknown>>(`${this.typePrefix}${pascal(spec.id)}Details`)
      .implement({
        description: spec.description,
        fields: (t) => ({
          [field]: t.field({
            type: check.type as never,
            nullable: this.nullableData,
            description: spec.fieldDescription,
            resolve: (d) => d[field] as never,
          }),
        }),
      });
    this.#joined.push({ spec, check, field, details });
    this.#joined.sort((a, b) => a.spec.order - b.spec.order);
  }

  /** The parts joined, by `order`: complete once every declaration is loaded (the schema assembly). */
  get joined(): readonly JoinedPart<S>[] {
    return this.#joined;
  }

  /** The part of `id`, or undefined. */
  partOf(id: string): JoinedPart<S> | undefined {
    return this.#joined.find((p) => p.spec.id === id);
  }

  /** The fields REST answers in place of their holder (`WebsiteTlsRatingDetails.tlsRating`). */
  flattenMarks(): string[] {
    return this.#joined.map((p) => `${this.typePrefix}${pascal(p.spec.id)}Details.${p.field}`);
  }
}
