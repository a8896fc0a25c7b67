/**
 * `POST /api/sync/push` (CONTRACT §5): a batch is one transaction holding the version lock; each
 * mutation in it, in order, is looked up in `applied_mutations` and, if new, written in a
 * savepoint. Its result is stored in the same transaction, so a replay after a crash, a lost
 * answer or a concurrent duplicate (which waits for the lock) finds it and answers the first result
 * without writing again. A mutation succeeds or fails on its own: a refusal, a rate limit, or a
 * fault of the server's own code rolls back its savepoint alone and is stored as its rejection, and
 * the rest of the batch applies. Only a database that cannot serve the batch (down, timed out) fails
 * the whole push, which the device retries as it is. Decision 55.
 */

import { isMutationName, MUTATION_ARGS } from '@buble/shared/mutations'
import { findUnsafeText, isMutationNameText } from '@buble/shared/text'
import {
  INTERNAL_REJECTION,
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
import { AppError, isDatabaseUnavailable, validationError } from '../../lib/errors.ts'
import type { Logger } from '../../lib/log.ts'
import { retryAfterSeconds } from '../../lib/rate-limit.ts'
import type { MutationHandlers } from '../../lib/sync-sources.ts'
import { type SyncWriter, syncWrite, withWriter } from '../../lib/sync-writes.ts'

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

/** The mutation's checked args and the call that applies them, or why it cannot be applied at all. */
function prepare(
  handlers: MutationHandlers,
  user: UserRow,
  mutation: Mutation,
): { run: () => Promise<unknown> } | { rejection: Rejection } {
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
  return { run: () => handler(user, parsed.data) }
}

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
  /** Tests only: runs inside the batch's transaction, after its mutations (to hold it open: a hung write). */
  duringWrite?: (mutations: readonly Mutation[]) => Promise<void> | void
}

type Claim = { userId: string; result: Stored }

/** What `applied_mutations.name` says of a mutation whose name is not one of ours. */
const UNKNOWN_NAME = '(unknown)'

export function createPushHandler(db: Db, log: Logger, handlers: MutationHandlers, hooks: PushHooks = {}) {
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
      if (rejection.code === INTERNAL_REJECTION.code)
        log.error('mutation failed', { mutationId: mutation.id, name: mutation.name, userId: user.id, err })
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
        // Only a name of ours is stored: any other is recorded as unknown, whatever it holds.
        const name = isMutationName(mutation.name) ? mutation.name : UNKNOWN_NAME
        records.push({ id: mutation.id, userId: user.id, clientId: body.clientId, name, result: stored })
        answers.push(answer(mutation.id, stored, false))
      }
      // Committed with the writes: a replay finds them.
      if (records.length > 0) await w.tx.insert(appliedMutations).values(records)
      await hooks.duringWrite?.(body.mutations)
      return answers
    })
    await hooks.afterCommit?.(body.mutations)
    return { results }
  }
}
