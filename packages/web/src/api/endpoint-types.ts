import type { z } from 'zod';

// The helpers the endpoint tables (endpoints.ts, endpoints-staff.ts) write their shapes with.

/** What a request body must be: the schema's input (defaults may be left out). */
export type In<S extends z.ZodType> = z.input<S>;
/** What an answer is: the schema's output, as the server serialises it. */
export type Out<S extends z.ZodType> = z.output<S>;
/**
 * A query string's fields: optional where the schema lets them be left out, typed as the server
 * reads them after coercion (numbers, booleans), since every value travels as text.
 */
export type QueryOf<S extends z.ZodType> = { [K in keyof In<S>]: K extends keyof Out<S> ? Out<S>[K] : In<S>[K] };
/** A route that reads no body and answers 204. */
export type NoContent = Record<never, never>;
