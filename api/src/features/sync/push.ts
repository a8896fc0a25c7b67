/**
 * `POST /api/sync/push` (CONTRACT §5): a batch is one transaction holding the version lock; each
 * mutation in it, in order, is looked up in `applied_mutations` and, if new, written in a
 * savepoint. Its result is stored in the same transaction, so a replay after a crash, a lost
 * answer or a concurrent duplicate (which waits for the lock) finds it and answers the first result
 * without writing again. A rejection rolls back its own savepoint but is stored, so a replay is
 * rejected the same way; any other failure rolls back the whole batch (nothing half-written) and
 * the device retries it.
 */

import {
  isHandledMutation,
  MUTATION_ARGS,
  type Mutation,
  type MutationResult,
  type PushBody,
  type PushResponse,
} from '@buble/sync/protocol'
import { inArray } from 'drizzle-orm'
import { ZodError } from 'zod'
import type { Db } from '../../db/client.ts'
import { appliedMutations } from '../../db/schema.ts'
import type { UserRow } from '../../lib/accounts.ts'
import { ID_IN_USE } from '../../lib/entity-ids.ts'
import { AppError, validationError } from '../../lib/errors.ts'
import type { MutationHandlers } from '../../lib/sync-sources.ts'
import { type SyncWriter, syncWrite, withWriter } from '../../lib/sync-writes.ts'

type Rejection = { code: string; message: string }
type Stored = { status: 'applied'; data: unknown } | ({ status: 'rejected' } & Rejection)

// Failures that say nothing about the mutation itself: the whole push fails and the device retries.
const TRANSIENT = new Set(['RATE_LIMITED', 'INTERNAL_ERROR', 'BAD_GATEWAY', 'SERVICE_UNAVAILABLE'])

/** The rejection a thrown error stands for, or null when it is not the mutation's fault. */
function rejectionOf(err: unknown): Rejection | null {
  if (err instanceof AppError) return TRANSIENT.has(err.code) ? null : { code: err.code, message: err.message }
  if (err instanceof ZodError) {
    const e = validationError(err.issues)
    return { code: e.code, message: e.message }
  }
  return null
}

/** The mutation's checked args and the call that applies them, or why it cannot be applied at all. */
function prepare(
  handlers: MutationHandlers,
  user: UserRow,
  mutation: Mutation,
): { run: () => Promise<unknown> } | { rejection: Rejection } {
  const { name } = mutation
  if (!isHandledMutation(name)) return { rejection: { code: 'UNKNOWN_MUTATION', message: `Unknown mutation: ${name}` } }
  const parsed = MUTATION_ARGS[name].safeParse(mutation.args)
  if (!parsed.success) {
    const e = validationError(parsed.error.issues)
    return { rejection: { code: e.code, message: e.message } }
  }
  const handler = handlers[name] as (user: UserRow, args: unknown) => Promise<unknown>
  return { run: () => handler(user, parsed.data) }
}

const answer = (id: string, stored: Stored, replay: boolean): MutationResult =>
  stored.status === 'applied'
    ? { id, status: replay ? 'duplicate' : 'applied', ...(stored.data === undefined ? {} : { data: stored.data }) }
    : { id, status: 'rejected', code: stored.code, message: stored.message }

export type PushHooks = {
  /** Tests only: runs after a batch commits, before the answer is sent (to simulate a crash). */
  afterCommit?: (mutations: readonly Mutation[]) => Promise<void> | void
}

type Claim = { userId: string; result: Stored }

export function createPushHandler(db: Db, handlers: MutationHandlers, hooks: PushHooks = {}) {
  async function applyOne(w: SyncWriter, user: UserRow, mutation: Mutation): Promise<Stored> {
    const prepared = prepare(handlers, user, mutation)
    if ('rejection' in prepared) return { status: 'rejected', ...prepared.rejection }
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
      const rejection = rejectionOf(err)
      if (!rejection) throw err
      return { status: 'rejected', ...rejection }
    }
  }

  return async function push(user: UserRow, body: PushBody): Promise<PushResponse> {
    const results = await syncWrite(db, async (w) => {
      // The version lock is held: a concurrent push of the same mutations waits, then finds them here.
      const ids = [...new Set(body.mutations.map((mutation) => mutation.id))]
      const known = new Map<string, Claim>(
        (
          await w.tx
            .select({ id: appliedMutations.id, userId: appliedMutations.userId, result: appliedMutations.result })
            .from(appliedMutations)
            .where(inArray(appliedMutations.id, ids))
        ).map((row) => [row.id, { userId: row.userId, result: row.result as Stored }]),
      )
      const records: (typeof appliedMutations.$inferInsert)[] = []
      const answers: MutationResult[] = []
      // In order: a later mutation may depend on an earlier one (a comment on a post made offline).
      for (const mutation of body.mutations) {
        const first = known.get(mutation.id)
        if (first) {
          // Another user's mutation id: refused, revealing nothing about it.
          answers.push(
            first.userId === user.id
              ? answer(mutation.id, first.result, true)
              : answer(mutation.id, { status: 'rejected', code: 'CONFLICT', message: ID_IN_USE }, false),
          )
          continue
        }
        const stored = await applyOne(w, user, mutation)
        known.set(mutation.id, { userId: user.id, result: stored })
        records.push({ id: mutation.id, userId: user.id, clientId: body.clientId, name: mutation.name, result: stored })
        answers.push(answer(mutation.id, stored, false))
      }
      // Committed with the writes: a replay finds them.
      if (records.length > 0) await w.tx.insert(appliedMutations).values(records)
      return answers
    })
    await hooks.afterCommit?.(body.mutations)
    return { results }
  }
}
