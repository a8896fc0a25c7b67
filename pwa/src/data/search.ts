/**
 * Search on the device (issue 23 §2, decision 95): a buble's posts, comments, chat messages, events
 * and polls as stored in IndexedDB, matched word by word (each word of the query begins a word of
 * the text), newest first, as the same hits the server answers. Works offline.
 */

import type { MemberRef } from '@buble/shared/bubles'
import type { ChatMessage } from '@buble/shared/chat'
import type { BubleEvent } from '@buble/shared/events'
import { hasMentions, memberNames, mentionedIds, renderMentions } from '@buble/shared/mentions'
import type { Poll } from '@buble/shared/polls'
import { matchText, type SearchHit, type SearchKind, searchWords, snippetAround } from '@buble/shared/search'
import type { Comment, Post } from '@buble/shared/wall'
import { useLiveQuery } from 'dexie-react-hooks'
import { currentMemberRefs } from './authors.ts'
import { useDevice } from './data-context.tsx'
import type { DeviceDb } from './device-db.ts'

/** At most this many device hits are shown: a word in every post of a big buble must not fill the screen. */
export const DEVICE_SEARCH_LIMIT = 50

interface Searchable {
  kind: SearchKind
  id: string
  post_id: string | null
  text: string
  author: MemberRef
  created_at: string
}

/**
 * The rows with their texts as people read them (decision 94): a mention is `@Name` (the member's name
 * now, so searching the name finds it), never its stored `<@id>`; anyone else's is `@someone`.
 */
async function readable(db: DeviceDb, bubleId: string, rows: Searchable[]): Promise<Searchable[]> {
  const ids = rows.flatMap((row) => (hasMentions(row.text) ? mentionedIds(row.text) : []))
  if (ids.length === 0) return rows
  const nameOf = memberNames([...(await currentMemberRefs(db, bubleId, ids)).values()])
  return rows.map((row) => (hasMentions(row.text) ? { ...row, text: renderMentions(row.text, nameOf) } : row))
}

const joined = (...parts: (string | null | undefined)[]) => parts.filter((part) => part).join('\n')

/** Every searchable row of the buble, as text with its maker and time. */
async function searchables(db: DeviceDb, bubleId: string): Promise<Searchable[]> {
  const of = async <T>(table: 'posts' | 'comments' | 'chat_messages' | 'events' | 'polls') =>
    (await db[table].where('buble_id').equals(bubleId).toArray()) as unknown as T[]
  const [posts, comments, messages, events, polls] = await Promise.all([
    of<Post>('posts'),
    of<Comment>('comments'),
    of<ChatMessage>('chat_messages'),
    of<BubleEvent>('events'),
    of<Poll>('polls'),
  ])
  const base = { post_id: null }
  return [
    ...posts.map((p) => ({
      ...base,
      kind: 'post' as const,
      id: p.id,
      text: p.content,
      author: p.author,
      created_at: p.created_at,
    })),
    ...comments.map((c) => ({
      kind: 'comment' as const,
      id: c.id,
      post_id: c.post_id,
      text: c.content,
      author: c.author,
      created_at: c.created_at,
    })),
    ...messages.map((m) => ({
      ...base,
      kind: 'chat' as const,
      id: m.id,
      text: m.content,
      author: m.sender,
      created_at: m.created_at,
    })),
    ...events.map((e) => ({
      ...base,
      kind: 'event' as const,
      id: e.id,
      text: joined(e.title, e.location, e.description),
      author: e.creator,
      created_at: e.created_at,
    })),
    ...polls.map((p) => ({
      ...base,
      kind: 'poll' as const,
      id: p.id,
      text: joined(p.question, ...p.options.map((o) => o.option_text)),
      author: p.creator,
      created_at: p.created_at,
    })),
  ]
}

/** The device's hits for `query` in the buble, newest first, at most `limit`. */
export async function searchDevice(
  db: DeviceDb,
  bubleId: string,
  query: string,
  limit = DEVICE_SEARCH_LIMIT,
): Promise<SearchHit[]> {
  const words = searchWords(query)
  if (words.length === 0) return []
  const found: { row: Searchable; marks: [number, number][] }[] = []
  for (const row of await readable(db, bubleId, await searchables(db, bubleId))) {
    const marks = matchText(row.text, words)
    if (marks) found.push({ row, marks })
  }
  found.sort((a, b) =>
    a.row.created_at === b.row.created_at
      ? b.row.id.localeCompare(a.row.id)
      : b.row.created_at.localeCompare(a.row.created_at),
  )
  const shown = found.slice(0, limit)
  const makers = await currentMemberRefs(
    db,
    bubleId,
    shown.map(({ row }) => row.author.id),
  )
  return shown.map(({ row, marks }) => ({
    kind: row.kind,
    id: row.id,
    buble_id: bubleId,
    post_id: row.post_id,
    snippet: snippetAround(row.text, marks),
    author: makers.get(row.author.id) ?? row.author,
    created_at: row.created_at,
  }))
}

/** The device's hits, live (a new post that matches shows up); undefined while reading, [] for no query. */
export function useDeviceSearch(bubleId: string, query: string): SearchHit[] | undefined {
  const { db } = useDevice()
  return useLiveQuery(() => searchDevice(db, bubleId, query), [db, bubleId, query])
}
