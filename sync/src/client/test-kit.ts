/** Test helpers for the client half: a device database in memory, a scriptable transport, a hand-moved clock. */

import { IDBKeyRange, indexedDB } from 'fake-indexeddb'
import type { MutationResult, PullResponse, PushBody, PushResponse } from '../protocol.ts'
import type { Timers } from './engine.ts'
import { type Actor, type LocalDb, openLocalDb } from './local-db.ts'
import type { Transport } from './transport.ts'

let counter = 0

/** A fresh device database (fake-indexeddb); open it again by `name` to simulate a restart. */
export function testDb(name = `test-${process.pid}-${++counter}`): LocalDb {
  return openLocalDb(name, { indexedDB, IDBKeyRange })
}

export const alice: Actor = {
  id: '0192b3c4-0000-7000-8000-00000000a11c',
  name: 'Alice Andersson',
  email: 'alice@example.com',
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
