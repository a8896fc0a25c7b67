/**
 * Issue 18's push benchmark, `push-mixed`: devices push batches that hold every mutation kind there
 * is, in parallel, to a server with rate limits ON (the default; the other scenarios run with them
 * off), for BENCH_DURATION seconds. Each device is its own user (seeded in PostgreSQL, its token
 * signed with the server's secret, so no sign-up's argon2 or rate limit is measured). A round of a
 * device makes a buble and fills it (posts, comments, reactions, events, RSVPs, polls, votes, chat,
 * read marks, its profile), makes invite codes with and without e-mail, joins the buble its
 * neighbour made the round before by that neighbour's code and leaves the one it joined before,
 * revokes a code, and deletes what it made to delete. The first device starts with its e-mail
 * invites used up for the hour (30 per user): each of its rounds meets the limit, and that one
 * mutation comes back RATE_LIMITED while the rest of its batch applies.
 *
 * Reports batches and mutations per second, the push's p50/p99, every status and code, and checks
 * that no push answered 5xx, every mutation was answered, and a replay of every batch applies
 * nothing again (each mutation exactly once).
 */

import { readFileSync } from 'node:fs'
import path from 'node:path'
import { v7 as uuidv7 } from 'uuid'
import { createAccessTokens } from '../src/lib/tokens.ts'
import type { DeviceResult } from './device.ts'
import { insertUsers, seedTransaction } from './seed.ts'

export const PUSH_MIXED = 'push-mixed'
const DEVICES = 8

type Mutation = { id: string; name: string; args: Record<string, unknown>; createdAt: string }
type Result = { id: string; status: string; code?: string; data?: unknown; retryAfter?: number }

interface Device {
  id: string
  token: string
  /** What the last round left for the next one. */
  buble?: string
  code?: string
  spareCode?: string
  poll?: { id: string; option: string }
  joined?: string
}

