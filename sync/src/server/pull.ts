/**
 * `GET /api/sync/pull` (CONTRACT §5) over a store: every change since the cursor in the caller's
 * bubles, ordered by version, a page at a time. A buble joined since the cursor comes whole (from
 * version 0); a buble left comes as a `del`. A quiet caller costs two small reads and no scan.
 */

import type { Entity } from '@buble/shared/entities'
import type { Change, PullResponse } from '../protocol.ts'
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
  settle,
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
  /** Upper bound (inclusive) of every change: the settled version (`SyncState.settled`). */
  upper: number
  limit: number
}

/** What a pull reads before it scans: the server's sync state and the caller's bubles. */
export interface PullOutline {
  state: SyncState
  bubles: MemberBuble[]
  /** The newest version of a change addressed to the caller alone (a buble they lost), or 0. */
  userHead: number
}

/** What the pull needs from the database. */
export interface PullStore {
  /** One read: the sync state, the caller's bubles and their newest own change. */
  outline(userId: string): Promise<PullOutline>
  /** Changes ordered by version, at most `limit`. */
  scan(request: ScanRequest): Promise<ScannedChange[]>
  /** The data of `put` changes, as the caller would get it from REST; ids it cannot find are left out. */
  load(entity: Entity, ids: readonly string[], userId: string): Promise<Map<string, unknown>>
  /**
   * Rows that changed because these did, for this caller (their unread counters when content was
   * added or removed): sent after the page's own changes, outside the version order.
   */
  derive?(rows: readonly ScannedChange[], userId: string): ScannedChange[]
  /** Runs `fn` over one consistent snapshot of the database. */
  snapshot<T>(fn: (store: PullStore) => Promise<T>): Promise<T>
  /**
   * A pull had to stop short of changes already committed, held back by a write still in flight:
   * the caller's devices are to be told to pull again once versions up to `version` have settled.
   */
  unsettled?(userId: string, bubleId: string | null, version: number): void
}

/** How long a pull waits, at most, for writes in flight that hold back what it can read (ms, one wait after another). */
const SETTLE_WAITS = [2, 5, 10, 20, 40, 80, 150]

/** Remembers cursors found up to date, so asking again needs no read (see the api's quiet cache). */
export interface QuietCache {
  isQuiet(userId: string, cursor: string): boolean
  /** A mark taken before reading, so changes made while reading still count. */
  begin(): number
  quiet(userId: string, cursor: string, bubles: readonly string[], since: number): void
}

function readCursor(raw: string | undefined, state: SyncState): { cursor: CursorState; reset: boolean } {
  if (!raw) return { cursor: freshCursor(state.epoch, state.horizon), reset: false }
  const cursor = decodeCursor(raw)
  if (cursor && isUsable(cursor, state)) return { cursor, reset: false }
  return { cursor: freshCursor(state.epoch, state.horizon), reset: true }
}

export async function pull(
  store: PullStore,
  userId: string,
  query: { cursor?: string | undefined; limit: number },
  cache?: QuietCache,
): Promise<PullResponse> {
  const raw = query.cursor
  if (raw && cache?.isQuiet(userId, raw)) return { cursor: raw, hasMore: false, changes: [] }
  const since = cache?.begin() ?? 0
  const outline = await store.outline(userId)
  const quick = quiet(outline, raw)
  if (quick) {
    if (raw)
      cache?.quiet(
        userId,
        raw,
        outline.bubles.map((buble) => buble.id),
        since,
      )
    return quick
  }
  // Writes commit out of version order: what committed after a write still in flight waits for it.
  // It is usually a matter of milliseconds, so the pull waits a little, then answers what has
  // settled and has the devices told to pull again when the rest has.
  for (let attempt = 0; ; attempt++) {
    const { page, pending } = await store.snapshot(async (snap) => {
      const outline = await snap.outline(userId)
      const { cursor, reset } = readCursor(query.cursor, outline.state)
      const read = await readPage(snap, userId, settle(cursor, outline.bubles), outline, query.limit)
      return { page: reset ? { ...read.page, reset: true } : read.page, pending: read.pending }
    })
    if (!pending) return page
    const wait = SETTLE_WAITS[attempt]
    if (wait === undefined) {
      store.unsettled?.(userId, pending.bubleId, pending.version)
      return page
    }
    await new Promise((resolve) => setTimeout(resolve, wait))
  }
}

