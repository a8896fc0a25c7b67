import type { Story } from '@buble/shared/wall'
import type { Change } from '@buble/sync/protocol'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { expect, test, vi } from 'vitest'
import { json, type Reply } from '../../test/fake-fetch.ts'
import { alice, bubleChange, makeBuble, makeMember, memberChange, person } from '../../test/fixtures.ts'
import { renderApp } from '../../test/render-app.tsx'

const buble = makeBuble({ name: 'Photo Club' })
let count = 0

/** A story by `author`, `minutesAgo` old; it lives 24 h unless told otherwise. */
function makeStory(author: string, minutesAgo: number, overrides: Partial<Story> = {}): Story {
  count += 1
  const created = Date.now() - minutesAgo * 60_000
  return {
    id: `0190f5b4-4000-7000-8000-${String(count).padStart(12, '0')}`,
    buble_id: buble.id,
    media_url: `/api/uploads/secure/story-${count}.webp`,
    media_type: 'image',
    author: person(author),
    duration_seconds: 5,
    created_at: new Date(created).toISOString(),
    expires_at: new Date(created + 24 * 3_600_000).toISOString(),
    ...overrides,
  }
}

const storyChange = (story: Story): Change => ({
  entity: 'story',
  op: 'put',
  id: story.id,
  buble_id: buble.id,
  data: story,
})

/** Each story's file, as the secure upload route answers it. */
const files = (stories: Story[], reply: () => Reply = () => () => new Response('image')) =>
  Object.fromEntries(stories.map((story) => [`GET ${story.media_url}`, reply()]))

function open(stories: Story[], api: Record<string, Reply | Reply[]> = {}, role: 'owner' | 'member' = 'owner') {
  return renderApp({
    route: '/bubles/photo-club',
    user: alice,
    server: {
      seed: [bubleChange(buble), memberChange(buble.id, makeMember(alice, role)), ...stories.map(storyChange)],
    },
    api: { 'GET /api/users/profile': json(200, alice), ...files(stories), ...api },
  })
}

const card = () => screen.getByRole('article', { name: 'Stories' })
const rings = () =>
  within(within(card()).getByRole('list', { name: 'Stories' }))
    .queryAllByRole('button')
    .map((ring) => ring.getAttribute('aria-label'))

test('a ring per author of the stories not yet expired, the most recent sharer first', async () => {
  open([
    makeStory('Bob Builder', 30),
    makeStory('Bob Builder', 10),
    makeStory('Carol Chen', 5),
    makeStory('Dan Dare', 25 * 60),
  ])
  await waitFor(() => expect(rings()).toEqual(['Stories by Carol Chen, 1 story', 'Stories by Bob Builder, 2 stories']))
  expect(within(card()).getByLabelText('Add story')).toBeEnabled()
  expect(within(card()).queryByText(/No stories right now/)).toBeNull()
})

test('without stories the widget says so and offers to share one', async () => {
  open([makeStory('Dan Dare', 25 * 60)])
  expect(
    await within(await screen.findByRole('article', { name: 'Stories' })).findByText(/No stories right now/),
  ).toBeInTheDocument()
  expect(rings()).toEqual([])
})

test('a ring opens the viewer at that author; arrows and the tap areas step through; Escape closes', async () => {
  const stories = [makeStory('Bob Builder', 30), makeStory('Bob Builder', 10), makeStory('Carol Chen', 5)]
  const app = open(stories)
  const bobs = await screen.findByRole('button', { name: 'Stories by Bob Builder, 2 stories' })
  await app.user.click(bobs)
  const viewer = screen.getByRole('dialog', { name: 'Story by Bob Builder' })
  expect(viewer).toHaveFocus()
  expect(within(viewer).getByText('Story 2 of 3')).toBeInTheDocument()
  expect(await within(viewer).findByRole('img', { name: 'Story by Bob Builder' })).toHaveAttribute(
    'src',
    expect.stringMatching(/^blob:/),
  )
  expect(app.callsTo(`GET ${stories[0]!.media_url}`)[0]?.headers.Authorization).toBe('Bearer token-1')

  await app.user.keyboard('{ArrowRight}')
  expect(within(viewer).getByText('Story 3 of 3')).toBeInTheDocument()
  await app.user.keyboard('{ArrowLeft}{ArrowLeft}')
  expect(screen.getByRole('dialog', { name: 'Story by Carol Chen' })).toBeInTheDocument()
  expect(within(viewer).getByRole('button', { name: 'Previous story' })).toBeDisabled()
  await app.user.click(within(viewer).getByRole('button', { name: 'Next story' }))
  expect(within(viewer).getByText('Story 2 of 3')).toBeInTheDocument()

  await app.user.keyboard('{Escape}')
  expect(screen.queryByRole('dialog')).toBeNull()
  expect(bobs).toHaveFocus()
})

