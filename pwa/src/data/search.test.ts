import type { LocalRow } from '@buble/shared/device-rows'
import { mentionToken } from '@buble/shared/mentions'
import { IDBKeyRange, indexedDB } from 'fake-indexeddb'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { type DeviceDb, openDeviceDb } from './device-db.ts'
import { searchDevice } from './search.ts'

let db: DeviceDb
const ana = { id: 'u-ana', name: 'Ana', avatar_url: null }
const bo = { id: 'u-bo', name: 'Bo', avatar_url: null }
const at = (minute: number) => `2026-11-20T10:${String(minute).padStart(2, '0')}:00.000Z`
const row = (fields: Record<string, unknown>) => fields as LocalRow

beforeEach(async () => {
  db = openDeviceDb(`search-test-${Math.random()}`, { indexedDB, IDBKeyRange })
  await db.posts.bulkPut([
    row({ id: 'p1', buble_id: 'b1', content: 'Swimming at the lake on Sunday', author: ana, created_at: at(1) }),
    row({ id: 'p2', buble_id: 'b1', content: 'Book club: <b>Moby</b> Dick', author: bo, created_at: at(5) }),
    row({ id: 'p-other', buble_id: 'b2', content: 'The lake in another buble', author: ana, created_at: at(9) }),
  ])
  await db.comments.put(
    row({ id: 'c1', buble_id: 'b1', post_id: 'p1', content: 'The LAKE was cold', author: bo, created_at: at(2) }),
  )
  await db.chat_messages.put(
    row({ id: 'm1', buble_id: 'b1', content: 'Lakeside fika?', sender: ana, created_at: at(3) }),
  )
  await db.events.put(
    row({
      id: 'e1',
      buble_id: 'b1',
      title: 'Picnic',
      description: null,
      location: 'North lake',
      creator: bo,
      created_at: at(4),
    }),
  )
  await db.polls.put(
    row({
      id: 'o1',
      buble_id: 'b1',
      question: 'Where?',
      options: [{ id: 'x', option_text: 'The lake', votes_count: 0 }],
      creator: ana,
      created_at: at(6),
    }),
  )
  // The member list names Bo as he is called now.
  await db.members.put(
    row({ id: 'b1:u-bo', buble_id: 'b1', user_id: 'u-bo', user: { name: 'Bo B', avatar_url: null } }),
  )
})

afterEach(async () => {
  await db.delete()
})

const marked = (hit: { snippet: { text: string; marks: [number, number][] } }) =>
  hit.snippet.marks.map(([s, e]) => hit.snippet.text.slice(s, e))

test('finds every kind in the buble newest first, each word marked where it begins a word', async () => {
  const hits = await searchDevice(db, 'b1', 'lake')
  expect(hits.map((hit) => [hit.kind, hit.id, hit.post_id])).toEqual([
    ['poll', 'o1', null],
    ['event', 'e1', null],
    ['chat', 'm1', null],
    ['comment', 'c1', 'p1'],
    ['post', 'p1', null],
  ])
  expect(hits.map(marked)).toEqual([['lake'], ['lake'], ['Lake'], ['LAKE'], ['lake']])
  expect(hits.find((hit) => hit.id === 'c1')?.author).toEqual({ id: 'u-bo', name: 'Bo B', avatar_url: null })
})

test('every word must match; a word matches the start of a word, not its middle', async () => {
  expect((await searchDevice(db, 'b1', 'swim sunday')).map((hit) => hit.id)).toEqual(['p1'])
  expect((await searchDevice(db, 'b1', 'swim winter')).map((hit) => hit.id)).toEqual([])
  expect((await searchDevice(db, 'b1', 'ake')).map((hit) => hit.id)).toEqual([])
})

test('markup in content is only text, and a query of no words finds nothing', async () => {
  const [hit] = await searchDevice(db, 'b1', 'moby')
  expect(hit?.snippet.text).toBe('Book club: <b>Moby</b> Dick')
  expect(marked(hit!)).toEqual(['Moby'])
  expect(await searchDevice(db, 'b1', '<>!')).toEqual([])
})

test('a mention is searched and shown as the member is called now, never as its stored id', async () => {
  const BO = '0190a0b0-0000-7000-8000-0000000000b0'
  const GONE = '0190a0b0-0000-7000-8000-00000000dead'
  await db.members.put(
    row({ id: `b1:${BO}`, buble_id: 'b1', user_id: BO, user: { name: 'Bo Renamed', avatar_url: null } }),
  )
  await db.chat_messages.put(
    row({
      id: 'm2',
      buble_id: 'b1',
      content: `Sauna with ${mentionToken(BO)} and ${mentionToken(GONE)}`,
      sender: ana,
      created_at: at(7),
    }),
  )
  const [hit] = await searchDevice(db, 'b1', 'sauna')
  expect(hit?.snippet.text).toBe('Sauna with @Bo Renamed and @someone')
  expect((await searchDevice(db, 'b1', 'renamed')).map(marked)).toEqual([['Renamed']])
  expect(await searchDevice(db, 'b1', '0190a0b0')).toEqual([])
  expect(await searchDevice(db, 'b1', 'dead')).toEqual([])
})
