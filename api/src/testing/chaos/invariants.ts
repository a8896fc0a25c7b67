/**
 * What the chaos harness holds the system to after each run (issue 22 §4), read from the server's
 * database and from each device's own: every mutation a device queued was applied exactly once or
 * is in that device's rejections with its args; no row was written twice; what was applied last is
 * what the server holds; every device's store is
 * what a fresh pull with its token gives, with no row of a buble it lost. Each check answers the
 * violations it found (empty: it holds), in words a failing test can print.
 */

import { isDeepStrictEqual } from 'node:util'
import { ENTITY_TABLE } from '@buble/shared/device'
import { isMutationName } from '@buble/shared/mutations'
import { MOOT_WITH_BUBLE } from '@buble/sync/client/replica'
import type { Change, PullResponse } from '@buble/sync/protocol'
import type pg from 'pg'
import { applyChanges } from '../sync.ts'
import type { ChaosDevice, SentMutation } from './device.ts'

export const INVARIANTS = [
  'exactly-once',
  'no-duplicate-rows',
  'last-write-kept',
  'rejections-kept',
  'removed-writes-rejected',
  'store-equals-fresh-pull',
  'no-rows-of-lost-bubles',
  'outbox-drained',
] as const
export type Invariant = (typeof INVARIANTS)[number]

export type Violations = Partial<Record<Invariant, string[]>>

const add = (violations: Violations, invariant: Invariant, message: string) => {
  const list = violations[invariant] ?? []
  // A few examples are enough to debug; the count says how many.
  if (list.length < 8) list.push(message)
  violations[invariant] = list
}

/** What the server stored for each mutation id (`applied_mutations`: one row per id, its result's status). */
export async function serverResults(db: pg.Client, ids: readonly string[]): Promise<Map<string, string>> {
  const rows = (
    await db.query<{ id: string; status: string | null; n: number }>(
      `select id::text, result->>'status' as status, count(*) over (partition by id)::int as n
         from applied_mutations where id = any($1::uuid[])`,
      [ids],
    )
  ).rows
  return new Map(rows.map((row) => [row.id, row.n > 1 ? 'more than once' : (row.status ?? 'null')]))
}

/**
 * Exactly once, and refusals kept: a mutation in the device's rejections was not applied on the
 * server and carries its args; every other one the server applied, once, but for a leave, delete or
 * read of a buble the user has lost, which the device drops unsent with the buble.
 */
export async function checkMutations(
  db: pg.Client,
  devices: readonly ChaosDevice[],
  violations: Violations,
): Promise<{ sent: number; applied: number; rejected: number; results: Map<string, string> }> {
  const sent = devices.flatMap((device) => device.sent)
  const results = await serverResults(
    db,
    sent.map((mutation) => mutation.id),
  )
  let applied = 0
  let rejected = 0
  for (const device of devices) {
    const rejections = new Map((await device.db.rejections.toArray()).map((row) => [row.id, row]))
    // A leave, delete or read of a buble the user has lost goes with it, unsent (sync/client/replica.ts).
    const member = new Set(
      (
        await db.query<{ id: string }>('select buble_id::text as id from memberships where user_id = $1', [
          device.user.id,
        ])
      ).rows.map((row) => row.id),
    )
    const moot = (mutation: SentMutation) => {
      if (!isMutationName(mutation.name) || !MOOT_WITH_BUBLE.includes(mutation.name)) return false
      const args = mutation.args as { buble_id?: string; id?: string }
      const buble = args.buble_id ?? args.id
      return buble !== undefined && !member.has(buble)
    }
    for (const mutation of device.sent) {
      const onServer = results.get(mutation.id)
      if (onServer === 'more than once') add(violations, 'exactly-once', `${describe(mutation)} is stored twice`)
      const refusal = rejections.get(mutation.id)
      if (refusal) {
        rejected += 1
        if (onServer === 'applied')
          add(
            violations,
            'rejections-kept',
            `${describe(mutation)} is "not saved" on the device but applied on the server`,
          )
        if (refusal.name !== mutation.name || !isDeepStrictEqual(refusal.args, mutation.args))
          add(
            violations,
            'rejections-kept',
            `${describe(mutation)}'s rejection lost its args: ${JSON.stringify(refusal.args)}`,
          )
        continue
      }
      if (onServer === 'applied') applied += 1
      else if (onServer === undefined && moot(mutation)) continue
      else
        add(
          violations,
          'exactly-once',
          `${describe(mutation)} is neither applied (server: ${onServer ?? 'unknown'}) nor in the device's rejections`,
        )
    }
  }
  return { sent: sent.length, applied, rejected, results }
}

