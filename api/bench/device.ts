/**
 * Device benchmarks for `npm run bench`: a device (the real sync engine over fake-indexeddb, in
 * this process) against the real server (a child process on PostgreSQL). Each prints a figure and
 * checks it against the target; the counts are checked exactly (nothing lost, nothing doubled).
 */

import { SyncEngine } from '@buble/sync/client/engine'
import { recordingTransport } from '@buble/sync/client/test-kit'
import { createFetchTransport } from '@buble/sync/client/transport'
import { v7 as uuidv7 } from 'uuid'
import { type DeviceDb, testDb } from '../src/testing/device-db.ts'
import { insertMemberships, insertUsers, insertUsersAndBubles, rolePermissionsSql, seedTransaction } from './seed.ts'

export interface DeviceContext {
  baseUrl: string
  token: string
  userId: string
  email: string
  databaseUrl: string | undefined
}

export interface DeviceResult {
  name: string
  /** What was measured, e.g. "10,040 changes in 1.84 s (5,457 changes/s)". */
  figure: string
  target: string
  met: boolean
  /** A count that is wrong makes the run fail: lost or doubled data is never a matter of speed. */
  error?: string
}

/** A device for `ctx`'s user, recording every push answer. */
function device(ctx: DeviceContext, db: DeviceDb, isOnline?: () => boolean) {
  const { transport, answers } = recordingTransport(
    createFetchTransport({ baseUrl: ctx.baseUrl, token: () => ctx.token }),
  )
  const engine = new SyncEngine({
    db,
    transport,
    actor: () => ({ id: ctx.userId, name: 'Bench User', email: ctx.email, avatar_url: null }),
    intervalMs: 0,
    ...(isOnline ? { isOnline } : {}),
  })
  return { engine, answers }
}

/**
 * Puts `bubles` bubles owned by the bench user with `membersPerBuble` other members each straight
 * into PostgreSQL (registering 10,000 users through the API would measure argon2, not sync).
 * Answers how many changes a fresh device of the bench user will pull.
 */
export async function seedBubles(ctx: DeviceContext, bubles: number, membersPerBuble: number): Promise<number> {
  const run = uuidv7().slice(-12)
  const bubleIds = Array.from({ length: bubles }, () => uuidv7())
  const userIds = Array.from({ length: bubles * membersPerBuble }, () => uuidv7())
  await seedTransaction(ctx.databaseUrl, 'analyze users, bubles, memberships', async (client) => {
    await insertUsersAndBubles(client, { run, prefix: 'seed', label: 'Seeded', userIds, bubleIds, ownerId: ctx.userId })
    await insertMemberships(
      client,
      {
        bubleIds: [...bubleIds, ...userIds.map((_, i) => bubleIds[i % bubles]!)],
        userIds: [...bubleIds.map(() => ctx.userId), ...userIds],
        roles: [...bubleIds.map(() => 'owner' as const), ...userIds.map(() => 'member' as const)],
      },
      bubleIds,
    )
  })
  return bubles + bubles * (membersPerBuble + 1)
}

/**
 * A buble owned by the bench user with `members` other members joined after them, straight into
 * PostgreSQL. The owner has read nothing since their join, so every later join counts on their
 * members tab (the unread benchmark's "busy buble"). Answers the buble's id.
 */
export async function seedBusyBuble(ctx: DeviceContext, members: number): Promise<string> {
  const run = uuidv7().slice(-12)
  const bubleId = uuidv7()
  const userIds = Array.from({ length: members }, () => uuidv7())
  await seedTransaction(ctx.databaseUrl, 'analyze users, bubles, memberships', async (client) => {
    await insertUsers(client, { run, prefix: 'busy', name: 'Busy Member', userIds })
    await client.query(`insert into bubles (id, slug, name, owner_id) values ($1, $2, $3, $4)`, [
      bubleId,
      `busy-${run}`,
      `Busy ${run}`,
      ctx.userId,
    ])
    // The owner first: everyone after joined since the owner last read the members tab.
    await client.query(
      `insert into memberships (buble_id, user_id, role, permissions, joined_version, version)
       select $1, user_id, role, case role when 'owner' then ${rolePermissionsSql('owner')} else ${rolePermissionsSql('member')} end, v, v
       from (select user_id, role, buble_next_version() as v
             from unnest($2::uuid[], $3::text[]) with ordinality as t(user_id, role, n) order by n) m`,
      [bubleId, [ctx.userId, ...userIds], ['owner', ...userIds.map(() => 'member')]],
    )
    await client.query(`update bubles set changed_version = buble_next_version() where id = $1`, [bubleId])
  })
  return bubleId
}

