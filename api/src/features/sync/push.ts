/**
 * `POST /api/sync/push` (CONTRACT §5): each mutation in order, each in its own transaction that
 * first claims the mutation's id in `applied_mutations`. The claim, the write and the stored result
 * commit together, so a replay after a crash, a lost answer or a concurrent duplicate finds the
 * claim and answers the first result without writing again. A rejection rolls the write back (a
 * savepoint) but keeps the claim, so a replay is rejected the same way.
 */

import {
  isHandledMutation,
  MUTATION_ARGS,
  type Mutation,
  type MutationResult,
  type PushBody,
  type PushResponse,
} from '@buble/sync/protocol'
import { eq } from 'drizzle-orm'
import { ZodError } from 'zod'
import type { Db } from '../../db/client.ts'
import { appliedMutations } from '../../db/schema.ts'
import type { UserRow } from '../../lib/accounts.ts'
import { ID_IN_USE } from '../../lib/entity-ids.ts'
import { AppError, validationError } from '../../lib/errors.ts'
import type { MutationHandlers } from '../../lib/sync-sources.ts'
import { syncWrite, withWriter } from '../../lib/sync-writes.ts'

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
  /** Tests only: runs after a mutation commits, before the answer is sent (to simulate a crash). */
  afterCommit?: (mutation: Mutation) => Promise<void> | void
}

export function createPushHandler(db: Db, handlers: MutationHandlers, hooks: PushHooks = {}) {
  async function applyOne(user: UserRow, clientId: string, mutation: Mutation): Promise<MutationResult> {
    const result = await syncWrite(db, async (w) => {
      const claimed = await w.tx
        .insert(appliedMutations)
        .values({ id: mutation.id, userId: user.id, clientId, name: mutation.name })
        .onConflictDoNothing()
        .returning({ id: appliedMutations.id })
      if (claimed.length === 0) {
        const [first] = await w.tx.select().from(appliedMutations).where(eq(appliedMutations.id, mutation.id))
        // Another user's mutation id: refused, revealing nothing about it.
        if (!first || first.userId !== user.id)
          return answer(mutation.id, { status: 'rejected', code: 'CONFLICT', message: ID_IN_USE }, false)
        return answer(mutation.id, first.result as Stored, true)
      }
      let stored: Stored
      const prepared = prepare(handlers, user, mutation)
      if ('rejection' in prepared) stored = { status: 'rejected', ...prepared.rejection }
      else {
        try {
          const data = await w.tx.transaction(async (savepoint) => {
            const child = w.fork(savepoint)
            const out = await withWriter(child, prepared.run)
            w.absorb(child)
            return out
          })
          stored = { status: 'applied', data: data ?? null }
        } catch (err) {
          const rejection = rejectionOf(err)
          if (!rejection) throw err
          stored = { status: 'rejected', ...rejection }
        }
      }
      await w.tx.update(appliedMutations).set({ result: stored }).where(eq(appliedMutations.id, mutation.id))
      return answer(mutation.id, stored, false)
    })
    await hooks.afterCommit?.(mutation)
    return result
  }

  return async function push(user: UserRow, body: PushBody): Promise<PushResponse> {
    const results: MutationResult[] = []
    // In order: a later mutation may depend on an earlier one (a comment on a post made offline).
    for (const mutation of body.mutations) results.push(await applyOne(user, body.clientId, mutation))
    return { results }
  }
}