/** No text a device wrote is in two rows (each write's text is unique, so two rows are one write applied twice). */
export async function checkNoDuplicateRows(db: pg.Client, tag: string, violations: Violations): Promise<void> {
  const columns: [string, string][] = [
    ['posts', 'content'],
    ['comments', 'content'],
    ['chat_messages', 'content'],
    ['events', 'title'],
    ['polls', 'question'],
    ['bubles', 'name'],
  ]
  for (const [table, column] of columns) {
    const twice = (
      await db.query<{ text: string; n: number }>(
        `select ${column} as text, count(*)::int as n from ${table} where ${column} like $1 group by ${column} having count(*) > 1`,
        [`${tag}%`],
      )
    ).rows
    for (const row of twice)
      add(violations, 'no-duplicate-rows', `${table}.${column} "${row.text}" is in ${row.n} rows`)
  }
}

/** The writes queued by a removed member while offline are all refused and kept with their text. */
export async function checkRemovedWrites(
  device: ChaosDevice,
  doomed: readonly SentMutation[],
  bubleId: string,
  violations: Violations,
): Promise<void> {
  const rejections = new Map((await device.db.rejections.toArray()).map((row) => [row.id, row]))
  for (const mutation of doomed) {
    const refusal = rejections.get(mutation.id)
    if (!refusal) add(violations, 'removed-writes-rejected', `${describe(mutation)} is not in the rejections`)
    else if (!isDeepStrictEqual(refusal.args, mutation.args))
      add(violations, 'removed-writes-rejected', `${describe(mutation)}'s rejection lost its text`)
  }
  for (const table of new Set(Object.values(ENTITY_TABLE))) {
    const left = await device.db
      .table(table)
      .filter(
        (row: { id: string; buble_id?: string }) =>
          row.buble_id === bubleId || (table === 'bubles' && row.id === bubleId),
      )
      .count()
    if (left > 0)
      add(
        violations,
        'no-rows-of-lost-bubles',
        `device ${device.index} still holds ${left} ${table} of the buble it lost`,
      )
  }
}

/** JSON's idea of a row (what a property set to undefined is: absent). */
const plain = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown

/**
 * The device's row tables equal what a fresh pull with its token gives (`pull` reads page after
 * page from a node directly), and hold no row of a buble that pull does not list.
 */
export async function checkStore(
  device: ChaosDevice,
  pull: (token: string, cursor?: string) => Promise<PullResponse>,
  violations: Violations,
): Promise<void> {
  const changes: Change[] = []
  let cursor: string | undefined
  for (let pages = 0; ; pages++) {
    const page = await pull(device.token, cursor)
    changes.push(...page.changes)
    cursor = page.cursor
    if (!page.hasMore) break
    if (pages > 1000) throw new Error('the fresh pull never ended')
  }
  const state = applyChanges(changes)
  const bubles = new Set(state.get('buble')?.keys() ?? [])
  const entities = Object.entries(ENTITY_TABLE) as [keyof typeof ENTITY_TABLE, string][]
  for (const [entity, table] of entities) {
    const expected = new Map(
      [...(state.get(entity)?.values() ?? [])].map((change) => [
        change.id,
        plain({ ...(change.data as Record<string, unknown>), id: change.id, buble_id: change.buble_id }),
      ]),
    )
    const held = await device.db.table(table).toArray()
    const where = `device ${device.index} ${table}`
    for (const row of held) {
      const id = row.id as string
      if (entity !== 'buble' && typeof row.buble_id === 'string' && !bubles.has(row.buble_id))
        add(violations, 'no-rows-of-lost-bubles', `${where} ${id} is of buble ${row.buble_id}, which it no longer has`)
      const want = expected.get(id)
      if (want === undefined) {
        // Counters are derived: a tab whose content came and went reads 0 on the device and is absent from a fresh pull.
        if (!(entity === 'unread' && row.unreadCount === 0))
          add(violations, 'store-equals-fresh-pull', `${where} ${id} is not on the server: ${JSON.stringify(row)}`)
      } else if (!isDeepStrictEqual(plain(row), want))
        add(
          violations,
          'store-equals-fresh-pull',
          `${where} ${id} differs: device ${JSON.stringify(row)} server ${JSON.stringify(want)}`,
        )
      expected.delete(id)
    }
    for (const id of expected.keys())
      add(violations, 'store-equals-fresh-pull', `${where} ${id} is missing on the device`)
  }
}