/** The answer for a device that is up to date, found without a snapshot or a scan; null when there may be changes. */
function quiet({ state, bubles, userHead }: PullOutline, raw: string | undefined): PullResponse | null {
  if (!raw) return null
  const { cursor, reset } = readCursor(raw, state)
  if (reset || userHead > cursor.version) return null
  const settled = settle(cursor, bubles)
  if (bubles.some((buble) => buble.changedVersion > lowerBound(settled, buble))) return null
  return { cursor: raw, hasMore: false, changes: [] }
}

/** Committed changes a page could not include, because a write still in flight may come before them. */
interface Pending {
  /** The newest such version (a change, a buble's stamp, a join). */
  version: number
  /** A buble it is in, for the poke that will tell the devices; null for the caller's own changes. */
  bubleId: string | null
}

async function readPage(
  store: PullStore,
  userId: string,
  cursor: CursorState,
  { state, bubles: member, userHead }: PullOutline,
  limit: number,
): Promise<{ page: PullResponse; pending: Pending | null }> {
  const { settled } = state
  // A join that has not settled is read once it has (its buble then comes whole).
  const bubles = member.filter((buble) => buble.joinedVersion <= settled)
  const bounds = bubles
    .map((buble) => ({ id: buble.id, lower: lowerBound(cursor, buble), changed: buble.changedVersion }))
    .filter((buble) => buble.changed > buble.lower)
  const scanned = await store.scan({
    userId,
    bounds,
    memberOf: member.map((buble) => buble.id),
    userLower: cursor.version,
    upper: settled,
    limit: limit + 1,
  })
  const hasMore = scanned.length > limit
  const rows = hasMore ? scanned.slice(0, limit) : scanned
  const seen = new Set(rows.map((row) => `${row.entity}|${row.id}`))
  const derived = (store.derive?.(rows, userId) ?? []).filter((row) => !seen.has(`${row.entity}|${row.id}`))
  const changes = await withData(store, [...rows, ...derived], userId)
  // A device with a cursor may still hold a buble it left and has since rejoined (it never saw the
  // `del`): it drops what it has of each buble it now receives from the start, before it arrives.
  const fresh =
    cursor.version > 0
      ? bounds
          .filter((buble) => buble.lower === 0)
          .map((buble): Change => ({ entity: 'buble', op: 'del', id: buble.id, buble_id: buble.id }))
      : []
  // A complete answer covers everything committed in this snapshot for the caller, up to each
  // buble's newest stamp and the caller's newest own change, so the next pull of a quiet device
  // takes the quick path; but never beyond what has settled.
  const last = rows.at(-1)?.version ?? 0
  const newest = Math.max(userHead, ...member.map((buble) => Math.max(buble.changedVersion, buble.joinedVersion)))
  const reached = hasMore ? last : Math.min(settled, Math.max(last, newest))
  const next = advanceCursor(cursor, reached, hasMore, state.horizon)
  const page = { cursor: encodeCursor(next), hasMore, changes: [...fresh, ...changes] }
  if (hasMore || newest <= settled) return { page, pending: null }
  const held = member.find((buble) => Math.max(buble.changedVersion, buble.joinedVersion) > settled)
  return { page, pending: { version: newest, bubleId: held?.id ?? null } }
}

/** Loads each entity's data (one call per entity), keeping the scan's order; a row gone since the scan is left out. */
async function withData(store: PullStore, rows: readonly ScannedChange[], userId: string): Promise<Change[]> {
  const wanted = new Map<Entity, string[]>()
  for (const row of rows) {
    if (row.op !== 'put') continue
    const ids = wanted.get(row.entity) ?? []
    ids.push(row.id)
    wanted.set(row.entity, ids)
  }
  // One after another: inside a snapshot they share one connection.
  const loaded = new Map<Entity, Map<string, unknown>>()
  for (const [entity, ids] of wanted) loaded.set(entity, await store.load(entity, ids, userId))
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