export interface PushMixedSetup {
  baseUrl: string
  databaseUrl: string | undefined
  dataDir: string
  durationS: number
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

const m = (name: string, args: Record<string, unknown>): Mutation => ({
  id: uuidv7(),
  name,
  args,
  createdAt: new Date().toISOString(),
})

/** One round of a device: every kind of mutation, in an order where each finds what it needs. */
function round(device: Device, neighbour: Device, run: string, n: number): Mutation[] {
  const buble = uuidv7()
  const spare = uuidv7()
  const [post, doomedPost, comment, event, doomedEvent, poll, doomedPoll, message, doomedMessage] = Array.from(
    { length: 9 },
    () => uuidv7(),
  )
  const label = `${run} ${device.id.slice(-4)} ${n}`
  const batch = [
    m('buble.create', { id: buble, name: `Mixed ${label}` }),
    m('buble.create', { id: spare, name: `Spare ${label}` }),
    m('invite.create', { buble_id: buble }),
    m('invite.create', { buble_id: buble }),
    m('invite.create', { buble_id: buble, email: `mixed-${run}-${device.id.slice(-6)}-${n}@example.com` }),
    m('post.create', { id: post, buble_id: buble, content: `Post ${label}` }),
    m('post.update', { id: post, content: `Post ${label}, edited` }),
    m('comment.create', { id: comment, post_id: post, content: 'A comment' }),
    m('comment.update', { id: comment, content: 'A comment, edited' }),
    m('reaction.add', { post_id: post, reactionType: 'like' }),
    m('reaction.add', { post_id: post, reactionType: 'love' }),
    m('reaction.remove', { post_id: post, reactionType: 'like' }),
    m('post.create', { id: doomedPost, buble_id: buble, content: 'Soon gone' }),
    m('comment.delete', { id: comment }),
    m('post.delete', { id: doomedPost }),
    m('event.create', { id: event, buble_id: buble, title: `Event ${label}`, event_time: '2027-05-01T18:00:00Z' }),
    m('event.update', { id: event, location: 'The park' }),
    m('event.rsvp', { event_id: event, status: 'going' }),
    m('event.create', { id: doomedEvent, buble_id: buble, title: 'Cancelled', event_time: '2027-05-02T18:00:00Z' }),
    m('event.delete', { id: doomedEvent }),
    m('poll.create', { id: poll, buble_id: buble, question: `Poll ${label}?`, options: ['Yes', 'No', 'Maybe'] }),
    m('poll.update', { id: poll, question: `Poll ${label}, really?` }),
    m('poll.create', { id: doomedPoll, buble_id: buble, question: 'Gone?', options: ['a', 'b'] }),
    m('poll.delete', { id: doomedPoll }),
    m('chat.send', { id: message, buble_id: buble, content: `Hello ${label}` }),
    m('chat.edit', { id: message, content: `Hello ${label}!` }),
    m('chat.react', { message_id: message, reactionType: 'laugh' }),
    m('chat.send', { id: doomedMessage, buble_id: buble, content: 'Oops' }),
    m('chat.delete', { id: doomedMessage }),
    m('unread.read', { buble_id: buble, contentType: 'chat' }),
    m('profile.update', { bio: `Round ${n}` }),
    m('buble.delete', { id: spare }),
  ]
  // What the last round left: its poll to vote in, its spare code to revoke, the neighbour's code to join by.
  if (device.poll)
    batch.push(
      m('poll.vote', { poll_id: device.poll.id, poll_option_id: device.poll.option }),
      m('poll.unvote', { poll_id: device.poll.id }),
      m('poll.vote', { poll_id: device.poll.id, poll_option_id: device.poll.option }),
    )
  if (device.buble && device.spareCode)
    batch.push(m('invite.revoke', { buble_id: device.buble, code: device.spareCode }))
  if (device.joined) batch.push(m('buble.leave', { buble_id: device.joined }))
  if (neighbour.code) batch.push(m('invite.accept', { code: neighbour.code }))
  return batch
}

/** Seeds the devices' users in PostgreSQL and signs their tokens with the server's secret. */
async function seedDevices(setup: PushMixedSetup, run: string): Promise<Device[]> {
  const ids = Array.from({ length: DEVICES }, () => uuidv7())
  await seedTransaction(setup.databaseUrl, 'analyze users', async (client) => {
    await insertUsers(client, { run, prefix: 'push-mixed', name: 'Mixed Device', userIds: ids })
    // The first device has used up its e-mail invites for the hour: each of its rounds meets the
    // limit, whose refusal must stay that mutation's alone.
    await client.query(
      `insert into rate_limits (key, points, expire) values ('inviteMailsPerUser:' || $1, 30, now() + interval '1 hour')`,
      [ids[0]],
    )
  })
  const secret =
    process.env.JWT_SECRET ||
    (JSON.parse(readFileSync(path.join(setup.dataDir, 'secrets.json'), 'utf8')) as { jwtSecret: string }).jwtSecret
  const tokens = createAccessTokens(secret)
  return Promise.all(ids.map(async (id) => ({ id, token: await tokens.sign({ id, tokenVersion: 0 }) })))
}

async function pushBatch(setup: PushMixedSetup, device: Device, mutations: Mutation[]) {
  const res = await fetch(`${setup.baseUrl}/api/sync/push`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${device.token}` },
    body: JSON.stringify({ clientId: `mixed-${device.id}`, mutations }),
  })
  const text = await res.text()
  return { status: res.status, results: res.ok ? (JSON.parse(text) as { results: Result[] }).results : [], text }
}

/** What a round's answers leave for the next round. */
function remember(device: Device, batch: Mutation[], results: Result[]): void {
  const byId = new Map(results.map((result) => [result.id, result]))
  const applied = (mutation: Mutation | undefined) =>
    mutation && byId.get(mutation.id)?.status === 'applied' ? byId.get(mutation.id) : undefined
  const made = applied(batch[0])
  device.buble = made ? (batch[0]!.args.id as string) : undefined
  device.code = (applied(batch[2])?.data as { code?: string } | undefined)?.code
  device.spareCode = (applied(batch[3])?.data as { code?: string } | undefined)?.code
  const poll = applied(batch.find((mutation) => mutation.name === 'poll.create'))
  const options = (poll?.data as { options?: { id: string }[] } | undefined)?.options
  device.poll = poll && options?.[0] ? { id: (poll.data as { id: string }).id, option: options[0].id } : undefined
  const accept = batch.find((mutation) => mutation.name === 'invite.accept')
  device.joined = (applied(accept)?.data as { id?: string } | undefined)?.id
}

export async function runPushMixed(setup: PushMixedSetup): Promise<DeviceResult> {
  if (!setup.databaseUrl) return { name: PUSH_MIXED, figure: 'skipped (needs PostgreSQL)', target: '-', met: true }
  const run = uuidv7().slice(-8)
  const devices = await seedDevices(setup, run)
  const pushed: { device: Device; batch: Mutation[] }[] = []
  const latencies: number[] = []
  const statuses = new Map<string, number>()
  let serverErrors = 0
  let unanswered = 0
  let firstError = ''
  const count = (key: string) => statuses.set(key, (statuses.get(key) ?? 0) + 1)
  const deadline = performance.now() + setup.durationS * 1000
  const started = performance.now()
  let rounds = 0
  await Promise.all(
    devices.map(async (device, i) => {
      const neighbour = devices[(i + DEVICES - 1) % DEVICES]!
      for (let n = 1; performance.now() < deadline; n++) {
        const batch = round(device, neighbour, run, n)
        const at = performance.now()
        const answer = await pushBatch(setup, device, batch)
        latencies.push(performance.now() - at)
        rounds++
        if (answer.status >= 500) {
          serverErrors++
          firstError ||= `${answer.status} ${answer.text.slice(0, 200)}`
          continue
        }
        if (answer.status !== 200) {
          unanswered += batch.length
          firstError ||= `${answer.status} ${answer.text.slice(0, 200)}`
          continue
        }
        pushed.push({ device, batch })
        unanswered += batch.length - answer.results.length
        for (const result of answer.results)
          count(result.status === 'rejected' ? `rejected ${result.code}` : result.status)
        remember(device, batch, answer.results)
      }
    }),
  )
  const elapsedS = (performance.now() - started) / 1000
  const mutations = pushed.reduce((sum, { batch }) => sum + batch.length, 0)
  // Exactly once: every batch again, as a device whose answers were lost would send it.
  let appliedAgain = 0
  for (const { device, batch } of pushed) {
    const again = await pushBatch(setup, device, batch)
    if (again.status !== 200) {
      serverErrors += again.status >= 500 ? 1 : 0
      firstError ||= `replay ${again.status} ${again.text.slice(0, 200)}`
      continue
    }
    appliedAgain += again.results.filter((result) => result.status === 'applied').length
  }
  latencies.sort((a, b) => a - b)
  const codes = [...statuses.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([key, n]) => `${key} ${n.toLocaleString('en')}`)
    .join(', ')
  const result: DeviceResult = {
    name: `${PUSH_MIXED} (rate limits on, ${DEVICES} devices, every mutation kind)`,
    figure: `${rounds} batches, ${mutations.toLocaleString('en')} mutations in ${elapsedS.toFixed(1)} s = ${(mutations / elapsedS).toFixed(0)} mutations/s; push p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms; ${codes}; 5xx ${serverErrors}; replayed: ${appliedAgain} applied again`,
    target: 'no 5xx, every mutation answered, none applied twice (reported)',
    met: serverErrors === 0 && unanswered === 0 && appliedAgain === 0,
  }
  if (!result.met)
    result.error = `${serverErrors} pushes answered 5xx, ${unanswered} mutations unanswered, ${appliedAgain} applied twice${firstError ? `; first: ${firstError}` : ''}`
  return result
}
