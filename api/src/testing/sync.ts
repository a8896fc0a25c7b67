/** Helpers for tests that push and pull through the real app. */

import type { Change, MutationResult, PullResponse } from '@buble/sync/protocol'
import { v7 as uuidv7 } from 'uuid'
import type { Harness } from './harness.ts'

export interface TestMutation {
  id: string
  name: string
  args: Record<string, unknown>
  createdAt: string
}

/** A mutation as a device would queue it. */
export const mutation = (name: string, args: Record<string, unknown>, id: string = uuidv7()): TestMutation => ({
  id,
  name,
  args,
  createdAt: new Date().toISOString(),
})

/** Pushes a batch and answers its results; fails the test on anything but 200. */
export async function push(h: Harness, token: string, mutations: TestMutation[], clientId = 'test-device') {
  const res = await h.call('POST', '/api/sync/push', { token, body: { clientId, mutations } })
  if (res.status !== 200) throw new Error(`push answered ${res.status}: ${await res.text()}`)
  return ((await res.json()) as { results: MutationResult[] }).results
}

export async function pullPage(h: Harness, token: string, cursor?: string, limit?: number): Promise<PullResponse> {
  const query = new URLSearchParams()
  if (cursor !== undefined) query.set('cursor', cursor)
  if (limit !== undefined) query.set('limit', String(limit))
  const res = await h.call('GET', `/api/sync/pull?${query}`, { token })
  if (res.status !== 200) throw new Error(`pull answered ${res.status}: ${await res.text()}`)
  return (await res.json()) as PullResponse
}

/** Pulls page after page until `hasMore` is false. */
export async function pullAll(h: Harness, token: string, cursor?: string, limit?: number) {
  const changes: Change[] = []
  let next = cursor
  let pages = 0
  let reset = false
  for (;;) {
    const page = await pullPage(h, token, next, limit)
    pages += 1
    reset ||= page.reset === true
    changes.push(...page.changes)
    next = page.cursor
    if (!page.hasMore) return { changes, cursor: next, pages, reset }
    if (pages > 10_000) throw new Error('pull never ended')
  }
}

/** What a device holds after applying changes in order: entity → id → data (a buble's `del` drops its content). */
export function applyChanges(changes: readonly Change[], state = new Map<string, Map<string, Change>>()) {
  for (const change of changes) {
    if (change.op === 'del' && change.entity === 'buble') {
      for (const rows of state.values()) for (const [id, row] of rows) if (row.buble_id === change.id) rows.delete(id)
      continue
    }
    const rows = state.get(change.entity) ?? new Map<string, Change>()
    state.set(change.entity, rows)
    if (change.op === 'del') rows.delete(change.id)
    else rows.set(change.id, change)
  }
  return state
}

/** Ids per entity of a device state, sorted, for comparing two states. */
export const idsOf = (state: Map<string, Map<string, Change>>) =>
  Object.fromEntries([...state].map(([entity, rows]) => [entity, [...rows.keys()].sort()]))
