/**
 * Events and polls through the client engine against the real server: an RSVP and a vote made
 * offline show at once and are applied once when the network returns; a vote queued offline on a
 * poll deleted meanwhile is refused, rolled back, and kept among the device's rejections.
 */

import { randomUUID } from 'node:crypto'
import { pollOptionId } from '@buble/shared/polls'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { backends } from '../../testing/databases.ts'
import { deviceKit } from '../../testing/devices.ts'
import { createHarness, type Harness } from '../../testing/harness.ts'

describe.each(backends())('events and polls on devices, on %s', (backend) => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness(backend, { BUBLE_RATE_LIMITS: 'off' })
  })
  afterAll(() => h?.close())

  const { person, deviceOf, count } = deviceKit(() => h)

  /** Olga owns a buble with an event and a poll; Bob is a member with a synced device. */
  async function setup() {
    const olga = await person('Olga Owner')
    const bob = await person('Bob Offline')
    const bubleId = (
      await (await h.call('POST', '/api/bubles', { token: olga.token, body: { name: 'Allotment' } })).json()
    ).id as string
    const { code } = await (
      await h.call('POST', `/api/bubles/${bubleId}/invites`, { token: olga.token, body: {} })
    ).json()
    expect((await h.call('POST', `/api/bubles/invites/${code}/accept`, { token: bob.token })).status).toBe(200)
    const event = await (
      await h.call('POST', `/api/bubles/${bubleId}/events`, {
        token: olga.token,
        body: { title: 'Harvest', event_time: '2026-09-12T08:00:00Z' },
      })
    ).json()
    const pollId = randomUUID()
    await h.call('POST', `/api/bubles/${bubleId}/polls`, {
      token: olga.token,
      body: { id: pollId, question: 'Jam or chutney?', options: ['Jam', 'Chutney'] },
    })
    const device = deviceOf(bob)
    await device.engine.sync()
    return { olga, bob, bubleId, eventId: event.id as string, pollId, device }
  }

  test('an RSVP and a vote made offline show at once and are applied once', async () => {
    const { olga, bob, eventId, pollId, device } = await setup()
    const jam = pollOptionId(pollId, 'Jam')
    device.setOnline(false)
    await device.engine.mutate('event.rsvp', { event_id: eventId, status: 'going' })
    await device.engine.mutate('poll.vote', { poll_id: pollId, poll_option_id: jam })
    await device.engine.sync()
    expect((await device.db.events.get(eventId))?.rsvps).toMatchObject([{ user_id: bob.actor.id, status: 'going' }])
    expect(await device.db.polls.get(pollId)).toMatchObject({ userVote: jam, hasVoted: true, totalVotes: 1 })
    expect(await count('event_rsvps', sql`event_id = ${eventId}`)).toBe(0)

    device.setOnline(true)
    await device.engine.sync()
    await device.engine.sync()
    expect(await device.db.outbox.count()).toBe(0)
    expect(await count('event_rsvps', sql`event_id = ${eventId}`)).toBe(1)
    expect(await count('poll_votes', sql`poll_id = ${pollId}`)).toBe(1)
    const polls = await (
      await h.call('GET', `/api/bubles/${(await device.db.polls.get(pollId))!.buble_id}/polls`, {
        token: olga.token,
      })
    ).json()
    expect(polls[0]).toMatchObject({ totalVotes: 1, userVote: null, options: [{ votes_count: 1 }, { votes_count: 0 }] })
    expect(await device.db.polls.get(pollId)).toMatchObject({ userVote: jam, totalVotes: 1 })
  })

  test('a vote queued offline on a poll deleted meanwhile is refused, rolled back and kept', async () => {
    const { olga, pollId, device } = await setup()
    const chutney = pollOptionId(pollId, 'Chutney')
    device.setOnline(false)
    await device.engine.mutate('poll.vote', { poll_id: pollId, poll_option_id: chutney })
    expect(await device.db.polls.get(pollId)).toMatchObject({ userVote: chutney })
    expect((await h.call('DELETE', `/api/polls/${pollId}`, { token: olga.token })).status).toBe(204)

    device.setOnline(true)
    await device.engine.sync()
    expect(await device.db.rejections.toArray()).toMatchObject([
      {
        name: 'poll.vote',
        code: 'NOT_FOUND',
        message: 'Poll not found',
        args: { poll_id: pollId, poll_option_id: chutney },
      },
    ])
    expect(await device.db.polls.get(pollId)).toBeUndefined()
    expect(await device.db.outbox.count()).toBe(0)
    expect(await count('poll_votes', sql`poll_id = ${pollId}`)).toBe(0)
  })
})
