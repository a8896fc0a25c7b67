/**
 * `GET /api/sync/pull` (CONTRACT §5) over a store: every change since the cursor in the caller's
 * bubles, ordered by version, a page at a time. A buble joined since the cursor comes whole (from
 * version 0); a buble left comes as a `del`. A quiet caller costs two small reads and no scan.
 */

import type { Change, Entity, PullResponse } from '../protocol.ts'
import {
  advanceCursor,
  type CursorState,
  decodeCursor,
  encodeCursor,
  freshCursor,
  isUsable,
  lowerBound,
  type MemberBuble,
  type SyncState,
} from './cursor.ts'

/** One row of the change scan, before its data is loaded. */
export interface ScannedChange {
  entity: Entity
  id: string
  buble_id: string | null
  version: number
  op: 'put' | 'del'
}

export interface ScanRequest {
  userId: string
  /** Bubles to scan, each from its own lower bound (exclusive). */
  bounds: readonly { id: string; lower: number }[]
  /** Every buble the caller belongs to: a user-scoped `del` of one of these is stale (they rejoined). */
  memberOf: readonly string[]
  /** Lower bound (exclusive) of the caller's own changes: bubles they lost. */
  userLower: number
  limit: number
}

/** What the pull needs from the database. */
export interface PullStore {
  /** The sync epoch, the newest version ever issued, and the tombstone horizon (older cursors may have missed deletes). */
  state(): Promise<SyncState>
  memberBubles(userId: string): Promise<MemberBuble[]>
  /** The newest version of a change addressed to the user alone (a buble they lost), or 0. */
  userHead(userId: string): Promise<number>
  /** Changes ordered by version, at most `limit`. */
  scan(request: ScanRequest): Promise<ScannedChange[]>
  /** The data of `put` changes, as the caller would get it from REST; ids it cannot find are left out. */
  load(entity: Entity, ids: readonly string[], userId: string): Promise<Map<string, unknown>>
  /** Runs `fn` over one consistent snapshot of the database. */
  snapshot<T>(fn: (store: PullStore) => Promise<T>): Promise<T>
}

function readCursor(raw: string | undefined, state: SyncState) {
  if (!raw) return { cursor: freshCursor(state.epoch, state.horizon), reset: false }
  const cursor = decodeCursor(raw)
  if (cursor && isUsable(cursor, state)) return { cursor, reset: false }
  return { cursor: freshCursor(state.epoch, state.horizon), reset: true }
}

export async function pull(
  store: PullStore,
  userId: string,
  query: { cursor?: string | undefined; limit: number },
): Promise<PullResponse> {
  const quick = await quiet(store, userId, query.cursor)
  if (quick) return quick
  return store.snapshot(async (snap) => {
    const state = await snap.state()
    const { cursor, reset } = readCursor(query.cursor, state)
    const [bubles, userHead] = await Promise.all([snap.memberBubles(userId), snap.userHead(userId)])
    const page = await readPage(snap, userId, cursor, bubles, userHead, query.limit, state.horizon)
    return reset ? { ...page, reset: true } : page
  })
}

/** The answer for a device that is up to date, found without a snapshot or a scan; null when there may be changes. */
async function quiet(store: PullStore, userId: string, raw: string | undefined): Promise<PullResponse | null> {
  if (!raw) return null
  const [state, bubles, userHead] = await Promise.all([
    store.state(),
    store.memberBubles(userId),
    store.userHead(userId),
  ])
  const { cursor, reset } = readCursor(raw, state)
  if (reset || userHead > cursor.version) return null
  if (bubles.some((buble) => buble.changedVersion > lowerBound(cursor, buble))) return null
  return { cursor: raw, hasMore: false, changes: [] }
}

async function readPage(
  store: PullStore,
  userId: string,
  cursor: CursorState,
  bubles: readonly MemberBuble[],
  userHead: number,
  limit: number,
  horizon: number,
): Promise<PullResponse> {
  const bounds = bubles
    .map((buble) => ({ id: buble.id, lower: lowerBound(cursor, buble), changed: buble.changedVersion }))
    .filter((buble) => buble.changed > buble.lower)
  const scanned = await store.scan({
    userId,
    bounds,
    memberOf: bubles.map((buble) => buble.id),
    userLower: cursor.version,
    limit: limit + 1,
  })
  const hasMore = scanned.length > limit
  const rows = hasMore ? scanned.slice(0, limit) : scanned
  const changes = await withData(store, rows, userId)
  // A device with a cursor may still hold a buble it left and has since rejoined (it never saw the
  // `del`): it drops what it has of each newly joined buble before the buble arrives whole.
  const fresh =
    cursor.version > 0
      ? bounds
          .filter((buble) => buble.lower === 0)
          .map((buble): Change => ({ entity: 'buble', op: 'del', id: buble.id, buble_id: buble.id }))
      : []
  // A complete answer covers everything committed in this snapshot for the caller, up to each
  // buble's newest stamp and the caller's newest own change, so the next pull of a quiet device
  // takes the quick path.
  const last = rows.at(-1)?.version ?? 0
  const reached = hasMore ? last : Math.max(last, userHead, ...bubles.map((buble) => buble.changedVersion))
  const next = advanceCursor(cursor, bubles, reached, hasMore, horizon)
  return { cursor: encodeCursor(next), hasMore, changes: [...fresh, ...changes] }
}

/** Loads each entity's data in one call, keeping the scan's order; a row gone since the scan is left out. */
async function withData(store: PullStore, rows: readonly ScannedChange[], userId: string): Promise<Change[]> {
  const wanted = new Map<Entity, string[]>()
  for (const row of rows) {
    if (row.op !== 'put') continue
    const ids = wanted.get(row.entity) ?? []
    ids.push(row.id)
    wanted.set(row.entity, ids)
  }
  const loaded = new Map<Entity, Map<string, unknown>>()
  await Promise.all([...wanted].map(async ([entity, ids]) => loaded.set(entity, await store.load(entity, ids, userId))))
  const changes: Change[] = []
  for (const row of rows) {
    const base = { entity: row.entity, id: row.id, buble_id: row.buble_id }
    if (row.op === 'del') {
      changes.push({ ...base, op: 'del' })
      continue
    }
    const data = loaded.get(row.entity)?.get(row.id)
    if (data !== undefined) changes.push({ ...base, op: 'put', data })
  }
  return changes
}
