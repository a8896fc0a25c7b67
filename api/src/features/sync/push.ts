/**
 * `POST /api/sync/push` (CONTRACT §5). A batch is cut into groups: each run of consecutive
 * mutations in one buble (`args.buble_id`) is one transaction, and any other mutation is one on its
 * own, so a push holds no lock across its batch and writes in different bubles never wait for one
 * another (decision 91). A group first claims its mutation ids in `applied_mutations`: a concurrent
 * duplicate waits on the claim, then finds it committed and answers the first result without
 * writing again; a replay after a crash or a lost answer finds it the same way. The mutations are
 * then written (straight in the transaction; if one fails, the group runs again with a savepoint
 * each), and their results stored with the claims in the same transaction. Consecutive plain
 * creates (posts, messages, bubles) go to their service's batcher, one statement per kind
 * (decision 93). A
 * mutation succeeds or fails on its own: a refusal, a rate limit, or a fault of the server's own
 * code rolls back its savepoint alone and is stored as its rejection, and the rest of the batch
 * applies. A deadlock or a serialization failure runs the group again (`syncWrite`); a database that cannot serve it
 * (down, timed out) fails the push, which the device retries as it is: the groups already committed
 * then answer as duplicates. Decisions 55, 91 and 93.
 */

import { isUuid } from '@buble/shared/bubles'
import { isMutationName, MUTATION_ARGS, type MutationName } from '@buble/shared/mutations'
import { findUnsafeText, isMutationNameText } from '@buble/shared/text'
import {
  INTERNAL_REJECTION,
  type Mutation,
  type MutationResult,
  type PushBody,
  type PushResponse,
} from '@buble/sync/protocol'
import { getTableName, inArray, sql } from 'drizzle-orm'
import { ZodError } from 'zod'
import type { Db, Tx } from '../../db/client.ts'
import { appliedMutations, chatMessages, comments, events, polls, posts } from '../../db/schema.ts'
import type { UserRow } from '../../lib/accounts.ts'
import { ID_IN_USE } from '../../lib/entity-ids.ts'
import { AppError, isDatabaseUnavailable, validationError } from '../../lib/errors.ts'
import type { Logger } from '../../lib/log.ts'
import { retryAfterSeconds } from '../../lib/rate-limit.ts'
import { type MutationBatchers, type MutationHandlers, ONE_BY_ONE } from '../../lib/sync-sources.ts'
import { isRetryableWrite, pgUuidArray, type SyncWriter, syncWrite, withWriter } from '../../lib/sync-writes.ts'

type Rejection = { code: string; message: string; retryAfter?: number }
type Stored = { status: 'applied'; data: unknown } | ({ status: 'rejected' } & Rejection)

/**
 * The rejection a thrown error stands for, or null when the error is not this mutation's to carry:
 * the database could not serve the batch, so the whole push fails and the device retries it.
 */
function rejectionOf(err: unknown): Rejection | null {
  if (isDatabaseUnavailable(err)) return null
  if (err instanceof AppError) {
    if (err.code === 'SERVICE_UNAVAILABLE') return null
    if (err.code === 'RATE_LIMITED') {
      const seconds = Number(err.headers?.['Retry-After'])
      return { code: err.code, message: err.message, retryAfter: retryAfterSeconds(seconds * 1000 || 1000) }
    }
    if (err.code === 'INTERNAL_ERROR') return { ...INTERNAL_REJECTION }
    return { code: err.code, message: err.message }
  }
  if (err instanceof ZodError) {
    const e = validationError(err.issues)
    return { code: e.code, message: e.message }
  }
  return { ...INTERNAL_REJECTION }
}

/** A mutation that passed its checks: its name and its parsed args, and the call that applies them alone. */
type Prepared = { name: MutationName; args: unknown; run: () => Promise<unknown> }

