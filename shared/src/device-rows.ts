/**
 * The vocabulary of optimistic changes: what a mutation does to the device's rows before the server
 * has seen it, written against a RowStore so the same code runs when the mutation is made and when
 * it is re-applied over rows a pull brought (rebase). Changes set values rather than adjust them, so
 * running one twice is the same as once. A change that depends on the rows it finds (a toggle)
 * settles what it comes to once, when it is made, and every run sets that (`settle`). The sync
 * engine (@buble/sync/client) runs them; the features' changes are declared in device.ts.
 */

import type { MemberRef } from './bubles.ts'
import type { MutationArgs, MutationName } from './mutations.ts'

/** A synced row as stored on the device: the entity's REST shape plus its change id and buble. */
export interface LocalRow {
  id: string
  buble_id: string | null
  /** Set on rows changed here and not yet confirmed by a pull. */
  _pending?: true
  [field: string]: unknown
}

/** Who makes the mutations on this device: what optimistic rows say about their author. */
export interface DeviceAuthor {
  id: string
  name: string
  email: string
  avatar_url: string | null
}

/** The device's rows as an optimistic change reads and writes them, table by table. */
export interface RowStore {
  get(table: string, id: string): Promise<LocalRow | undefined>
  put(table: string, row: LocalRow): Promise<void>
  delete(table: string, id: string): Promise<void>
}

export interface RowRef {
  table: string
  id: string
}

export interface Optimistic<N extends MutationName> {
  /** Every row the change may write or delete. */
  touches(args: MutationArgs<N>, author: DeviceAuthor): RowRef[]
  /**
   * What a change that depends on the device's rows comes to (a toggle: on or off), worked out
   * once when the mutation is made and kept on its outbox entry; never sent to the server.
   */
  settle?(store: RowStore, args: MutationArgs<N>, author: DeviceAuthor): Promise<unknown>
  /** `settled` is what `settle` answered when the mutation was made. */
  apply(
    store: RowStore,
    args: MutationArgs<N>,
    author: DeviceAuthor,
    createdAt: string,
    settled?: unknown,
  ): Promise<void>
}

/** The optimistic change of each mutation of a group (`typeof WALL_MUTATIONS`, say). */
export type OptimisticOf<Group> = { [N in keyof Group & MutationName]: Optimistic<N> }

/** The author as rows name their author or creator (CONTRACT §3: MemberRef). */
export const memberRefOf = (author: DeviceAuthor): MemberRef => ({
  id: author.id,
  name: author.name,
  avatar_url: author.avatar_url,
})

/** A row reference maker for one table. */
export const refTo =
  (table: string) =>
  (id: string): RowRef => ({ table, id })

/** Rewrites a row that is on the device; a row that is not (deleted meanwhile) stays absent. */
export async function updateRow(
  store: RowStore,
  table: string,
  id: string,
  change: (row: LocalRow) => LocalRow,
): Promise<void> {
  const row = await store.get(table, id)
  if (row) await store.put(table, change(row))
}

type RowChange<A> = {
  touches(args: A): RowRef[]
  apply(store: RowStore, args: A, author: DeviceAuthor, createdAt: string): Promise<void>
}

/**
 * A create: the new row, marked pending. Re-applied over the server's row (an answered create
 * waiting for the end of a pull), the server's row wins: it may carry what only the server knows.
 */
export function createRow<A extends { id: string }>(
  table: string,
  build: (args: A, author: DeviceAuthor, createdAt: string) => LocalRow,
): RowChange<A> {
  return {
    touches: (args) => [{ table, id: args.id }],
    async apply(store, args, author, createdAt) {
      if (await store.get(table, args.id)) return
      await store.put(table, { ...build(args, author, createdAt), _pending: true })
    },
  }
}

/** An edit by the user: the fields `edit` answers are set and the row reads pending. */
export function editRow<A extends { id: string }>(
  table: string,
  edit: (row: LocalRow, args: A) => Partial<LocalRow>,
): RowChange<A> {
  return {
    touches: (args) => [{ table, id: args.id }],
    apply: (store, args) => updateRow(store, table, args.id, (row) => ({ ...row, ...edit(row, args), _pending: true })),
  }
}

/**
 * A change that is not the user's writing (a reaction, an RSVP, a vote): the row changes and keeps
 * its pending mark, or its lack of one.
 */
export function changeRow<A>(
  table: string,
  idKey: { [K in keyof A]: A[K] extends string ? K : never }[keyof A],
  change: (row: LocalRow, args: A, author: DeviceAuthor) => LocalRow,
): RowChange<A> {
  const idOf = (args: A) => args[idKey] as string
  return {
    touches: (args) => [{ table, id: idOf(args) }],
    apply: (store, args, author) => updateRow(store, table, idOf(args), (row) => change(row, args, author)),
  }
}

/** A delete: the row leaves the device at once. */
export function deleteRow<A extends { id: string }>(table: string): RowChange<A> {
  return {
    touches: (args) => [{ table, id: args.id }],
    apply: (store, args) => store.delete(table, args.id),
  }
}
