/**
 * Issue 22 §4, the short version in `npm test`: the chaos harness (testing/chaos/) with a few
 * fixed seeds on two real API nodes and PostgreSQL. Every kind of fault is injected at least once
 * per seed, and every invariant must hold after each run; `npm run chaos` runs many more seeds
 * (CHAOS_TEST_SEEDS=5,6 runs other seeds here, to replay one the long run found).
 * Runs only with TEST_DATABASE_URL set: two processes cannot share the embedded PGlite.
 */

import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  type ChaosCluster,
  FAULT_KINDS,
  formatSummary,
  runChaos,
  startChaosCluster,
} from '../../testing/chaos/harness.ts'

// Two processes cannot share the embedded PGlite: this file needs PostgreSQL. Run by hand without it, it fails.
if (!process.env.TEST_DATABASE_URL) throw new Error('chaos.test.ts needs TEST_DATABASE_URL (a PostgreSQL server)')

const SEEDS = process.env.CHAOS_TEST_SEEDS ? process.env.CHAOS_TEST_SEEDS.split(',').map(Number) : [1, 22]

describe('sync under chaos: devices, two API nodes, PostgreSQL, and faults of every kind', () => {
  let cluster: ChaosCluster
  beforeAll(async () => {
    cluster = await startChaosCluster(2)
  }, 90_000)
  afterAll(async () => {
    await cluster?.stop()
  }, 30_000)

  test.each(SEEDS)(
    'seed %i: every mutation applied once or kept as rejected, every store equal to a fresh pull, every outbox drained',
    async (seed) => {
      const summary = await runChaos(cluster, { seed, devices: 3, steps: 30 })
      console.log(formatSummary(summary))
      expect(summary.violations).toEqual({})
      expect(summary.drainRounds).not.toBeNull()
      for (const kind of FAULT_KINDS) expect(summary.faults[kind], kind).toBeGreaterThan(0)
      // The queue survived the expired token: the device was refused, signed in again and replayed.
      expect(summary.auth.signIns).toBeGreaterThan(0)
      expect(summary.mutations.sent).toBeGreaterThan(50)
      expect(summary.mutations.applied).toBeGreaterThan(0)
    },
    120_000,
  )

  test('the checks are not blind: a refusal lost, a row lost, a row of a lost buble kept and a row edited on the server are each caught', async () => {
    const summary = await runChaos(cluster, {
      seed: 99,
      devices: 3,
      steps: 12,
      async tamper({ devices, removed, sharedBubleId, db }) {
        const [refusal] = await removed.db.rejections.toArray()
        if (refusal) await removed.db.rejections.delete(refusal.id)
        const [post] = await devices[0]!.db.posts.toArray()
        if (post) await devices[0]!.db.posts.delete(post.id)
        await removed.db.posts.put({ id: '01900000-0000-7000-8000-000000000001', buble_id: sharedBubleId })
        // A post in the shared buble (never deleted) that its author never deleted, edited behind everyone's back.
        const deleted = new Set(
          devices.flatMap((device) =>
            device.sent.filter((m) => m.name === 'post.delete').map((m) => (m.args as { id: string }).id),
          ),
        )
        const candidates = devices
          .flatMap((device) => device.sent)
          .filter(
            (m) =>
              m.name === 'post.create' && m.bubleId === sharedBubleId && !deleted.has((m.args as { id: string }).id),
          )
        for (const candidate of candidates) {
          const edited = await db.query("update posts set content = 'edited behind the devices' where id = $1", [
            (candidate.args as { id: string }).id,
          ])
          if (edited.rowCount === 1) break
        }
      },
    })
    const caught = Object.keys(summary.violations)
    // The refusal removed may be one of the removed member's: then that check says so too.
    expect(caught).toEqual(
      expect.arrayContaining(['exactly-once', 'last-write-kept', 'no-rows-of-lost-bubles', 'store-equals-fresh-pull']),
    )
    expect(caught.filter((name) => name !== 'removed-writes-rejected')).toHaveLength(4)
    expect(summary.violations['exactly-once']).toHaveLength(1)
  }, 120_000)
})