/** The mutation's checked args and the call that applies them, or why it cannot be applied at all. */
function prepare(handlers: MutationHandlers, user: UserRow, mutation: Mutation): Prepared | { rejection: Rejection } {
  const { name } = mutation
  if (!isMutationName(name))
    return {
      rejection: {
        code: 'UNKNOWN_MUTATION',
        // Echoed only when it is a plain name: the answer never carries what the sender smuggled in.
        message: isMutationNameText(name) ? `Unknown mutation: ${name}` : 'Unknown mutation',
      },
    }
  const parsed = MUTATION_ARGS[name].safeParse(mutation.args)
  // Then the one text rule (@buble/shared/text), as REST's validate() does: the same words by either door.
  const unsafe = parsed.success ? findUnsafeText(mutation.args) : null
  if (!parsed.success || unsafe) {
    const e = validationError(parsed.success ? [unsafe!] : parsed.error.issues)
    return { rejection: { code: e.code, message: e.message } }
  }
  const handler = handlers[name] as (user: UserRow, args: unknown) => Promise<unknown>
  return { name, args: parsed.data, run: () => handler(user, parsed.data) }
}

/** A batcher as the push calls it, whatever its mutation's name. */
type AnyBatcher = { takes(args: unknown): boolean; apply(user: UserRow, args: readonly unknown[]): Promise<unknown[]> }

const answer = (id: string, stored: Stored, replay: boolean): MutationResult =>
  stored.status === 'applied'
    ? { id, status: replay ? 'duplicate' : 'applied', ...(stored.data === undefined ? {} : { data: stored.data }) }
    : {
        id,
        status: 'rejected',
        code: stored.code,
        message: stored.message,
        ...(stored.retryAfter ? { retryAfter: stored.retryAfter } : {}),
      }

export type PushHooks = {
  /** Tests only: runs after a batch commits, before the answer is sent (to simulate a crash). */
  afterCommit?: (mutations: readonly Mutation[]) => Promise<void> | void
  /** Tests only: runs inside each group's transaction, after its mutations (to hold it open: a hung write). */
  duringWrite?: (mutations: readonly Mutation[], tx: Tx) => Promise<void> | void
}

type Claim = { userId: string; result: Stored }

/** What `applied_mutations.name` says of a mutation whose name is not one of ours. */
const UNKNOWN_NAME = '(unknown)'

/** A table of rows that each belong to one buble. */
type BubleTable = typeof posts | typeof comments | typeof events | typeof polls | typeof chatMessages

/** Where a mutation that does not name its buble finds it: the table and the arg holding that table's id. */
const ROW_OF: Partial<Record<MutationName, { table: BubleTable; arg: string }>> = {
  'post.update': { table: posts, arg: 'id' },
  'post.delete': { table: posts, arg: 'id' },
  'comment.create': { table: posts, arg: 'post_id' },
  'comment.update': { table: comments, arg: 'id' },
  'comment.delete': { table: comments, arg: 'id' },
  'reaction.add': { table: posts, arg: 'post_id' },
  'reaction.remove': { table: posts, arg: 'post_id' },
  'event.update': { table: events, arg: 'id' },
  'event.delete': { table: events, arg: 'id' },
  'event.rsvp': { table: events, arg: 'event_id' },
  'poll.update': { table: polls, arg: 'id' },
  'poll.delete': { table: polls, arg: 'id' },
  'poll.vote': { table: polls, arg: 'poll_id' },
  'poll.unvote': { table: polls, arg: 'poll_id' },
  'chat.edit': { table: chatMessages, arg: 'id' },
  'chat.delete': { table: chatMessages, arg: 'id' },
  'chat.react': { table: chatMessages, arg: 'message_id' },
}
/** Mutations making a row whose id later mutations of the batch may name, in the table it goes to. */
const MAKES: Partial<Record<MutationName, BubleTable>> = {
  'post.create': posts,
  'comment.create': comments,
  'event.create': events,
  'poll.create': polls,
  'chat.send': chatMessages,
}
/** A mutation that locks nothing another write could wait on (a new buble is no one else's yet): it joins any group. */
export const ANY_GROUP = '*'