/** Issue 22: a fresh device pulls 10,000 changes in under 1.5 s, and pushes 500 queued mutations in under 2 s (issue 12 had 3 s for both). */
const PULL_10K_TARGET_MS = 1500
const PUSH_500_TARGET_MS = 2000

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`
const thousands = (n: number) => Math.round(n).toLocaleString('en-US')

/** A fresh device pulls everything the seed made: time end to end, and changes per second. */
export async function pullIntoFreshDevice(
  ctx: DeviceContext,
  expected: number,
  targetMs = PULL_10K_TARGET_MS,
): Promise<DeviceResult> {
  const db = testDb(`bench-pull-${uuidv7()}`)
  const { engine } = device(ctx, db)
  const started = performance.now()
  await engine.sync()
  const elapsed = performance.now() - started
  const status = await engine.status()
  const rows = (await db.bubles.count()) + (await db.members.count())
  db.close()
  const result: DeviceResult = {
    name: 'pull into a fresh device',
    figure: `${thousands(rows)} changes in ${seconds(elapsed)} (${thousands(rows / (elapsed / 1000))} changes/s)`,
    target: `under ${seconds(targetMs)}`,
    met: elapsed < targetMs,
  }
  if (status.state !== 'idle') result.error = `the device ended ${status.state}: ${status.error}`
  else if (rows !== expected) result.error = `expected ${expected} rows on the device, found ${rows}`
  return result
}

/** A device queues mutations offline, then pushes them all: time, and exactly-once on the server. */
export async function pushQueued(
  ctx: DeviceContext,
  count: number,
  targetMs = PUSH_500_TARGET_MS,
): Promise<DeviceResult> {
  const db = testDb(`bench-push-${uuidv7()}`)
  let online = false
  const { engine, answers } = device(ctx, db, () => online)
  const run = uuidv7().slice(-8)
  const ids: string[] = []
  for (let i = 0; i < count; i++) {
    const id = uuidv7()
    ids.push(id)
    await engine.mutate('buble.create', { id, name: `Queued ${run} ${i + 1}` })
  }
  await engine.settled()
  online = true
  const started = performance.now()
  await engine.sync()
  const elapsed = performance.now() - started
  const left = await db.outbox.count()
  db.close()

  const applied = answers.filter((answer) => answer.status === 'applied').length
  const list = await fetch(`${ctx.baseUrl}/api/bubles`, { headers: { authorization: `Bearer ${ctx.token}` } })
  const onServer = ((await list.json()) as { id: string; name: string }[]).filter((buble) =>
    buble.name.startsWith(`Queued ${run} `),
  )
  const distinct = new Set(onServer.map((buble) => buble.id))
  const result: DeviceResult = {
    name: `push ${count} queued mutations`,
    figure: `${count} in ${seconds(elapsed)} (${thousands(count / (elapsed / 1000))} mutations/s); on the server ${onServer.length}, lost ${count - distinct.size}, doubled ${onServer.length - distinct.size}`,
    target: `under ${seconds(targetMs)}, zero lost, zero doubled`,
    met: elapsed < targetMs,
  }
  if (applied !== count || left !== 0) result.error = `${applied} of ${count} applied, ${left} left in the outbox`
  else if (onServer.length !== count || distinct.size !== count || ids.some((id) => !distinct.has(id)))
    result.error = `the server holds ${onServer.length} (${distinct.size} distinct) of ${count}`
  return result
}

/** Makes the bench user a member of `count` bubles and answers an up-to-date cursor (for the pull load test). */
export async function upToDateCursor(ctx: DeviceContext, count: number): Promise<string> {
  const transport = createFetchTransport({ baseUrl: ctx.baseUrl, token: () => ctx.token })
  const mutations = Array.from({ length: count }, (_, i) => ({
    id: uuidv7(),
    name: 'buble.create',
    args: { id: uuidv7(), name: `Member of many ${i + 1}` },
    createdAt: new Date().toISOString(),
  }))
  for (let i = 0; i < mutations.length; i += 100)
    await transport.push({ clientId: 'bench', mutations: mutations.slice(i, i + 100) })
  let cursor: string | undefined
  for (;;) {
    const page = await transport.pull(cursor, 1000)
    cursor = page.cursor
    if (!page.hasMore) return cursor
  }
}
