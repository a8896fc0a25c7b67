/**
 * Issue 22 §4: a queue written before an app update still replays after it. `frozen/queue-2026-11-28.json`
 * is a device queue as the app wrote it on that day (every kind of mutation, with the args' shapes of then);
 * it is never edited. Every later server must accept it as it is (or translate it), apply each mutation
 * once, and answer a replay with duplicates.
 */

import { MUTATION_ARGS, type MutationName } from '@buble/shared/mutations'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { rowsOf } from '../../lib/sql-json.ts'
import { backends } from '../../testing/databases.ts'
import { createHarness, type Harness } from '../../testing/harness.ts'
import { push, type TestMutation } from '../../testing/sync.ts'
import frozen from './frozen/queue-2026-11-28.json' with { type: 'json' }

const everyFrozen: TestMutation[] = [...frozen.owner, ...frozen.member, ...frozen.ownerAfter]
/** Kinds added after the queue was frozen (issue 23): no device of that day can have queued them. */
const ADDED_SINCE: readonly string[] = [
  'post.pin',
  'post.unpin',
  'member.mute',
  'member.unmute',
  'report.create',
  'report.resolve',
]

test('every mutation of the frozen queue still passes its args schema, and the queue names every kind', () => {
  for (const mutation of everyFrozen) {
    const schema = MUTATION_ARGS[mutation.name as MutationName]
    expect(schema, `${mutation.name} is still a mutation`).toBeDefined()
    const parsed = schema.safeParse(mutation.args)
    expect(parsed.success, `${mutation.name}: ${parsed.error?.message}`).toBe(true)
  }
  // Online-only writes (invites, joining, leaving) are not in a device's offline queue.
  const offline = Object.keys(MUTATION_ARGS).filter(
    (name) => !/^(invite\.|buble\.leave)/.test(name) && !ADDED_SINCE.includes(name),
  )
  expect(new Set(everyFrozen.map((mutation) => mutation.name))).toEqual(new Set(offline))
})

describe.each(backends())('the frozen queue of 2026-11-28 replays on %s', (backend) => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness(backend)
  })
  afterAll(() => h?.close())

  const one = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await h.database.db.execute(query))[0]

  test('each mutation applies once, in order, by the owner and a member; a replay is all duplicates', async () => {
    const owner = await h.register({ name: 'Olive Owner' })
    const member = await h.register({ name: 'Milo Member' })
    const statuses = (results: { status: string }[]) => results.map((result) => result.status)

    const first = await push(h, owner.token, frozen.owner, 'frozen-owner')
    expect(first.filter((result) => result.status !== 'applied')).toEqual([])

    // The member joins by an invite (online, as it must be), then their queue goes.
    const bubleId = frozen.owner[0]!.args.id
    const invite = await h.call('POST', `/api/bubles/${bubleId}/invites`, { token: owner.token, body: {} })
    expect(invite.status).toBe(201)
    const { code } = (await invite.json()) as { code: string }
    expect((await h.call('POST', `/api/bubles/invites/${code}/accept`, { token: member.token })).status).toBe(200)
    const second = await push(h, member.token, frozen.member, 'frozen-member')
    expect(second.filter((result) => result.status !== 'applied')).toEqual([])

    // What the queue did, as it meant it.
    const postId = frozen.owner[1]!.args.id
    expect(await one<{ content: string }>(sql`select content from posts where id = ${postId}`)).toEqual({
      content: 'Written before the update, edited',
    })
    expect(
      rowsOf<{ content: string }>(
        await h.database.db.execute(sql`select content from comments where post_id = ${postId}`),
      ),
    ).toEqual([{ content: 'First, edited' }])
    const votes = await one<{ n: string }>(
      sql`select count(*) as n from poll_votes where poll_id = ${frozen.owner[5]!.args.id}`,
    )
    expect(Number(votes?.n)).toBe(1)
    expect(
      await one<{ content: string }>(sql`select content from chat_messages where id = ${frozen.owner[7]!.args.id}`),
    ).toEqual({
      content: 'Hello from the tunnel',
    })

    // Replayed (an answer lost after the commit): nothing applies twice.
    expect(new Set(statuses(await push(h, owner.token, frozen.owner, 'frozen-owner')))).toEqual(new Set(['duplicate']))
    expect(new Set(statuses(await push(h, member.token, frozen.member, 'frozen-member')))).toEqual(
      new Set(['duplicate']),
    )

    const last = await push(h, owner.token, frozen.ownerAfter, 'frozen-owner')
    expect(last.filter((result) => result.status !== 'applied')).toEqual([])
    expect((await h.call('GET', `/api/bubles/${bubleId}`, { token: owner.token })).status).toBe(404)
  })
})
