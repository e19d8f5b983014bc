// How the store's queries run: each built once with Kysely, its values named (`p('name')`), compiled on first use for
// each database, then run by the dialect as a statement prepared once, with the values of the call. Building and
// compiling a query costs tens of µs every time; on SQLite the statement itself takes a few, and a chat turn runs
// dozens of them before its first model call.
import type { Compilable } from 'kysely';
import type { Db, Dialect } from './dialect';

const PARAM = Symbol('param');
/** A value of the call, by name (`p('id')`). */
const named = (name: string): never => ({ [PARAM]: name }) as never;

type Values = Record<string, unknown>;

export interface Query<O> {
  all(on: { d: Dialect }, db: Db, values?: Values): Promise<O[]>;
  first(on: { d: Dialect }, db: Db, values?: Values): Promise<O | undefined>;
  /** How many rows it changed. */
  run(on: { d: Dialect }, db: Db, values?: Values): Promise<number>;
}

/** The named values of these columns (`p(column)` each), for .values() and .set(): the call gives a row's fields. */
export function cols<const K extends string>(p: (name: string) => never, columns: readonly K[]): Record<K, never> {
  return Object.fromEntries(columns.map((c) => [c, p(c)])) as Record<K, never>;
}

export function query<O>(build: (d: Dialect, p: (name: string) => never) => Compilable<O>): Query<O> {
  const compiled = new WeakMap<Dialect, { sql: string; parameters: readonly unknown[] }>();
  const exec = ({ d }: { d: Dialect }, db: Db, values: Values = {}) => {
    let c = compiled.get(d);
    if (!c) compiled.set(d, (c = build(d, named).compile()));
    const parameters = c.parameters.map((v) =>
      typeof v === 'object' && v !== null && PARAM in v ? values[v[PARAM] as string] : v,
    );
    return d.run<O>(db, c.sql, parameters);
  };
  return {
    all: async (on, db, values) => (await exec(on, db, values)).rows,
    first: async (on, db, values) => (await exec(on, db, values)).rows[0],
    run: async (on, db, values) => (await exec(on, db, values)).changes,
  };
}
