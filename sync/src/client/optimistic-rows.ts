/**
 * The shapes most optimistic changes share: make a row the user owns, edit one, change one without
 * marking it, delete one. Each sets values from the mutation's args, so running it again over the
 * rows a pull brought gives the same rows (optimistic.ts).
 */

import type { MemberRef } from '@buble/shared/bubles'
import { REACTION_TYPES, type Reactions, type ReactionType, summarise } from '@buble/shared/wall'
import type { Actor, LocalRow, RowTable } from './local-db.ts'
import type { RowRef, RowStore } from './optimistic.ts'

/** The actor as rows name their author or creator (CONTRACT §3: MemberRef). */
export const memberRefOf = (actor: Actor): MemberRef => ({
  id: actor.id,
  name: actor.name,
  avatar_url: actor.avatar_url,
})

/** A row reference maker for one table. */
export const refTo =
  (table: RowTable) =>
  (id: string): RowRef => ({ table, id })

/** Rewrites a row that is on the device; a row that is not (deleted meanwhile) stays absent. */
export async function updateRow(
  store: RowStore,
  table: RowTable,
  id: string,
  change: (row: LocalRow) => LocalRow,
): Promise<void> {
  const row = await store.get(table, id)
  if (row) await store.put(table, change(row))
}

type RowChange<A> = {
  touches(args: A): RowRef[]
  apply(store: RowStore, args: A, actor: Actor, createdAt: string): Promise<void>
}

/**
 * A create: the new row, marked pending. Re-applied over the server's row (an answered create
 * waiting for the end of a pull), the server's row wins: it may carry what only the server knows.
 */
export function createRow<A extends { id: string }>(
  table: RowTable,
  build: (args: A, actor: Actor, createdAt: string) => LocalRow,
): RowChange<A> {
  return {
    touches: (args) => [{ table, id: args.id }],
    async apply(store, args, actor, createdAt) {
      if (await store.get(table, args.id)) return
      await store.put(table, { ...build(args, actor, createdAt), _pending: true })
    },
  }
}

/** An edit by the user: the fields `edit` answers are set and the row reads pending. */
export function editRow<A extends { id: string }>(
  table: RowTable,
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
  table: RowTable,
  idKey: { [K in keyof A]: A[K] extends string ? K : never }[keyof A],
  change: (row: LocalRow, args: A, actor: Actor) => LocalRow,
): RowChange<A> {
  const idOf = (args: A) => args[idKey] as string
  return {
    touches: (args) => [{ table, id: idOf(args) }],
    apply: (store, args, actor) => updateRow(store, table, idOf(args), (row) => change(row, args, actor)),
  }
}

/** A delete: the row leaves the device at once. */
export function deleteRow<A extends { id: string }>(table: RowTable): RowChange<A> {
  return {
    touches: (args) => [{ table, id: args.id }],
    apply: (store, args) => store.delete(table, args.id),
  }
}

/** The row with the actor's reaction `type` in or out, in the order the server lists them (posts, chat messages). */
export function withReaction(row: LocalRow, actor: Actor, type: ReactionType, on: boolean): LocalRow {
  const reactions = { ...((row.reactions as Reactions | undefined) ?? {}) }
  const mine = new Set(reactions[actor.id] ?? [])
  if (on) mine.add(type)
  else mine.delete(type)
  const next = REACTION_TYPES.filter((candidate) => mine.has(candidate))
  if (next.length > 0) reactions[actor.id] = next
  else delete reactions[actor.id]
  return { ...row, reactions, reactionsSummary: summarise(reactions) }
}

/** Whether the actor's reactions on the row include `type`. */
export const hasReaction = (row: LocalRow | undefined, actor: Actor, type: ReactionType) =>
  ((row?.reactions as Reactions | undefined)?.[actor.id] ?? []).includes(type)
