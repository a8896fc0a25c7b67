/**
 * The steps every content service takes around its rows (posts, comments, stories, events, polls,
 * chat messages): load a row for a member of its buble or 404, judge it by the content rules,
 * touch it (a new version and a poke), remove it with a tombstone, and create it once per client id.
 * Each service makes one kit per table and keeps its own queries, answers and side effects.
 */

import { type ContentAction, type ContentKind, mayOnContent } from '@buble/shared/permissions'
import { and, eq, exists, type SQL } from 'drizzle-orm'
import type { AnyPgColumn, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core'
import type { Executor } from '../db/client.ts'
import { claimId } from './entity-ids.ts'
import { forbidden } from './errors.ts'
import { type MembershipRow, memberActorOf, requireMembershipOr, requireWriter } from './memberships.ts'
import { NEXT_VERSION, openWrite, type SyncWriter } from './sync-writes.ts'

/** A synced content table: rows with an id, in a buble, and a version moved on every update. */
type ContentTable = PgTable & { id: AnyPgColumn; bubleId: AnyPgColumn; version: AnyPgColumn }
type RowOf<T extends ContentTable> = T['$inferSelect'] & { id: string; bubleId: string }

export interface ContentSpec<T extends ContentTable> {
  table: T
  /** The content rules' kind, also the sync entity and the kind its client ids are claimed as. */
  kind: ContentKind
  /** The 404 of a missing row, also answered to a non-member: they must not learn it exists. */
  notFound: () => Error
  /** Who made the row: the author the content rules judge. */
  authorOf: (row: RowOf<T>) => string
  /** The 403's text when the rules refuse an action (a kind that has no edit names none). */
  refusals: Partial<Record<ContentAction, string>>
}

export function contentKit<T extends ContentTable>({ table, kind, notFound, authorOf, refusals }: ContentSpec<T>) {
  /** The row, or the 404; `lock` holds it for this transaction (a platform admin's delete). */
  async function find(tx: Executor, id: string, lock = false): Promise<RowOf<T>> {
    const query = tx
      .select()
      .from(table as PgTable)
      .where(eq(table.id, id))
      .limit(1)
    const [row] = (await (lock ? query.for('update') : query)) as RowOf<T>[]
    if (!row) throw notFound()
    return row
  }

  /** The row and the caller's member row in its buble; the same 404 for a missing row and an outsider. */
  async function forMember(tx: Executor, id: string, userId: string): Promise<{ row: RowOf<T>; me: MembershipRow }> {
    const first = await find(tx, id)
    // Inside a sync write the membership check locks the buble (lib/memberships.ts): once it is
    // held, the row is read again, as another write in the buble may have changed it meanwhile.
    const locking = openWrite()?.holds(first.bubleId) === false
    const me = await requireMembershipOr(tx, first.bubleId, userId, notFound)
    return { row: locking ? await find(tx, id) : first, me }
  }

  /** Whether the member `me` may edit or delete the row (shared/permissions.ts `mayOnContent`). */
  const may = (me: MembershipRow, action: ContentAction, row: RowOf<T>): boolean =>
    mayOnContent(memberActorOf(me), action, { kind, authorId: authorOf(row) })

  return {
    find,
    forMember,

    /**
     * The row for a member who may delete it: 404 as `forMember`, else the 403 of its refusal. A
     * muted member may still delete (decision 100); editing goes through `forEdit`.
     */
    async forAction(tx: Executor, id: string, userId: string, action: 'content.delete'): Promise<RowOf<T>> {
      const { row, me } = await forMember(tx, id, userId)
      if (!may(me, action, row)) throw forbidden(refusals[action])
      return row
    },

    /** The row for a member who may edit it and is not muted at `now` (the muted refusal first: it is theirs whatever the row). */
    async forEdit(tx: Executor, id: string, userId: string, now: Date): Promise<RowOf<T>> {
      const { row, me } = await forMember(tx, id, userId)
      requireWriter(me, now)
      if (!may(me, 'content.edit', row)) throw forbidden(refusals['content.edit'])
      return row
    },

    /** The row and the member row, for a member who is not muted at `now` (commenting on it, reacting, voting, answering). */
    async forWriter(
      tx: Executor,
      id: string,
      userId: string,
      now: Date,
    ): Promise<{ row: RowOf<T>; me: MembershipRow }> {
      const found = await forMember(tx, id, userId)
      requireWriter(found.me, now)
      return found
    },

    /** The row's data changed (`set`, or what its answer carries): a new version, so devices pull it again. */
    async touch(w: SyncWriter, row: RowOf<T>, set: PgUpdateSetSource<T> = {}): Promise<void> {
      await w.tx
        .update(table)
        .set({ ...set, version: NEXT_VERSION } as PgUpdateSetSource<T>)
        .where(eq(table.id, row.id))
      w.changed(row.bubleId, kind)
    },

    /** Deletes the row (what references it goes by cascade); devices get a `del`. */
    async remove(w: SyncWriter, row: RowOf<T>): Promise<void> {
      await w.tx.delete(table).where(eq(table.id, row.id))
      await w.deleted(kind, row.bubleId, [row.id])
    },

    /**
     * Claims a client id for a new row (lib/entity-ids.ts): 'existing' only while the row made with
     * it is found by `where` (the buble or post the request names). The caller has checked it may
     * read what the request names (a member of that buble), so a row found there is one it may read.
     */
    claim(tx: Executor, id: string, userId: string, where: SQL): Promise<'new' | 'existing'> {
      const found = tx
        .select({ id: table.id })
        .from(table as PgTable)
        .where(and(eq(table.id, id), where))
      return claimId(tx, id, kind, userId, exists(found))
    },
  }
}
