import type { MediaItem } from '@buble/shared/media'
import { act, screen, waitFor, within } from '@testing-library/react'
import { afterEach, expect, test, vi } from 'vitest'
import { json, type Reply } from '../../test/fake-fetch.ts'
import { alice, bubleChange, makeBuble, makeMember, memberChange, person } from '../../test/fixtures.ts'
import { renderApp } from '../../test/render-app.tsx'
import { makePost, postChange } from '../../test/wall-fixtures.ts'

const buble = makeBuble({ name: 'Photo Club' })
const MEDIA = `GET /api/bubles/${buble.id}/media`
let count = 0

afterEach(() => vi.unstubAllGlobals())

/** A fake IntersectionObserver: nothing is near the screen until the test brings an element there. */
function fakeObserver() {
  const observers: { callback: IntersectionObserverCallback; nodes: Element[]; on: boolean }[] = []
  class Fake {
    entry = { callback: (() => {}) as IntersectionObserverCallback, nodes: [] as Element[], on: true }
    constructor(callback: IntersectionObserverCallback) {
      this.entry.callback = callback
      observers.push(this.entry)
    }
    observe(node: Element) {
      this.entry.nodes.push(node)
    }
    disconnect() {
      this.entry.on = false
    }
  }
  vi.stubGlobal('IntersectionObserver', Fake)
  return {
    /** Once an observer watches `node` (effects run after the render), reports it near the screen. */
    async bringNear(node: Element) {
      const watching = () => observers.filter((o) => o.on && o.nodes.includes(node))
      await waitFor(() => expect(watching()).not.toHaveLength(0))
      act(() => {
        for (const o of watching())
          o.callback(
            [{ isIntersecting: true, target: node } as unknown as IntersectionObserverEntry],
            {} as IntersectionObserver,
          )
      })
    },
  }
}

function item(source: MediaItem['source'], author: string, mediaType: MediaItem['media_type'] = 'image'): MediaItem {
  count += 1
  const id = `0190f5b4-5000-7000-8000-${String(count).padStart(12, '0')}`
  return {
    id: `${source}:${id}`,
    source,
    source_id: id,
    media_type: mediaType,
    url: `/api/uploads/secure/media-${count}.webp`,
    author: person(author),
    created_at: new Date(Date.UTC(2026, 10, 28, 12, 0, 0) - count * 60_000).toISOString(),
  }
}

const files = (items: MediaItem[]): Record<string, Reply> =>
  Object.fromEntries(items.map((it) => [`GET ${it.url}`, () => new Response('bytes')]))

function open(api: Record<string, Reply | Reply[]>) {
  return renderApp({
    route: '/bubles/photo-club/media',
    user: alice,
    server: { seed: [bubleChange(buble), memberChange(buble.id, makeMember(alice, 'member'))] },
    api: { 'GET /api/users/profile': json(200, alice), ...api },
  })
}

test('the grid lists the server’s media; the viewer steps with the arrow keys, keeps the focus, and Escape closes it', async () => {
  const items = [item('story', 'Bob Builder', 'video'), item('chat', 'Carol Chen'), item('post', 'Dan Dare')]
  const app = open({ [MEDIA]: json(200, { items, next: null }), ...files(items) })
  const tiles = await screen.findAllByRole('button', { name: /^(Photo|Video) by / })
  expect(tiles.map((tile) => tile.getAttribute('aria-label'))).toEqual([
    'Video by Bob Builder in a story',
    'Photo by Carol Chen in the chat',
    'Photo by Dan Dare in a post',
  ])

  await app.user.click(tiles[1]!)
  const viewer = screen.getByRole('dialog', { name: 'Media viewer' })
  expect(within(viewer).getByText('2 of 3')).toBeInTheDocument()
  expect(await within(viewer).findByRole('img', { name: 'Photo by Carol Chen in the chat' })).toHaveAttribute(
    'src',
    expect.stringMatching(/^blob:/),
  )
  await app.user.keyboard('{ArrowRight}')
  expect(within(viewer).getByText('3 of 3')).toBeInTheDocument()
  expect(within(viewer).getByRole('button', { name: 'Next' })).toHaveAttribute('aria-disabled', 'true')
  await app.user.keyboard('{ArrowRight}')
  expect(within(viewer).getByText('3 of 3')).toBeInTheDocument()
  await app.user.keyboard('{ArrowLeft}{ArrowLeft}')
  expect(within(viewer).getByText('1 of 3')).toBeInTheDocument()
  await app.user.click(within(viewer).getByRole('button', { name: 'Previous' }))
  expect(within(viewer).getByText('1 of 3')).toBeInTheDocument()
  expect(await within(viewer).findByLabelText('Video by Bob Builder in a story')).toBeInstanceOf(HTMLVideoElement)

  // Tab goes round inside the dialog.
  for (let n = 0; n < 5; n++) await app.user.tab()
  expect(viewer).toContainElement(document.activeElement as HTMLElement)

  await app.user.keyboard('{Escape}')
  expect(screen.queryByRole('dialog')).toBeNull()
  expect(tiles[1]).toHaveFocus()
})

