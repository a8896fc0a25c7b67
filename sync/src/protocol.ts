/**
 * The offline-first wire protocol of CONTRACT §5: the push and pull shapes. Both halves (the PWA's
 * outbox and the server's push handler) validate with these; the mutations themselves, and the
 * entities a change may name, are declared in @buble/shared (mutations.ts, entities.ts).
 */

import { ENTITIES } from '@buble/shared/entities'
import { hasUnsafeText, isClientIdText, unsafeTextMessage } from '@buble/shared/text'
import { z } from 'zod'

/** The most mutations one push may carry. */
export const MAX_PUSH_BATCH = 100
/** The most changes one pull answers by default. */
export const DEFAULT_PULL_LIMIT = 500
/** The most changes one pull may ask for; a device asks for this many (fewer round trips on a first sync). */
export const MAX_PULL_LIMIT = 1000

/** One queued mutation as it crosses the wire; its args are checked per name by the server. */
export const Mutation = z.object({
  id: z.uuid(),
  // Any string: a name the server does not know rejects that mutation alone (UNKNOWN_MUTATION), and
  // only a name of ours is ever stored or echoed.
  name: z.string().max(256),
  args: z.record(z.string(), z.unknown()),
  createdAt: z
    .string()
    .max(64)
    .refine((at) => !hasUnsafeText(at), unsafeTextMessage('createdAt')),
})
export type Mutation = z.infer<typeof Mutation>

export const PushBody = z.object({
  // Stored with every applied mutation: checked for length and characters first.
  clientId: z.string().refine(isClientIdText, 'clientId must be 1 to 128 letters, digits or . _ : -'),
  mutations: z.array(Mutation).min(1).max(MAX_PUSH_BATCH),
})
export type PushBody = z.infer<typeof PushBody>

export const MutationResult = z.object({
  id: z.string(),
  status: z.enum(['applied', 'duplicate', 'rejected']),
  code: z.string().optional(),
  message: z.string().optional(),
  /** With `RATE_LIMITED`: seconds until the same mutation may be tried again (the device shows when). */
  retryAfter: z.number().int().positive().optional(),
  data: z.unknown().optional(),
})
export type MutationResult = z.infer<typeof MutationResult>

/**
 * The code of a mutation that failed on the server for a reason of the server's own (a bug, not the
 * mutation's args or rights): rejected alone, so the rest of the batch and of the queue flows. A
 * device that gets 5xx answers three times for one batch also marks its culprit with it.
 */
export const INTERNAL_REJECTION = { code: 'INTERNAL', message: 'Something went wrong on the server' } as const

export const PushResponse = z.object({ results: z.array(MutationResult) })
export type PushResponse = z.infer<typeof PushResponse>

export const Change = z.object({
  entity: z.enum(ENTITIES),
  op: z.enum(['put', 'del']),
  id: z.string(),
  buble_id: z.string().nullable(),
  data: z.unknown().optional(),
})
export type Change = z.infer<typeof Change>

export const PullQuery = z.object({
  // Opaque to clients; the server answers `reset` for one it cannot read.
  cursor: z.string().max(8192).optional(),
  limit: z.coerce.number().int().min(1).max(MAX_PULL_LIMIT).default(DEFAULT_PULL_LIMIT),
})
export type PullQuery = z.infer<typeof PullQuery>

export const PullResponse = z.object({
  cursor: z.string(),
  hasMore: z.boolean(),
  reset: z.boolean().optional(),
  changes: z.array(Change),
})
export type PullResponse = z.infer<typeof PullResponse>
