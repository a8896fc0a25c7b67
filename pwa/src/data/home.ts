/**
 * The home screen's data: each buble with its unread total and its latest activity, newest activity
 * first, read live from the device's database (so it works offline and follows every pull).
 */

import { mentionedIds, renderMentions } from '@buble/shared/mentions'
import { totalUnread } from '@buble/shared/unread'
import Dexie from 'dexie'
import { useLiveQuery } from 'dexie-react-hooks'
import { currentMemberRefs } from './authors.ts'
import type { LocalBuble } from './bubles.ts'
import { useDevice } from './data-context.tsx'
import type { DeviceDb } from './device-db.ts'
import { unreadOnDevice } from './unread-elsewhere.ts'

/** What happened: the kinds of row the home card can name. */
export type ActivityKind = 'chat' | 'image' | 'post' | 'comment' | 'event' | 'poll' | 'story' | 'joined'

export interface Activity {
  kind: ActivityKind
  /** Who did it, as the member list names them now (or as the row carries them). */
  who: string
  /** The user did it on this device or another of theirs. */
  mine: boolean
  /** The message, post, comment, event title or poll question; '' where there is none. */
  text: string
  /** When, ISO. */
  at: string
}

export interface HomeBuble {
  buble: LocalBuble
  /** Every tab's unread counter added up. */
  unread: number
  /** Some tab holds an unread mention of the user (decision 94): the card's `@` mark. */
  mentioned: boolean
  latest: Activity | null
}

interface Candidate {
  kind: ActivityKind
  makerId: string | undefined
  makerName: string | undefined
  text: string
  at: string
}

type Row = Record<string, unknown>
const str = (value: unknown): string => (typeof value === 'string' ? value : '')
const maker = (row: Row, key: string) => row[key] as { id?: string; name?: string } | undefined

/** The newest of `rows` by `created_at` (or `key`). */
function newest(rows: Row[], key = 'created_at'): Row | undefined {
  let best: Row | undefined
  for (const row of rows) if (!best || str(row[key]) > str(best[key])) best = row
  return best
}

/** A buble's newest row of a table with a [buble_id+created_at] index. */
const newestIndexed = (db: DeviceDb, table: 'posts' | 'chat_messages' | 'comments', bubleId: string) =>
  db[table].where('[buble_id+created_at]').between([bubleId, Dexie.minKey], [bubleId, Dexie.maxKey]).last() as Promise<
    Row | undefined
  >

const byBuble = (db: DeviceDb, table: 'events' | 'polls' | 'stories' | 'members', bubleId: string) =>
  db[table].where('buble_id').equals(bubleId).toArray() as Promise<Row[]>

/** Every candidate for a buble's latest activity: the newest row of each kind the device holds. */
async function candidatesOf(db: DeviceDb, buble: LocalBuble): Promise<Candidate[]> {
  // Events, polls, stories and members are few per buble; posts, comments and chat are read by index.
  const [message, post, comment, events, polls, stories, members] = await Promise.all([
    newestIndexed(db, 'chat_messages', buble.id),
    newestIndexed(db, 'posts', buble.id),
    newestIndexed(db, 'comments', buble.id),
    byBuble(db, 'events', buble.id),
    byBuble(db, 'polls', buble.id),
    byBuble(db, 'stories', buble.id),
    byBuble(db, 'members', buble.id),
  ])
  const found: Candidate[] = []
  const add = (kind: ActivityKind, row: Row | undefined, who: string, text: string, at = 'created_at') => {
    if (!row || !str(row[at])) return
    const person = maker(row, who)
    found.push({ kind, makerId: person?.id, makerName: person?.name, text, at: str(row[at]) })
  }
  if (message) {
    const image = message.type === 'image'
    add(image ? 'image' : 'chat', message, 'sender', str(message.content))
  }
  if (post) add('post', post, 'author', str(post.content))
  if (comment) add('comment', comment, 'author', str(comment.content))
  const event = newest(events)
  if (event) add('event', event, 'creator', str(event.title))
  const poll = newest(polls)
  if (poll) add('poll', poll, 'creator', str(poll.question))
  add('story', newest(stories), 'author', '')
  // Joining is news, but the owner's own joining is the buble's creation.
  const joined = newest(
    members.filter((member) => member.role !== 'owner'),
    'joined_at',
  )
  if (joined) {
    const user = joined.user as { name?: string } | undefined
    found.push({
      kind: 'joined',
      makerId: str(joined.user_id),
      makerName: user?.name,
      text: '',
      at: str(joined.joined_at),
    })
  }
  return found
}

/** The newest of a buble's candidates, its maker named as the member list names them now. */
export function latestOf(candidates: readonly Candidate[], names: ReadonlyMap<string, string>, userId: string) {
  let best: Candidate | undefined
  for (const candidate of candidates) if (!best || candidate.at > best.at) best = candidate
  if (!best) return null
  const who = (best.makerId && names.get(best.makerId)) || best.makerName || ''
  return { kind: best.kind, who, mine: !!best.makerId && best.makerId === userId, text: best.text, at: best.at }
}

/** When a buble last saw anything: its latest activity, or its creation. */
export const lastMoment = (home: Pick<HomeBuble, 'buble' | 'latest'>): string =>
  home.latest && home.latest.at > home.buble.created_at ? home.latest.at : home.buble.created_at

/** Newest activity first; a buble without any by its creation; ties by name. */
export const byLatestActivity = (a: HomeBuble, b: HomeBuble): number =>
  lastMoment(b).localeCompare(lastMoment(a)) || a.buble.name.localeCompare(b.buble.name)

/** The home screen's bubles, newest activity first; undefined while loading. */
export async function readHome(db: DeviceDb, userId: string): Promise<HomeBuble[]> {
  const [rows, counters] = await Promise.all([db.bubles.toArray(), db.unread.toArray()])
  const bubles = rows as LocalBuble[]
  const homes = await Promise.all(
    bubles.map(async (buble): Promise<HomeBuble> => {
      const candidates = await candidatesOf(db, buble)
      const refs = await currentMemberRefs(
        db,
        buble.id,
        candidates.map((candidate) => candidate.makerId),
      )
      const names = new Map([...refs].map(([id, ref]) => [id, ref.name]))
      const mine = counters.filter((row) => row.buble_id === buble.id)
      const unread = totalUnread(mine as { unreadCount?: unknown }[])
      const mentioned = mine.some((row) => row.mentioned === true)
      const latest = latestOf(candidates, names, userId)
      // Its mentions read with the names members have now.
      const ids = latest ? mentionedIds(latest.text) : []
      if (latest && ids.length > 0) {
        const named = await currentMemberRefs(db, buble.id, ids)
        latest.text = renderMentions(latest.text, (id) => named.get(id)?.name)
      }
      return { buble, unread, mentioned, latest }
    }),
  )
  return homes.sort(byLatestActivity)
}

/** The home screen's bubles, live; undefined while loading. */
export function useHome(): HomeBuble[] | undefined {
  const { db, userId } = useDevice()
  return useLiveQuery(() => readHome(db, userId), [db, userId])
}

/** Every buble's unread counters added up, live; undefined while loading. */
export function useUnreadTotal(): number | undefined {
  const { db } = useDevice()
  const total = useLiveQuery(() => unreadOnDevice(db), [db])
  return total
}
