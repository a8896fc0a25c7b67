/**
 * The pull cursor: where a device stands, in three numbers whatever the number of bubles.
 * - `version`: the device has every change up to it of every buble it had joined by then;
 * - `lower` and `upTo`: bubles joined after `version`, up to the join at `upTo`, are being
 *   backfilled from version 0 and the device has their changes up to `lower`.
 * A buble joined after `upTo` is new: it is read from 0, and a backfill under way starts over with
 * it (rare; it re-sends rows the device already has, which is harmless).
 * Opaque to clients: base64url of JSON.
 */

import { z } from 'zod'

export interface CursorState {
  /** The database's sync epoch: a cursor of another database (or of a reset one) is not ours. */
  epoch: string
  version: number
  /** How far the backfill of bubles joined in (version, upTo] has come. */
  lower: number
  upTo: number
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

/** What the server knows of its own sync history. */
export interface SyncState {
  epoch: string
  /** Above every version issued so far: a cursor beyond it comes from another database. */
  maxVersion: number
  /**
   * Every version at or below it has committed or never will (the rest may still be in flight):
   * a pull reads no further, so a change that commits late is never passed over.
   */
  settled: number
  /** Tombstones up to this version have been purged. */
  horizon: number
}

const Wire = z.object({
  e: z.string().min(1).max(64),
  v: z.number().int().min(0),
  l: z.number().int().min(0).optional(),
  k: z.number().int().min(0).optional(),
  h: z.number().int().min(0).optional(),
})

export function encodeCursor(state: CursorState): string {
  const wire: z.infer<typeof Wire> = { e: state.epoch, v: state.version }
  if (state.upTo > state.version) {
    wire.l = state.lower
    wire.k = state.upTo
  }
  if (state.horizon > 0) wire.h = state.horizon
  return Buffer.from(JSON.stringify(wire)).toString('base64url')
}

/** The cursor's state, or null when it is not one of ours (not base64url JSON of the right shape). */
export function decodeCursor(raw: string): CursorState | null {
  try {
    const parsed = Wire.safeParse(JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')))
    if (!parsed.success) return null
    const { e, v, l = 0, k = 0, h = 0 } = parsed.data
    if (l > v) return null
    // Without a backfill under way there is nothing below the version to track.
    return k > v
      ? { epoch: e, version: v, lower: l, upTo: k, horizon: h }
      : { epoch: e, version: v, lower: v, upTo: v, horizon: h }
  } catch {
    return null
  }
}

/** A device that has never pulled. */
export const freshCursor = (epoch: string, horizon = 0): CursorState => ({
  epoch,
  version: 0,
  lower: 0,
  upTo: 0,
  horizon,
})

/**
 * Whether a cursor can be read here: issued by this database (same epoch, not from its future),
 * and not left behind by a purge since it was issued (deletes it still needs are gone).
 */
export function isUsable(cursor: CursorState, state: SyncState): boolean {
  if (cursor.epoch !== state.epoch || cursor.version > state.maxVersion) return false
  if (cursor.horizon >= state.horizon) return true
  const behind = (version: number) => version > 0 && version < state.horizon
  return !behind(cursor.version) && !(cursor.upTo > cursor.version && behind(cursor.lower))
}

/** The cursor as this caller's bubles read it: a buble joined beyond the backfill restarts it with it. */
export function settle(cursor: CursorState, bubles: readonly MemberBuble[]): CursorState {
  const newest = Math.max(0, ...bubles.map((buble) => buble.joinedVersion))
  if (newest <= cursor.upTo) return cursor
  return { ...cursor, lower: 0, upTo: newest }
}

/** What the device already has of a buble: every change up to this version. */
export function lowerBound(cursor: CursorState, buble: MemberBuble): number {
  if (buble.joinedVersion <= cursor.version) return cursor.version
  if (buble.joinedVersion <= cursor.upTo) return cursor.lower
  return 0
}

/**
 * The cursor after a page. Changes come ordered by version, so a page that reached version
 * `reached` holds every change up to it of every buble; with `hasMore` false it holds all of them,
 * and `reached` is at least every join, so nothing is left to backfill.
 */
export function advanceCursor(cursor: CursorState, reached: number, hasMore: boolean, horizon: number): CursorState {
  const version = Math.max(cursor.version, reached)
  if (!hasMore) return { epoch: cursor.epoch, version, lower: version, upTo: version, horizon }
  const lower = Math.min(Math.max(cursor.lower, reached), version)
  return { epoch: cursor.epoch, version, lower, upTo: Math.max(cursor.upTo, version), horizon }
}
