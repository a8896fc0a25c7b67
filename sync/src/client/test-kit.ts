/** Test helpers for the client half: a device database in memory, a scriptable transport, a hand-moved clock. */

import type { DeviceAuthor, LocalRow, RowStore } from '@buble/shared/device-rows'
import { IDBKeyRange, indexedDB } from 'fake-indexeddb'
import type { MutationResult, PullResponse, PushBody, PushResponse } from '../protocol.ts'
import type { Timers } from './engine.ts'
import { type DeviceSchema, type LocalDb, openLocalDb } from './local-db.ts'
import type { Transport } from './transport.ts'

let counter = 0

/** A fresh device database of `device` (fake-indexeddb); open it again by `name` to simulate a restart. */
export function openTestDb<T extends string>(
  device: DeviceSchema<T>,
  name = `test-${process.pid}-${++counter}`,
): LocalDb<T> {
  return openLocalDb(name, device, { indexedDB, IDBKeyRange })
}

export const alice: DeviceAuthor = {
  id: '0192b3c4-0000-7000-8000-00000000a11c',
  name: 'Alice Andersson',
  email: 'alice@example.com',
  avatar_url: null,
}

/** A buble, and a moment, for rows made in tests. */
export const B1 = '0192b3c4-0000-7000-8000-0000000000b1'
export const AT = '2026-11-23T10:00:00.000Z'

/** A second member, for rows the device did not write. */
export const bob: DeviceAuthor = {
  id: '0192b3c4-0000-7000-8000-000000000b0b',
  name: 'Bob Berg',
  email: 'bob@example.com',
  avatar_url: null,
}

/** A transport whose answers the test decides; records every call. */
export function scriptedTransport(script: {
  push?: (body: PushBody) => PushResponse | Promise<PushResponse>
  pull?: (cursor: string | undefined, limit: number) => PullResponse | Promise<PullResponse>
}) {
  const pushes: PushBody[] = []
  const pulls: (string | undefined)[] = []
  const transport: Transport = {
    async push(body) {
      pushes.push(body)
      if (!script.push) return { results: body.mutations.map((m) => ({ id: m.id, status: 'applied' as const })) }
      return script.push(body)
    },
    async pull(cursor, limit) {
      pulls.push(cursor)
      if (!script.pull) return { cursor: cursor ?? 'c0', hasMore: false, changes: [] }
      return script.pull(cursor, limit)
    },
  }
  return { transport, pushes, pulls }
}

/** Timers that fire only when the test moves the clock. */
export function manualClock(start = Date.parse('2026-11-23T10:00:00Z')) {
  let now = start
  let nextId = 1
  const pending = new Map<number, { at: number; fn: () => void }>()
  const timers: Timers = {
    setTimeout(fn, ms) {
      const id = nextId++
      pending.set(id, { at: now + ms, fn })
      return id
    },
    clearTimeout(handle) {
      pending.delete(handle as number)
    },
  }
  return {
    timers,
    now: () => now,
    /** The delays of the timers waiting now, shortest first. */
    waiting: () => [...pending.values()].map((timer) => timer.at - now).sort((a, b) => a - b),
    /** Moves the clock, firing every timer that comes due (in order). */
    advance(ms: number) {
      const until = now + ms
      for (;;) {
        const due = [...pending.entries()].filter(([, timer]) => timer.at <= until).sort((a, b) => a[1].at - b[1].at)[0]
        if (!due) break
        pending.delete(due[0])
        now = due[1].at
        due[1].fn()
      }
      now = until
    },
  }
}

/** Wraps a transport, keeping every push answer (to check what the server said of each mutation). */
export function recordingTransport(base: Transport): { transport: Transport; answers: MutationResult[] } {
  const answers: MutationResult[] = []
  return {
    answers,
    transport: {
      async push(body) {
        const answer = await base.push(body)
        answers.push(...answer.results)
        return answer
      },
      pull: (cursor, limit) => base.pull(cursor, limit),
    },
  }
}

/** Rows in memory, for running one change by itself. */
export function memoryStore(rows: { table: string; row: LocalRow }[] = []) {
  const tables = new Map<string, Map<string, LocalRow>>()
  const tableOf = (table: string) => {
    if (!tables.has(table)) tables.set(table, new Map())
    return tables.get(table)!
  }
  for (const { table, row } of rows) tableOf(table).set(row.id, row)
  const store: RowStore = {
    get: async (table, id) => structuredClone(tableOf(table).get(id)),
    put: async (table, row) => {
      tableOf(table).set(row.id, structuredClone(row))
    },
    delete: async (table, id) => {
      tableOf(table).delete(id)
    },
  }
  const snapshot = () =>
    Object.fromEntries(
      [...tables].filter(([, map]) => map.size > 0).map(([table, map]) => [table, Object.fromEntries([...map].sort())]),
    )
  return { store, snapshot }
}
