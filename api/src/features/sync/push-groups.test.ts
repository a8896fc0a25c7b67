/**
 * How a push cuts its batch into transactions (decision 91): runs of mutations in one buble, a new
 * buble's with any run, anything else alone; the buble of a mutation that names only a row is found
 * from the batch itself or the database.
 */

import type { Mutation } from '@buble/sync/protocol'
import { v7 as uuidv7 } from 'uuid'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { backends } from '../../testing/databases.ts'
import { createHarness, type Harness } from '../../testing/harness.ts'
import { mutation, push } from '../../testing/sync.ts'
import { ANY_GROUP, bublesOf, groupsOf } from './push.ts'

const m = (label: string): Mutation => ({ id: uuidv7(), name: 'post.create', args: { label }, createdAt: '' })
const labels = (groups: Mutation[][]) =>
  groups.map((group) => group.map((one) => (one.args as { label: string }).label))

describe('groupsOf', () => {
  test('consecutive mutations of one buble share a group; another buble, or one of no known buble, starts a new one', () => {
    const batch = ['a1', 'a2', 'b1', 'x', 'a3', 'a4'].map(m)
    expect(labels(groupsOf(batch, ['A', 'A', 'B', null, 'A', 'A']))).toEqual([
      ['a1', 'a2'],
      ['b1'],
      ['x'],
      ['a3', 'a4'],
    ])
  })

  test("a new buble's mutation joins the run it is in, before or after, but never one of no known buble", () => {
    const batch = ['n1', 'n2', 'a1', 'n3', 'b1', 'x', 'n4'].map(m)
    expect(labels(groupsOf(batch, [ANY_GROUP, ANY_GROUP, 'A', ANY_GROUP, 'B', null, ANY_GROUP]))).toEqual([
      ['n1', 'n2', 'a1', 'n3'],
      ['b1'],
      ['x'],
      ['n4'],
    ])
  })

  test('two mutations of no known buble are never together', () => {
    expect(labels(groupsOf(['x', 'y'].map(m), [null, null]))).toEqual([['x'], ['y']])
  })
})

describe.each(backends())('the buble of each mutation of a batch on %s', (backend) => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness(backend, { BUBLE_RATE_LIMITS: 'off' })
  })
  afterAll(() => h?.close())

  test('from its buble_id, from a row made earlier in the batch, or from the row in the database', async () => {
    const me = await h.register()
    const made = await h.call('POST', '/api/bubles', { token: me.token, body: { name: 'Known' } })
    const bubleId = ((await made.json()) as { id: string }).id
    const stored = uuidv7()
    const [first] = await push(h, me.token, [
      mutation('post.create', { id: stored, buble_id: bubleId, content: 'In the database' }),
    ])
    expect(first!.status).toBe('applied')

    const other = uuidv7()
    const fresh = uuidv7()
    const batch = [
      mutation('post.create', { id: fresh, buble_id: other, content: 'Made offline' }),
      mutation('comment.create', { id: uuidv7(), post_id: fresh, content: 'On the offline post' }),
      mutation('reaction.add', { post_id: stored, emoji: '👍' }),
      mutation('buble.create', { id: uuidv7(), name: 'Brand new' }),
      mutation('profile.update', { name: 'Renamed' }),
      mutation('post.update', { id: uuidv7(), content: 'A post nobody has' }),
    ]
    expect(await bublesOf(h.deps.db, batch as Mutation[])).toEqual([other, other, bubleId, ANY_GROUP, null, null])
  })
})