const argOf = (mutation: Mutation, name: string): string | null => {
  const value = (mutation.args as Record<string, unknown> | null | undefined)?.[name]
  return typeof value === 'string' && isUuid(value) ? value : null
}

/**
 * The buble each mutation writes in, as far as the batch and one read can tell (only for cutting
 * the batch into groups: every service still checks everything): its `buble_id`, the buble of the
 * row it names (made earlier in the batch, or in the database), `ANY_GROUP` for a new buble, or
 * null (a profile, a code: a group of its own).
 */
export async function bublesOf(db: Db, mutations: readonly Mutation[]): Promise<(string | null)[]> {
  const made = new Map<string, string>()
  const wanted = new Map<BubleTable, Set<string>>()
  for (const mutation of mutations) {
    const row = isMutationName(mutation.name) ? ROW_OF[mutation.name] : undefined
    const id = row && argOf(mutation, row.arg)
    if (row && id) wanted.set(row.table, (wanted.get(row.table) ?? new Set()).add(id))
  }
  const legs = [...wanted].map(
    ([table, ids]) =>
      sql`select ${getTableName(table)}::text as t, id, buble_id from ${table} where id = any(${pgUuidArray([...ids])})`,
  )
  const found = new Map<string, string>(
    legs.length === 0
      ? []
      : rowsOf<{ t: string; id: string; buble_id: string }>(await db.execute(sql.join(legs, sql` union all `))).map(
          (row) => [`${row.t}:${row.id}`, row.buble_id],
        ),
  )
  return mutations.map((mutation) => {
    if (!isMutationName(mutation.name)) return null
    if (mutation.name === 'buble.create') return ANY_GROUP
    if (mutation.name === 'buble.delete') return argOf(mutation, 'id')
    let buble = argOf(mutation, 'buble_id')
    const row = ROW_OF[mutation.name]
    const id = row && argOf(mutation, row.arg)
    if (!buble && row && id)
      buble = made.get(`${getTableName(row.table)}:${id}`) ?? found.get(`${getTableName(row.table)}:${id}`) ?? null
    const makes = MAKES[mutation.name]
    const own = argOf(mutation, 'id')
    if (makes && own && buble) made.set(`${getTableName(makes)}:${own}`, buble)
    return buble
  })
}

/** Runs of mutations in one buble (a new buble's with any), each other mutation alone. In order. */
export function groupsOf(mutations: readonly Mutation[], bubles: readonly (string | null)[]): Mutation[][] {
  const groups: { buble: string | null; mutations: Mutation[] }[] = []
  mutations.forEach((mutation, i) => {
    const buble = bubles[i] ?? null
    const current = groups.at(-1)
    if (current && buble !== null && current.buble !== null) {
      if (buble === ANY_GROUP || current.buble === ANY_GROUP || buble === current.buble) {
        if (current.buble === ANY_GROUP) current.buble = buble
        current.mutations.push(mutation)
        return
      }
    }
    groups.push({ buble, mutations: [mutation] })
  })
  return groups.map((group) => group.mutations)
}

