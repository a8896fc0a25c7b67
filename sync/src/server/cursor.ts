/**
 * The pull cursor: where a device stands. `version` is the newest version it has of every buble it
 * had when it last pulled; `lower` holds the bubles it is still catching up on (joined since, and
 * backfilled page by page from version 0). Opaque to clients: base64url of JSON.
 */

import { z } from 'zod'

export interface CursorState {
  /** The database's sync epoch: a cursor of another database (or of a reset one) is not ours. */
  epoch: string
  version: number
  /** Per-buble lower bounds below `version`. */
  lower: Record<string, number>
  /** The tombstone horizon when the cursor was issued: a later purge may have taken deletes it needs. */
  horizon: number
}

/** A buble the caller belongs to, as the pull sees it. */
export interface MemberBuble {
  id: string
  /** The version of the caller's join. */
  joinedVersion: number
  /** The newest version written anywhere in the buble. */
  changedVersion: number
}

const Wire = z.object({
  e: z.string().min(1).max(64),
  v: z.number().int().min(0),
  b: z.record(z.uuid(), z.number().int().min(0)).optional(),
  h: z.number().int().min(0).optional(),
})

export function encodeCursor(state: CursorState): string {
  const wire: z.infer<typeof Wire> = { e: state.epoch, v: state.version }
  if (Object.keys(state.lower).length > 0) wire.b = state.lower
  if (state.horizon > 0) wire.h = state.horizon
  return Buffer.from(JSON.stringify(wire)).toString('base64url')
}

/** The cursor's state, or null when it is not one of ours (not base64url JSON of the right shape). */
export function decodeCursor(raw: string): CursorState | null {
  try {
    const parsed = Wire.safeParse(JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')))
    if (!parsed.success) return null
    return { epoch: parsed.data.e, version: parsed.data.v, lower: parsed.data.b ?? {}, horizon: parsed.data.h ?? 0 }
  } catch {
    return null
  }
}

/** A device that has never pulled. */
export const freshCursor = (epoch: string, horizon = 0): CursorState => ({ epoch, version: 0, lower: {}, horizon })

/** What the server knows of its own sync history. */
export interface SyncState {
  epoch: string
  /** The newest version ever issued. */
  maxVersion: number
  /** Tombstones up to this version have been purged. */
  horizon: number
}

/**
 * Whether a cursor can be read here: issued by this database (same epoch, not from its future),
 * and not left behind by a purge since it was issued (deletes it still needed are gone).
 */
export function isUsable(cursor: CursorState, state: SyncState): boolean {
  if (cursor.epoch !== state.epoch || cursor.version > state.maxVersion) return false
  if (cursor.horizon >= state.horizon) return true
  const behind = (version: number) => version > 0 && version < state.horizon
  return !behind(cursor.version) && !Object.values(cursor.lower).some(behind)
}

/** What the device already has of a buble: everything up to this version. A buble joined since its cursor: nothing. */
export function lowerBound(state: CursorState, buble: MemberBuble): number {
  const listed = state.lower[buble.id]
  if (listed !== undefined) return Math.min(listed, state.version)
  return buble.joinedVersion <= state.version ? state.version : 0
}

/**
 * The cursor after a page. Changes come ordered by version, so a page that reached version
 * `reached` holds every change up to it of every buble; with `hasMore` false it holds all of them.
 */
export function advanceCursor(
  state: CursorState,
  bubles: readonly MemberBuble[],
  reached: number,
  hasMore: boolean,
  horizon: number,
): CursorState {
  const version = Math.max(state.version, reached)
  const lower: Record<string, number> = {}
  for (const buble of bubles) {
    const bound = hasMore ? Math.max(lowerBound(state, buble), reached) : version
    // Listed only where the default rule would read it wrongly next time.
    const byDefault = buble.joinedVersion <= version ? version : 0
    if (bound !== byDefault) lower[buble.id] = bound
  }
  return { epoch: state.epoch, version, lower, horizon }
}
