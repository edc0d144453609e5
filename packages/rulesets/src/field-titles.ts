// A form's labels as zod titles (ADR 13: a schema's title is the label a
// generated form shows). Kept on the inner schema of an optional field: the
// sheet model and the catalogue unwrap `.optional()`, and a title on the
// wrapper would be lost with it.
import { z } from 'zod';

/** The field with `title` as its label (inside `.optional()`); unchanged without one. */
export function titled(f: z.ZodType, title: string | undefined): z.ZodType {
  if (title === undefined) return f;
  return f instanceof z.ZodOptional ? (f.unwrap() as z.ZodType).meta({ title }).optional() : f.meta({ title });
}

/** Every field of a shape titled from `titles` (a field without one is left as it is). */
export function withTitles(shape: { readonly [key: string]: z.ZodType }, titles: { readonly [key: string]: string }): { [key: string]: z.ZodType } {
  return Object.fromEntries(Object.entries(shape).map(([k, f]) => [k, titled(f, titles[k])]));
}
