/**
 * Issue 18's fuzz test: seeded batches of valid, invalid, odd-text, out-of-range, unknown,
 * duplicate and rate-limited mutations, pushed by several users in parallel (and some batches by
 * two tabs at once), with rate limits on. No push may answer 5xx or hang; every mutation gets the
 * answer its kind must get; every valid one is applied exactly once; nothing is left idle in a
 * transaction. `npm test` runs FUZZ_SEEDS seeds from FUZZ_FIRST_SEED (3 from 1 by default);
 * `npm run fuzz` runs many more.
 */

import type { MutationResult } from '@buble/sync/protocol'
import { inArray, sql } from 'drizzle-orm'
import { v7 as uuidv7 } from 'uuid'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { appliedMutations } from '../../db/schema.ts'
import { rowsOf } from '../../lib/sql-json.ts'
import { backends } from '../../testing/databases.ts'
import { createHarness, type Harness } from '../../testing/harness.ts'
import { type FuzzMutation, type FuzzUser, type FuzzWorld, fuzzBatch, seededRandom } from '../../testing/push-fuzz.ts'

const FIRST_SEED = Number(process.env.FUZZ_FIRST_SEED ?? 1)
const SEEDS = Number(process.env.FUZZ_SEEDS ?? 3)
const USERS = 4
const BATCHES_PER_USER = Number(process.env.FUZZ_BATCHES ?? 6)
/** No push may take longer than this (issue 18: none hangs). */
const PUSH_BOUND_MS = 20_000

const seeds = Array.from({ length: SEEDS }, (_, i) => FIRST_SEED + i)

