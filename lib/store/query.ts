// How the store's queries run: each built once with Kysely, its values named (`p('name')`), compiled on first use for
// each database, then run by the dialect as a statement prepared once, with the values of the call. Building and
// compiling a query costs tens of µs every time; on SQLite the statement itself takes a few, and a chat turn runs
// dozens of them before its first model call.
import type { Compilable } from 'kysely';
import type { Db, Dialect } from './dialect';
import type { Json, Tables } from './tables';

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

/** `map`: what each row it reads is made into (fromRow, most often). */
export function query<Row, O = Row>(
  build: (d: Dialect, p: (name: string) => never) => Compilable<Row>,
  map?: (row: Row) => O,
): Query<O> {
  const compiled = new WeakMap<Dialect, { sql: string; parameters: readonly unknown[] }>();
  const exec = ({ d }: { d: Dialect }, db: Db, values: Values = {}) => {
    let c = compiled.get(d);
    if (!c) compiled.set(d, (c = build(d, named).compile()));
    const parameters = c.parameters.map((v) => {
      if (typeof v !== 'object' || v === null || !(PARAM in v)) return v;
      const value = values[v[PARAM] as string];
      if (value === undefined) throw new Error(`The store's query needs a value for "${String(v[PARAM])}".`);
      return value;
    });
    return d.run<Row>(db, c.sql, parameters);
  };
  const rows = async (on: { d: Dialect }, db: Db, values?: Values) => {
    const { rows } = await exec(on, db, values);
    return (map ? rows.map(map) : rows) as O[];
  };
  return {
    all: rows,
    first: async (on, db, values) => (await rows(on, db, values))[0],
    run: async (on, db, values) => (await exec(on, db, values)).changes,
  };
}

/** An INSERT of the call's values into `table` (their keys are its columns), compiled once per set of columns;
 *  `returning`: the columns it answers with ('*': all), made into `map`'s records; `upsert`: the key whose row, when
 *  there is one already, takes the other values instead. */
export function insert<O = never>(
  table: keyof Tables,
  {
    returning,
    map,
    upsert,
  }: { returning?: readonly string[] | '*'; map?: (row: never) => O; upsert?: readonly string[] } = {},
) {
  const shapes = new Map<string, Query<O>>();
  const shape = (values: Values = {}) => {
    const columns = Object.keys(values);
    let q = shapes.get(columns.join());
    if (!q) {
      q = query((d, p) => {
        const into = d.db
          .insertInto(table)
          .values(cols(p, columns) as never)
          .$if(!!upsert, (q) =>
            q.onConflict((oc) =>
              oc.columns(upsert as never).doUpdateSet((eb) => {
                const set = columns.filter((c) => !upsert!.includes(c));
                return Object.fromEntries(set.map((c) => [c, eb.ref(`excluded.${c}` as never)])) as never;
              }),
            ),
          );
        if (returning === '*') return into.returningAll();
        return returning ? into.returning(returning as never) : into;
      }, map) as Query<O>;
      shapes.set(columns.join(), q);
    }
    return q;
  };
  return {
    all: (on, db, values) => shape(values).all(on, db, values),
    first: (on, db, values) => shape(values).first(on, db, values),
    run: (on, db, values) => shape(values).run(on, db, values),
  } satisfies Query<O>;
}

export const toJson = <T>(value: T) => JSON.stringify(value) as Json<T>;

/** A row as its record (see Entity): one mapping for every table instead of one per table. PostgreSQL's column of
 *  insertion order (`ord`, which a SELECT * reads there) is no field of a record: it is the table's, not a column
 *  the other database has. */
export function fromRow<T>(row: object): T {
  const out: Record<string, unknown> = {};
  for (const column in row) {
    const value = (row as Record<string, unknown>)[column];
    if (value === null || column === 'ord') continue;
    const [field, json] = FIELDS.get(column) ?? fieldOf(column);
    out[field] = json ? JSON.parse(value as string) : value;
  }
  return out as T;
}

/** Each column's field, worked out once (the Runs page maps hundreds of columns a page). */
const FIELDS = new Map<string, [field: string, json: boolean]>();
function fieldOf(column: string): [string, boolean] {
  const json = column.endsWith('_json');
  const field: [string, boolean] = [
    (json ? column.slice(0, -5) : column).replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()),
    json,
  ];
  FIELDS.set(column, field);
  return field;
}