const describe = (mutation: SentMutation) =>
  `device ${mutation.device} tab ${mutation.tab} ${mutation.name} ${mutation.id} ${JSON.stringify(mutation.args)}`

/** Where each created kind's text lives on the server, and the mutations that write it. */
const WRITTEN: Record<string, { table: string; column: string; create: string; update: string; delete: string }> = {
  post: { table: 'posts', column: 'content', create: 'post.create', update: 'post.update', delete: 'post.delete' },
  comment: {
    table: 'comments',
    column: 'content',
    create: 'comment.create',
    update: 'comment.update',
    delete: 'comment.delete',
  },
  chat: { table: 'chat_messages', column: 'content', create: 'chat.send', update: 'chat.edit', delete: 'chat.delete' },
  event: { table: 'events', column: 'title', create: 'event.create', update: 'event.update', delete: 'event.delete' },
  poll: { table: 'polls', column: 'question', create: 'poll.create', update: 'poll.update', delete: 'poll.delete' },
}

/**
 * Every applied write is on the server as it was last written: a post, comment, message, event or
 * poll a device made, and did not delete (nor was its buble, or its post, deleted), holds the text
 * of the last of its create and edits the server applied (a device's writes apply in its order).
 */
export async function checkLastWrites(
  db: pg.Client,
  devices: readonly ChaosDevice[],
  results: ReadonlyMap<string, string>,
  violations: Violations,
): Promise<number> {
  const applied = devices.flatMap((device) => device.sent).filter((mutation) => results.get(mutation.id) === 'applied')
  const argsOf = (mutation: SentMutation) => mutation.args as Record<string, string>
  const gone = new Set<string>()
  for (const mutation of applied) {
    if (mutation.name === 'buble.delete') gone.add(argsOf(mutation).id!)
    if (mutation.name.endsWith('.delete')) gone.add(argsOf(mutation).id!)
  }
  let checked = 0
  for (const [kind, spec] of Object.entries(WRITTEN)) {
    const expected = new Map<string, string>()
    for (const mutation of applied) {
      const args = argsOf(mutation)
      if (mutation.name !== spec.create && mutation.name !== spec.update) continue
      const text = kind === 'event' ? args.title : kind === 'poll' ? args.question : args.content
      if (
        mutation.name === spec.create &&
        (gone.has(mutation.bubleId ?? '') || (kind === 'comment' && gone.has(args.post_id!)))
      )
        gone.add(args.id!)
      if (text !== undefined) expected.set(args.id!, text)
    }
    for (const id of gone) expected.delete(id)
    if (expected.size === 0) continue
    const rows = (
      await db.query<{ id: string; text: string }>(
        `select id::text, ${spec.column} as text from ${spec.table} where id = any($1::uuid[])`,
        [[...expected.keys()]],
      )
    ).rows
    const found = new Map(rows.map((row) => [row.id, row.text]))
    for (const [id, text] of expected) {
      checked += 1
      const onServer = found.get(id)
      if (onServer === undefined)
        add(violations, 'last-write-kept', `${kind} ${id} was applied but is not on the server`)
      else if (onServer !== text)
        add(violations, 'last-write-kept', `${kind} ${id} reads "${onServer}" on the server, last written "${text}"`)
    }
  }
  return checked
}