test('an image shows for its duration, then the next; after the last the viewer closes', async () => {
  const app = open([
    makeStory('Bob Builder', 10, { duration_seconds: 1 }),
    makeStory('Bob Builder', 5, { duration_seconds: 1 }),
  ])
  await app.user.click(await screen.findByRole('button', { name: 'Stories by Bob Builder, 2 stories' }))
  const viewer = screen.getByRole('dialog', { name: 'Story by Bob Builder' })
  expect(within(viewer).getByText('Story 1 of 2')).toBeInTheDocument()
  expect(await within(viewer).findByText('Story 2 of 2')).toBeInTheDocument()
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
})

test('a video story plays to its end, then the next', async () => {
  const video = makeStory('Bob Builder', 10, { media_type: 'video', media_url: '/api/uploads/secure/clip.webm' })
  const app = open([video, makeStory('Bob Builder', 5)])
  await app.user.click(await screen.findByRole('button', { name: 'Stories by Bob Builder, 2 stories' }))
  const viewer = screen.getByRole('dialog', { name: 'Story by Bob Builder' })
  const player = await within(viewer).findByLabelText('Video story by Bob Builder')
  expect(player.tagName).toBe('VIDEO')
  expect(within(viewer).getByRole('button', { name: 'Sound on' })).toHaveAttribute('aria-pressed', 'false')
  player.dispatchEvent(new Event('ended'))
  expect(await within(viewer).findByText('Story 2 of 2')).toBeInTheDocument()
})

test('a story whose file cannot be fetched says Failed to load stories', async () => {
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  const story = makeStory('Bob Builder', 10)
  const app = open([story], { [`GET ${story.media_url}`]: json(404, { message: 'Not found', code: 'NOT_FOUND' }) })
  await app.user.click(await screen.findByRole('button', { name: 'Stories by Bob Builder, 1 story' }))
  expect((await within(screen.getByRole('dialog')).findByRole('alert')).textContent).toBe('Failed to load stories')
})

const picture = () => new File(['x'], 'holiday.jpg', { type: 'image/jpeg' })

test('sharing uploads the file, creates the story with its address, and the ring shows at once', async () => {
  const app = open([makeStory('Bob Builder', 10)], {
    'POST /api/uploads/story': json(200, { url: '/api/uploads/secure/holiday.webp', media_type: 'image' }),
    'POST /api/stories': (call) => {
      const body = call.body as Pick<Story, 'id' | 'buble_id' | 'media_url' | 'media_type' | 'duration_seconds'>
      const now = Date.now()
      return json(201, {
        ...body,
        author: person(alice.name),
        created_at: new Date(now).toISOString(),
        expires_at: new Date(now + 24 * 3_600_000).toISOString(),
      })
    },
  })
  await app.user.upload(await screen.findByLabelText('Add story'), picture())
  await waitFor(() => expect(rings()).toEqual(['Stories by Alice Example, 1 story', 'Stories by Bob Builder, 1 story']))
  const form = app.callsTo('POST /api/uploads/story')[0]!.body as FormData
  expect(form.get('buble_id')).toBe(buble.id)
  expect((form.get('file') as File).name).toBe('holiday.jpg')
  expect(app.callsTo('POST /api/stories')[0]!.body).toEqual({
    id: expect.any(String),
    buble_id: buble.id,
    media_url: '/api/uploads/secure/holiday.webp',
    media_type: 'image',
    duration_seconds: 5,
  })
})