/** A mutation of a group run without savepoints failed: the group runs again with them. */
class RunWithSavepoints extends Error {
  override name = 'RunWithSavepoints'
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows

export function createPushHandler(
  db: Db,
  log: Logger,
  handlers: MutationHandlers,
  batchers: MutationBatchers,
  hooks: PushHooks = {},
) {
  const batcherOf = (name: MutationName) => batchers[name] as AnyBatcher | undefined

  async function applyPrepared(
    w: SyncWriter,
    user: UserRow,
    mutation: Mutation,
    prepared: Prepared | { rejection: Rejection },
    savepoints: boolean,
  ): Promise<Stored> {
    if ('rejection' in prepared) return { status: 'rejected', ...prepared.rejection }
    if (!savepoints)
      try {
        return { status: 'applied', data: (await withWriter(w, prepared.run)) ?? null }
      } catch (err) {
        if (isRetryableWrite(err) || !rejectionOf(err)) throw err
        // Refused, or failed: its writes cannot be taken back alone here, so the group runs again.
        throw new RunWithSavepoints()
      }
    try {
      // A savepoint: a refusal takes back only this mutation's writes.
      const data = await w.tx.transaction(async (savepoint) => {
        const child = w.fork(savepoint)
        const out = await withWriter(child, prepared.run)
        w.absorb(child)
        return out
      })
      return { status: 'applied', data: data ?? null }
    } catch (err) {
      // A deadlock is not the mutation's fault: the group is tried again.
      if (isRetryableWrite(err)) throw err
      const rejection = rejectionOf(err)
      if (!rejection) throw err
      if (rejection.code === INTERNAL_REJECTION.code)
        log.error('mutation failed', { mutationId: mutation.id, name: mutation.name, userId: user.id, err })
      return { status: 'rejected', ...rejection }
    }
  }

  /**
   * The mutations from `start` on (the first already `prepared`) that can go in one run: new (no
   * claim known, no id twice), passing their checks, and taken by their name's batcher. Ends at the
   * first that cannot; empty when the first cannot.
   */
  function runFrom(
    user: UserRow,
    group: readonly Mutation[],
    start: number,
    prepared: Prepared | { rejection: Rejection },
    known: ReadonlyMap<string, Claim>,
  ): { mutation: Mutation; prepared: Prepared }[] {
    const run: { mutation: Mutation; prepared: Prepared }[] = []
    const ids = new Set<string>()
    for (const [k, mutation] of group.slice(start).entries()) {
      if (known.has(mutation.id) || ids.has(mutation.id)) break
      const checked = k === 0 ? prepared : prepare(handlers, user, mutation)
      if ('rejection' in checked || !batcherOf(checked.name)?.takes(checked.args)) break
      run.push({ mutation, prepared: checked })
      ids.add(mutation.id)
    }
    return run
  }

  /**
   * A run of mutations their batchers take (`MutationBatcher`), applied a name at a time, each
   * name's in one call, then what the batchers left (`ONE_BY_ONE`) one at a time, in order.
   * Answers in the run's order. The run has no savepoint of its own without `savepoints` (a
   * failure runs the group again with them); with them, it has one, and if a batcher fails, the
   * run goes one at a time instead, so the failure is one mutation's alone.
   */
  async function applyRun(
    w: SyncWriter,
    user: UserRow,
    run: readonly { mutation: Mutation; prepared: Prepared }[],
    savepoints: boolean,
  ): Promise<Stored[]> {
    const byName = new Map<MutationName, number[]>()
    for (const [i, { prepared }] of run.entries()) byName.set(prepared.name, [...(byName.get(prepared.name) ?? []), i])
    const applyAll = async (writer: SyncWriter) => {
      const outs: unknown[] = new Array(run.length)
      for (const [name, indexes] of byName) {
        const answers = await withWriter(writer, () =>
          batcherOf(name)!.apply(
            user,
            indexes.map((i) => run[i]!.prepared.args),
          ),
        )
        indexes.forEach((i, k) => {
          outs[i] = answers[k]
        })
      }
      return outs
    }
    let outs: unknown[]
    if (!savepoints)
      try {
        outs = await applyAll(w)
      } catch (err) {
        if (isRetryableWrite(err) || !rejectionOf(err)) throw err
        throw new RunWithSavepoints()
      }
    else
      try {
        outs = await w.tx.transaction(async (savepoint) => {
          const child = w.fork(savepoint)
          const out = await applyAll(child)
          w.absorb(child)
          return out
        })
      } catch (err) {
        if (isRetryableWrite(err) || !rejectionOf(err)) throw err
        log.warn('a run of mutations failed together; each is applied alone', { err, mutations: run.length })
        outs = run.map(() => ONE_BY_ONE)
      }
    const stored: Stored[] = []
    for (const [i, { mutation, prepared }] of run.entries()) {
      const out = outs[i]
      stored.push(
        out === ONE_BY_ONE || out === undefined
          ? await applyPrepared(w, user, mutation, prepared, savepoints)
          : { status: 'applied', data: out ?? null },
      )
    }
    return stored
  }

  /**
   * One group in one transaction: claims, writes, results. Answers in the group's order. Without
   * `savepoints`, the mutations run straight in the transaction (two round trips fewer each), and the
   * first that fails ends the run (`RunWithSavepoints`): the group is then run again with a savepoint
   * each, so the failure is that mutation's alone.
   */
  function writeGroup(
    user: UserRow,
    clientId: string,
    group: readonly Mutation[],
    savepoints: boolean,
  ): Promise<MutationResult[]> {
    return syncWrite(db, async (w) => {
      const ids = [...new Set(group.map((mutation) => mutation.id))]
      const names = ids.map((id) => {
        const name = group.find((mutation) => mutation.id === id)!.name
        // Only a name of ours is stored: any other is recorded as unknown, whatever it holds.
        return isMutationName(name) ? name : UNKNOWN_NAME
      })
      // The claim: an id claimed by a push still in flight waits here for it to end, then is found.
      const claimed = new Set(
        rowsOf<{ id: string }>(
          await w.tx.execute(sql`insert into applied_mutations (id, user_id, client_id, name)
            select c.id, ${user.id}, ${clientId}, c.name
            from jsonb_to_recordset(${JSON.stringify(ids.map((id, i) => ({ id, name: names[i] })))}::jsonb) as c(id uuid, name text)
            on conflict (id) do nothing
            returning id`),
        ).map((row) => row.id),
      )
      const taken = ids.filter((id) => !claimed.has(id))
      const known = new Map<string, Claim>(
        taken.length === 0
          ? []
          : (
              await w.tx
                .select({ id: appliedMutations.id, userId: appliedMutations.userId, result: appliedMutations.result })
                .from(appliedMutations)
                .where(inArray(appliedMutations.id, taken))
            ).map((row) => [row.id, { userId: row.userId, result: row.result as Stored }]),
      )
      const results: { id: string; result: Stored }[] = []
      const answers: MutationResult[] = []
      // In order: a later mutation may depend on an earlier one (a comment on a post made offline).
      for (let i = 0; i < group.length; ) {
        const mutation = group[i]!
        const first = known.get(mutation.id)
        if (first) {
          // Another user's mutation id: refused, revealing nothing about it.
          answers.push(
            first.userId === user.id
              ? answer(mutation.id, first.result, true)
              : answer(mutation.id, { status: 'rejected', code: 'CONFLICT', message: ID_IN_USE }, false),
          )
          i += 1
          continue
        }
        const prepared = prepare(handlers, user, mutation)
        const run = runFrom(user, group, i, prepared, known)
        const stored =
          run.length > 1
            ? await applyRun(w, user, run, savepoints)
            : [await applyPrepared(w, user, mutation, prepared, savepoints)]
        for (const [k, result] of stored.entries()) {
          const id = group[i + k]!.id
          known.set(id, { userId: user.id, result })
          results.push({ id, result })
          answers.push(answer(id, result, false))
        }
        i += stored.length
      }
      // Committed with the writes and the claims: a replay finds them.
      if (results.length > 0)
        await w.tx.execute(sql`update applied_mutations a set result = r.result
          from jsonb_to_recordset(${JSON.stringify(results)}::jsonb) as r(id uuid, result jsonb)
          where a.id = r.id`)
      await hooks.duringWrite?.(group, w.tx)
      return answers
    })
  }

  return async function push(user: UserRow, body: PushBody): Promise<PushResponse> {
    const results: MutationResult[] = []
    // One group after another: a later group may depend on an earlier one (a post in a buble made offline).
    for (const group of groupsOf(body.mutations, await bublesOf(db, body.mutations)))
      results.push(
        ...(await writeGroup(user, body.clientId, group, false).catch((err: unknown) => {
          if (err instanceof RunWithSavepoints) return writeGroup(user, body.clientId, group, true)
          throw err
        })),
      )
    await hooks.afterCommit?.(body.mutations)
    return { results }
  }
}