test('an empty gallery says so; a second page comes after the first', async () => {
  const empty = open({ [MEDIA]: json(200, { items: [], next: null }) })
  expect(await screen.findByText('No photos or videos yet')).toBeInTheDocument()
  empty.unmount()

  const first = [item('post', 'Dan Dare')]
  const second = [item('chat', 'Carol Chen')]
  const cursor = `${first[0]!.created_at}~${first[0]!.source_id}`
  const app = open({
    [MEDIA]: json(200, { items: first, next: cursor }),
    [`${MEDIA}?before=${encodeURIComponent(cursor)}`]: json(200, { items: second, next: null }),
    ...files([...first, ...second]),
  })
  await screen.findByRole('button', { name: 'Photo by Dan Dare in a post' })
  const more = screen.queryByRole('button', { name: 'Load more' })
  if (more) await app.user.click(more)
  await waitFor(() =>
    expect(
      screen.getAllByRole('button', { name: /^Photo by / }).map((tile) => tile.getAttribute('aria-label')),
    ).toEqual(['Photo by Dan Dare in a post', 'Photo by Carol Chen in the chat']),
  )
  expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull()
})

test('with no answer from the server, the gallery is what the device holds, and says so', async () => {
  const withImage = makePost(buble.id, 'Bob Builder', 'Look', 5, { image_url: '/api/uploads/secure/on-device.webp' })
  renderApp({
    route: '/bubles/photo-club/media',
    user: alice,
    server: {
      seed: [
        bubleChange(buble),
        memberChange(buble.id, makeMember(alice, 'member')),
        postChange(withImage),
        postChange(makePost(buble.id, 'Bob Builder', 'No picture', 3)),
      ],
    },
    api: {
      'GET /api/users/profile': json(200, alice),
      [MEDIA]: new TypeError('Failed to fetch'),
      'GET /api/uploads/secure/on-device.webp': () => new Response('bytes'),
    },
  })
  expect(
    await screen.findByText('You are offline. Showing the photos and videos saved on this device.'),
  ).toBeInTheDocument()
  expect(screen.getAllByRole('button', { name: /^Photo by / }).map((tile) => tile.getAttribute('aria-label'))).toEqual([
    'Photo by Bob Builder in a post',
  ])
})

test('lazy: a tile fetches its file only near the screen; the next page comes when the grid’s end or the viewer’s last items come near', async () => {
  const { bringNear } = fakeObserver()
  const first = [item('post', 'Dan Dare'), item('chat', 'Carol Chen'), item('post', 'Eve Early')]
  const second = [item('story', 'Bob Builder')]
  const last = first.at(-1)!
  const cursor = `${last.created_at}~${last.source_id}`
  const next = `${MEDIA}?before=${encodeURIComponent(cursor)}`
  const app = open({
    [MEDIA]: json(200, { items: first, next: cursor }),
    [next]: json(200, { items: second, next: null }),
    ...files([...first, ...second]),
  })
  const tiles = await screen.findAllByRole('button', { name: /^Photo by / })
  expect(tiles).toHaveLength(3)
  const fetchedFiles = () => app.calls.filter((call) => call.url.startsWith('/api/uploads/')).map((call) => call.url)
  expect(fetchedFiles()).toEqual([])
  expect(tiles.every((tile) => tile.querySelector('img') === null)).toBe(true)

  await bringNear(tiles[1]!)
  await waitFor(() => expect(tiles[1]!.querySelector('img')).not.toBeNull())
  expect(fetchedFiles()).toEqual([first[1]!.url])
  expect(app.callsTo(next)).toHaveLength(0)

  // The viewer at the second of three loaded items asks for the next page, so that Next goes on.
  await app.user.click(tiles[0]!)
  const viewer = screen.getByRole('dialog', { name: 'Media viewer' })
  expect(app.callsTo(next)).toHaveLength(0)
  await app.user.keyboard('{ArrowRight}')
  await waitFor(() => expect(within(viewer).getByText('2 of 4')).toBeInTheDocument())
  expect(app.callsTo(next)).toHaveLength(1)
  await app.user.keyboard('{Escape}')
  expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull()
  expect(screen.getAllByRole('button', { name: /^(Photo|Video) by / })).toHaveLength(4)
})

test('the next page loads by itself when the end of the grid comes near the screen', async () => {
  const { bringNear } = fakeObserver()
  const first = [item('post', 'Dan Dare')]
  const cursor = `${first[0]!.created_at}~${first[0]!.source_id}`
  const next = `${MEDIA}?before=${encodeURIComponent(cursor)}`
  const app = open({
    [MEDIA]: json(200, { items: first, next: cursor }),
    [next]: json(200, { items: [item('chat', 'Carol Chen')], next: null }),
    ...files(first),
  })
  const more = await screen.findByRole('button', { name: 'Load more' })
  expect(app.callsTo(next)).toHaveLength(0)
  await bringNear(more.parentElement!)
  expect(await screen.findByRole('button', { name: 'Photo by Carol Chen in the chat' })).toBeInTheDocument()
  expect(app.callsTo(next)).toHaveLength(1)
  expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull()
})