test.each([
  [
    'the upload fails',
    'Upload failed',
    { 'POST /api/uploads/story': json(413, { message: 'Too large', code: 'PAYLOAD_TOO_LARGE' }) },
  ],
  [
    'the story cannot be created',
    'Failed to upload story',
    {
      'POST /api/uploads/story': json(200, { url: '/api/uploads/secure/holiday.webp' }),
      'POST /api/stories': json(500, undefined),
    },
  ],
] as const)('when %s, the widget says %j', async (_when, text, api) => {
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  const app = open([], api)
  await app.user.upload(await screen.findByLabelText('Add story'), picture())
  expect((await within(card()).findByRole('alert')).textContent).toBe(text)
  expect(rings()).toEqual([])
})

test('a file that is neither an image nor a video is refused before any upload', async () => {
  const app = open([])
  // The picker offers images and videos only; a drop or an old browser may still hand over another file.
  fireEvent.change(await screen.findByLabelText('Add story'), {
    target: { files: [new File(['x'], 'notes.pdf', { type: 'application/pdf' })] },
  })
  expect((await within(card()).findByRole('alert')).textContent).toBe(
    'Choose a JPEG, PNG, WebP or GIF image, or an MP4 or WebM video',
  )
  expect(app.calls.filter((call) => call.method === 'POST')).toHaveLength(0)
})

test('offline, sharing waits and says why', async () => {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false)
  open([])
  const input = await screen.findByLabelText('Add story')
  expect(input).toBeDisabled()
  expect(input).toHaveAccessibleDescription('Stories can be shared when you are online.')
})

test('a plain member may delete their own story, not another’s: asked first, then gone from the device', async () => {
  const bobs = makeStory('Bob Builder', 30)
  const own = makeStory('Alice Example', 10)
  const app = open([bobs, own], { [`DELETE /api/stories/${own.id}`]: new Response(null, { status: 204 }) }, 'member')
  await waitFor(() => expect(rings()).toEqual(['Stories by Alice Example, 1 story', 'Stories by Bob Builder, 1 story']))

  await app.user.click(within(card()).getByRole('button', { name: 'Stories by Bob Builder, 1 story' }))
  let viewer = await screen.findByRole('dialog', { name: 'Story by Bob Builder' })
  expect(within(viewer).queryByRole('button', { name: 'Delete story' })).toBeNull()
  await app.user.click(within(viewer).getByRole('button', { name: 'Close' }))

  await app.user.click(within(card()).getByRole('button', { name: 'Stories by Alice Example, 1 story' }))
  viewer = await screen.findByRole('dialog', { name: 'Story by Alice Example' })
  await app.user.click(within(viewer).getByRole('button', { name: 'Delete story' }))
  const confirm = screen.getByRole('dialog', { name: 'Delete story?' })
  expect(screen.queryByRole('dialog', { name: 'Story by Alice Example' })).toBeNull()
  await app.user.click(within(confirm).getByRole('button', { name: 'Delete story' }))
  await waitFor(() => expect(rings()).toEqual(['Stories by Bob Builder, 1 story']))
  expect(screen.queryByRole('dialog')).toBeNull()
  expect(app.callsTo(`DELETE /api/stories/${own.id}`)).toHaveLength(1)
})

test('a holder of delete_others_content may delete another’s story; a refusal keeps it and says so', async () => {
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  const bobs = makeStory('Bob Builder', 30)
  const app = open([bobs], {
    [`DELETE /api/stories/${bobs.id}`]: json(500, { message: 'Something went wrong', code: 'INTERNAL_ERROR' }),
  })
  await waitFor(() => expect(rings()).toEqual(['Stories by Bob Builder, 1 story']))
  await app.user.click(within(card()).getByRole('button', { name: 'Stories by Bob Builder, 1 story' }))
  const viewer = await screen.findByRole('dialog', { name: 'Story by Bob Builder' })
  await app.user.click(within(viewer).getByRole('button', { name: 'Delete story' }))
  const confirm = screen.getByRole('dialog', { name: 'Delete story?' })
  await app.user.click(within(confirm).getByRole('button', { name: 'Delete story' }))
  expect(await within(confirm).findByRole('alert')).toHaveTextContent('Something went wrong')
  expect(rings()).toEqual(['Stories by Bob Builder, 1 story'])
})