describe.each(backends())('push fuzz on %s', (backend) => {
  let h: Harness
  let users: FuzzUser[]
  let outsideBuble: string

  beforeAll(async () => {
    h = await createHarness(backend)
    const registered = []
    for (let i = 0; i < USERS; i++) registered.push(await h.register({ name: `Fuzz User ${i + 1}` }))
    const stranger = await h.register({ name: 'Fuzz Stranger' })
    outsideBuble = await newBuble(stranger.token, 'Not theirs')
    // Everyone is in a shared buble of the first user's, and has one of their own.
    const shared = await newBuble(registered[0]!.token, 'Fuzz shared')
    users = []
    for (const [i, user] of registered.entries()) {
      const own = i === 0 ? shared : await newBuble(user.token, `Fuzz own ${i + 1}`)
      if (i > 0) await join(user.token, shared, registered[0]!.token)
      users.push({
        id: user.id,
        token: user.token,
        bubles: i === 0 ? [shared] : [own, shared],
        limited: i === USERS - 1,
      })
    }
  }, 120_000)
  afterAll(() => h?.close())

  async function newBuble(token: string, name: string): Promise<string> {
    const res = await h.call('POST', '/api/bubles', { token, body: { name } })
    expect(res.status).toBe(201)
    return ((await res.json()) as { id: string }).id
  }
  async function join(token: string, bubleId: string, ownerToken: string) {
    const invite = await h.call('POST', `/api/bubles/${bubleId}/invites`, { token: ownerToken, body: {} })
    const { code } = (await invite.json()) as { code: string }
    expect((await h.call('POST', `/api/bubles/invites/${code}/accept`, { token })).status).toBe(200)
  }

  /** Pushes a batch, bounded in time; answers its status and results. */
  async function pushBounded(user: FuzzUser, batch: FuzzMutation[], clientId: string) {
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`a push of ${batch.length} did not answer within ${PUSH_BOUND_MS} ms`)),
        PUSH_BOUND_MS,
      )
    })
    const body = { clientId, mutations: batch.map(({ expect: _, ...mutation }) => mutation) }
    const res = await Promise.race([
      Promise.resolve(h.call('POST', '/api/sync/push', { token: user.token, body })),
      late,
    ]).finally(() => clearTimeout(timer))
    const text = await res.text()
    return {
      status: res.status,
      text,
      results: res.status === 200 ? (JSON.parse(text).results as MutationResult[]) : [],
    }
  }

  const count = async (query: ReturnType<typeof sql>) =>
    Number(rowsOf<{ n: string }>(await h.database.db.execute(query))[0]!.n)

  test.each(seeds)(
    'seed %i: no 5xx, no hang, each mutation answered as its kind must be, each valid one applied once',
    async (seed) => {
      const random = seededRandom(seed * 7919 + (backend === 'postgres' ? 1 : 0))
      // This hour's e-mail invites: the limited user has used them all; the others none.
      await h.database.db.execute(sql`delete from rate_limits where key like 'inviteMailsPerUser:%'`)
      const limited = users.find((user) => user.limited)!
      await h.database.db.execute(
        sql`insert into rate_limits (key, points, expire) values (${`inviteMailsPerUser:${limited.id}`}, 30, now() + interval '1 hour')`,
      )
      const world: FuzzWorld = { posts: new Map(), outsideBuble, sent: new Map() }
      const answered: { mutation: FuzzMutation; result: MutationResult | undefined }[] = []
      const problems: string[] = []
      let pushes = 0

      await Promise.all(
        users.map(async (user, u) => {
          for (let b = 0; b < BATCHES_PER_USER; b++) {
            const batch = fuzzBatch(random, user, world, 5 + Math.floor(random() * 20))
            // Now and then two tabs of the same device push the same batch at once: each mutation once.
            const twice = random() < 0.15
            const sends = twice
              ? [pushBounded(user, batch, `tab-a-${u}`), pushBounded(user, batch, `tab-b-${u}`)]
              : [pushBounded(user, batch, `tab-${u}`)]
            const answers = await Promise.all(sends)
            pushes += answers.length
            for (const answer of answers)
              if (answer.status !== 200)
                problems.push(`seed ${seed}: a push answered ${answer.status}: ${answer.text.slice(0, 300)}`)
            const [first, second] = answers.map((answer) => new Map(answer.results.map((r) => [r.id, r])))
            for (const mutation of batch) {
              const a = first?.get(mutation.id)
              const b2 = second?.get(mutation.id)
              // Of two tabs, one applies and the other finds it applied; which one is the race's to say.
              const result = twice && a?.status === 'duplicate' && b2?.status === 'applied' ? b2 : a
              answered.push({ mutation, result })
              if (
                twice &&
                mutation.expect.status === 'applied' &&
                [a?.status, b2?.status].filter((s) => s === 'applied').length !== 1
              )
                problems.push(
                  `seed ${seed}: ${mutation.name} ${mutation.id} pushed by two tabs: ${a?.status} and ${b2?.status}`,
                )
            }
            // What committed is there for the next batches of everyone.
            world.sent.set(user.id, [...(world.sent.get(user.id) ?? []), ...batch])
            for (const mutation of batch)
              if (mutation.name === 'post.create' && first?.get(mutation.id)?.status === 'applied') {
                const bubleId = mutation.args.buble_id as string
                world.posts.set(bubleId, [...(world.posts.get(bubleId) ?? []), mutation.args.id as string])
              }
          }
        }),
      )

      for (const { mutation, result } of answered) {
        const got = result ? `${result.status}${result.code ? ` ${result.code}` : ''}` : 'no answer'
        const want = `${mutation.expect.status}${'code' in mutation.expect ? ` ${mutation.expect.code}` : ''}`
        if (got !== want)
          problems.push(
            `seed ${seed}: ${JSON.stringify(mutation.name)} ${mutation.id}: expected ${want}, got ${got} (${result?.message ?? ''})`,
          )
      }
      expect(problems).toEqual([])
      const tally = new Map<string, number>()
      for (const { result } of answered) {
        const key = result?.status === 'rejected' ? (result.code ?? 'rejected') : (result?.status ?? 'none')
        tally.set(key, (tally.get(key) ?? 0) + 1)
      }
      console.log(
        `push fuzz seed ${seed} on ${backend}: ${pushes} pushes, ${answered.length} mutations (${[...tally]
          .sort((x, y) => y[1] - x[1])
          .map(([key, n]) => `${key} ${n}`)
          .join(', ')}), 0 answered 5xx`,
      )

      // Each valid create left exactly one row, and every mutation answered is recorded once.
      const created = answered.flatMap(({ mutation }) =>
        mutation.expect.status === 'applied' && mutation.expect.row ? [mutation.expect.row] : [],
      )
      for (const table of new Set(created.map((row) => row.table))) {
        const ids = created.filter((row) => row.table === table).map((row) => row.id)
        expect(
          await count(
            sql`select count(*) as n from ${sql.raw(table)} where id in ${sql`(${sql.join(
              ids.map((id) => sql`${id}`),
              sql`, `,
            )})`}`,
          ),
        ).toBe(ids.length)
      }
      const recorded = [...new Set(answered.map(({ mutation }) => mutation.id))]
      const stored = await h.database.db
        .select({ id: appliedMutations.id })
        .from(appliedMutations)
        .where(inArray(appliedMutations.id, recorded))
      expect(stored).toHaveLength(recorded.length)
      expect(pushes).toBeGreaterThanOrEqual(USERS * BATCHES_PER_USER)

      // Nothing left holding a transaction, and the API serves.
      if (backend === 'postgres')
        expect(
          await count(
            sql`select count(*) as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`,
          ),
        ).toBe(0)
      expect((await h.call('GET', '/api/bubles', { token: users[0]!.token })).status).toBe(200)
      expect(
        (
          await h.call('POST', '/api/bubles', {
            token: users[1]!.token,
            body: { name: `After seed ${seed} ${uuidv7().slice(-4)}` },
          })
        ).status,
      ).toBe(201)
    },
    300_000,
  )
})
