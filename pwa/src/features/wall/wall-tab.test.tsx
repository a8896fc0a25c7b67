import type { Change, PushBody } from '@buble/sync/protocol'
import { screen, waitFor, within } from '@testing-library/react'
import { expect, test, vi } from 'vitest'
import { refusing } from '../../test/buble-server.ts'
import { deferred } from '../../test/deferred.ts'
import { json, type Reply } from '../../test/fake-fetch.ts'
import { alice, bob, bubleChange, makeBuble, makeMember, memberChange } from '../../test/fixtures.ts'
import { renderApp } from '../../test/render-app.tsx'
import type { TestServer } from '../../test/test-device.ts'
import { commentChange, makeComment, makePost, postChange } from '../../test/wall-fixtures.ts'

const PROFILE = 'GET /api/users/profile'
const buble = makeBuble({ name: 'Book Club' })
const other = makeBuble({ name: 'Chess Club' })
const base: Change[] = [
  bubleChange(buble),
  bubleChange(other),
  memberChange(buble.id, makeMember(alice, 'owner')),
  memberChange(buble.id, makeMember(bob, 'member')),
]

function openWall(
  rows: Change[],
  options: { server?: Partial<TestServer>; api?: Record<string, Reply>; aliceAs?: 'owner' | 'member' } = {},
) {
  const members = options.aliceAs === 'member' ? [memberChange(buble.id, makeMember(alice, 'member'))] : []
  return renderApp({
    route: '/bubles/book-club/wall',
    user: alice,
    server: { seed: [...base, ...members, ...rows], ...options.server },
    api: { [PROFILE]: json(200, alice), ...options.api },
  })
}

/** A server that never answers a push: what the screen shows comes from the device alone. */
const silent: Partial<TestServer> = { push: () => new Promise(() => {}) }

const posts = () => within(screen.getByRole('list', { name: 'Posts' })).getAllByRole('article')
const postTexts = () => posts().map((post) => post.querySelector('.post-content')?.textContent)
const mutations = (pushes: PushBody[]) => pushes.flatMap((push) => push.mutations)

test('the wall lists the posts on the device newest first, ten more at a time while older ones exist', async () => {
  const rows = Array.from({ length: 23 }, (_, i) =>
    postChange(makePost(buble.id, 'Bob Builder', `Post ${i + 1}`, 23 - i)),
  )
  // Newer than all of them, but another buble's.
  rows.push(postChange(makePost(other.id, 'Bob Builder', 'Elsewhere', 0)))
  const app = openWall(rows)
  await waitFor(() => expect(posts()).toHaveLength(10))
  expect(postTexts()).toEqual(Array.from({ length: 10 }, (_, i) => `Post ${23 - i}`))

  await app.user.click(screen.getByRole('button', { name: 'Load more' }))
  await waitFor(() => expect(posts()).toHaveLength(20))
  await app.user.click(screen.getByRole('button', { name: 'Load more' }))
  await waitFor(() => expect(posts()).toHaveLength(23))
  expect(postTexts().at(-1)).toBe('Post 1')
  expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull()
  expect(screen.queryByText('Elsewhere')).toBeNull()
})

test('with exactly ten posts Load more shows while the last page was full, then goes', async () => {
  const app = openWall(
    Array.from({ length: 10 }, (_, i) => postChange(makePost(buble.id, 'Bob Builder', `Post ${i}`, i))),
  )
  await waitFor(() => expect(posts()).toHaveLength(10))
  await app.user.click(screen.getByRole('button', { name: 'Load more' }))
  await waitFor(() => expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull())
  expect(posts()).toHaveLength(10)
})

test('an empty wall invites the first post', async () => {
  openWall([])
  expect(await screen.findByRole('heading', { name: 'No posts yet' })).toBeInTheDocument()
})

test('a post shows its author, time, edited mark, clickable links and a preview with the domain, not the other site’s image', async () => {
  const post = makePost(buble.id, 'Bob Builder', 'Read this:\nhttps://example.com/article.', 5, {
    is_edited: true,
    link_url: 'https://www.example.com/article',
    link_title: 'An article',
    link_description: 'What it is about',
    link_image: 'https://cdn.example.com/picture.jpg',
  })
  openWall([postChange(post)])
  const card = await screen.findByRole('article', { name: 'Post by Bob Builder' })
  expect(within(card).getByText('5m ago')).toHaveAttribute('dateTime', post.created_at)
  expect(within(card).getByText('(edited)')).toBeInTheDocument()
  // Line breaks are kept (white-space: pre-wrap), the address is a link, its full stop is not.
  expect(card.querySelector('.post-content')?.textContent).toBe('Read this:\nhttps://example.com/article.')
  const link = within(card).getByRole('link', { name: 'https://example.com/article' })
  expect(link).toHaveAttribute('href', 'https://example.com/article')
  expect(link).toHaveAttribute('target', '_blank')
  expect(link).toHaveAttribute('rel', 'noopener noreferrer')

  const preview = within(card).getByRole('link', { name: /An article/ })
  expect(preview).toHaveAttribute('href', 'https://www.example.com/article')
  expect(preview).toHaveAttribute('rel', 'noopener noreferrer')
  expect(preview).toHaveTextContent('example.com')
  expect(preview).toHaveTextContent('What it is about')
  expect(card.querySelector('img[src^="https:"]')).toBeNull()
})

test('a new post appears at once, marked Sending…, and is queued as post.create', async () => {
  const app = openWall([postChange(makePost(buble.id, 'Bob Builder', 'Older post', 60))], { server: silent })
  await screen.findByRole('article', { name: 'Post by Bob Builder' })
  const post = screen.getByRole('button', { name: 'Post' })
  expect(post).toBeDisabled()
  await app.user.type(screen.getByRole('textbox', { name: 'Write a post' }), '  Hello wall  ')
  await app.user.click(post)

  const mine = await screen.findByRole('article', { name: 'Post by Alice Example' })
  expect(posts()[0]).toBe(mine)
  expect(within(mine).getByText('Hello wall')).toBeInTheDocument()
  expect(within(mine).getByText('Sending…')).toBeInTheDocument()
  expect(within(mine).getByText('now')).toBeInTheDocument()
  expect(screen.getByRole('textbox', { name: 'Write a post' })).toHaveValue('')
  await waitFor(() => expect(mutations(app.device.pushes).map((m) => m.name)).toContain('post.create'))
  const created = mutations(app.device.pushes).find((m) => m.name === 'post.create')!
  expect(created.args).toEqual({ id: expect.any(String), buble_id: buble.id, content: 'Hello wall' })
  // The wall tab leaves the ticker out: it would only repeat the wall (decision 82).
  expect(screen.queryByRole('region', { name: 'Latest posts' })).toBeNull()
})

test('a plain member sees Edit and Delete on their own posts and comments only', async () => {
  const post = makePost(buble.id, 'Bob Builder', 'Bob wrote this', 10, { commentsCount: 2 })
  const app = openWall(
    [
      postChange(post),
      postChange(makePost(buble.id, 'Alice Example', 'Alice wrote this', 5)),
      commentChange(makeComment(post, 'Bob Builder', 'Bob commented', 8)),
      commentChange(makeComment(post, 'Alice Example', 'Alice commented', 7)),
    ],
    { server: silent, aliceAs: 'member' },
  )
  const bobs = await screen.findByRole('article', { name: 'Post by Bob Builder' })
  expect(within(bobs).queryByRole('button', { name: 'Edit post' })).toBeNull()
  expect(within(bobs).queryByRole('button', { name: 'Delete post' })).toBeNull()
  const alices = screen.getByRole('article', { name: 'Post by Alice Example' })
  expect(within(alices).getByRole('button', { name: 'Edit post' })).toBeInTheDocument()
  expect(within(alices).getByRole('button', { name: 'Delete post' })).toBeInTheDocument()

  await app.user.click(within(bobs).getByRole('button', { name: '2 comments' }))
  const [bobsComment, alicesComment] = within(await within(bobs).findByRole('list', { name: 'Comments' })).getAllByRole(
    'listitem',
  )
  expect(within(bobsComment!).queryByRole('button', { name: 'Delete comment' })).toBeNull()
  expect(within(alicesComment!).getByRole('button', { name: 'Delete comment' })).toBeInTheDocument()
})

test('a holder of delete_others_content may delete another’s post and comment, not edit them', async () => {
  const post = makePost(buble.id, 'Bob Builder', 'Bob wrote this', 10, { commentsCount: 1 })
  const app = openWall([postChange(post), commentChange(makeComment(post, 'Bob Builder', 'Bob commented', 8))])
  const bobs = await screen.findByRole('article', { name: 'Post by Bob Builder' })
  expect(within(bobs).queryByRole('button', { name: 'Edit post' })).toBeNull()
  await app.user.click(within(bobs).getByRole('button', { name: '1 comment' }))
  const comment = within(await within(bobs).findByRole('list', { name: 'Comments' })).getByRole('listitem')
  expect(within(comment).queryByRole('button', { name: 'Edit comment' })).toBeNull()
  await app.user.click(within(comment).getByRole('button', { name: 'Delete comment' }))
  await app.user.click(
    within(screen.getByRole('dialog', { name: 'Delete comment?' })).getByRole('button', { name: 'Delete comment' }),
  )
  expect(await within(bobs).findByRole('button', { name: '0 comments' })).toBeInTheDocument()

  await app.user.click(within(bobs).getByRole('button', { name: 'Delete post' }))
  await app.user.click(
    within(screen.getByRole('dialog', { name: 'Delete post?' })).getByRole('button', { name: 'Delete post' }),
  )
  await waitFor(() => expect(screen.queryByRole('article', { name: 'Post by Bob Builder' })).toBeNull())
  await waitFor(() =>
    expect(mutations(app.device.pushes).map((m) => m.name)).toEqual(['comment.delete', 'post.delete']),
  )
})

test('the author edits and deletes their own post; an edit is marked, a delete asks first', async () => {
  const app = openWall(
    [
      postChange(makePost(buble.id, 'Bob Builder', 'Bob wrote this', 10)),
      postChange(makePost(buble.id, 'Alice Example', 'Alice wrote this', 5)),
    ],
    { server: silent },
  )
  await screen.findByRole('article', { name: 'Post by Bob Builder' })

  const alices = screen.getByRole('article', { name: 'Post by Alice Example' })
  await app.user.click(within(alices).getByRole('button', { name: 'Edit post' }))
  const field = within(alices).getByRole('textbox', { name: 'Edit post' })
  expect(field).toHaveFocus()
  await app.user.clear(field)
  await app.user.click(within(alices).getByRole('button', { name: 'Save' }))
  expect(within(alices).getByRole('alert')).toHaveTextContent('Content is required')
  await app.user.type(field, 'Alice rewrote this')
  await app.user.click(within(alices).getByRole('button', { name: 'Save' }))
  await waitFor(() => expect(alices.querySelector('.post-content')?.textContent).toBe('Alice rewrote this'))
  expect(within(alices).getByText('(edited)')).toBeInTheDocument()
  expect(within(alices).getByRole('button', { name: 'Edit post' })).toHaveFocus()

  await app.user.click(within(alices).getByRole('button', { name: 'Delete post' }))
  const dialog = screen.getByRole('dialog', { name: 'Delete post?' })
  await app.user.click(within(dialog).getByRole('button', { name: 'Delete post' }))
  await waitFor(() => expect(screen.queryByRole('article', { name: 'Post by Alice Example' })).toBeNull())
  expect(posts()).toHaveLength(1)
  await waitFor(() => expect(mutations(app.device.pushes).map((m) => m.name)).toEqual(['post.update']))
})

test('a reaction toggles on and off, and its count follows', async () => {
  const post = makePost(buble.id, 'Bob Builder', 'React to me', 5, {
    reactions: { [bob.id]: ['like'] },
    reactionsSummary: { like: 1 },
  })
  const app = openWall([postChange(post)], { server: silent })
  const card = await screen.findByRole('article', { name: 'Post by Bob Builder' })
  const reactions = within(card).getByRole('list', { name: 'Reactions' })
  expect(
    within(reactions)
      .getAllByRole('button')
      .map((button) => button.getAttribute('aria-label')),
  ).toEqual(['Like, 1', 'Love', 'Laugh', 'Wow', 'Sad', 'Angry'])
  expect(within(reactions).getByRole('button', { name: 'Like, 1' })).toHaveAttribute('aria-pressed', 'false')

  await app.user.click(within(reactions).getByRole('button', { name: 'Like, 1' }))
  expect(await within(reactions).findByRole('button', { name: 'Like, 2' })).toHaveAttribute('aria-pressed', 'true')
  await app.user.click(within(reactions).getByRole('button', { name: 'Love' }))
  expect(await within(reactions).findByRole('button', { name: 'Love, 1' })).toHaveAttribute('aria-pressed', 'true')
  await app.user.click(within(reactions).getByRole('button', { name: 'Like, 2' }))
  expect(await within(reactions).findByRole('button', { name: 'Like, 1' })).toHaveAttribute('aria-pressed', 'false')
  await waitFor(() => expect(mutations(app.device.pushes)).toHaveLength(1))
  expect(mutations(app.device.pushes)[0]).toMatchObject({
    name: 'reaction.add',
    args: { post_id: post.id, reactionType: 'like' },
  })
})

test('comments open oldest first; a new comment appears at once and raises the count', async () => {
  const post = makePost(buble.id, 'Bob Builder', 'Discuss', 30, { commentsCount: 2 })
  const app = openWall(
    [
      postChange(post),
      commentChange(makeComment(post, 'Bob Builder', 'Second thought', 10)),
      commentChange(makeComment(post, 'Alice Example', 'First thought', 20)),
    ],
    { server: silent },
  )
  const card = await screen.findByRole('article', { name: 'Post by Bob Builder' })
  const toggle = within(card).getByRole('button', { name: '2 comments' })
  expect(toggle).toHaveAttribute('aria-expanded', 'false')
  await app.user.click(toggle)
  expect(toggle).toHaveAttribute('aria-expanded', 'true')
  const list = await within(card).findByRole('list', { name: 'Comments' })
  const texts = () =>
    within(list)
      .getAllByRole('listitem')
      .map((item) => item.querySelector('.comment-text')?.textContent)
  expect(texts()).toEqual(['First thought', 'Second thought'])
  // Only her own comment offers edit.
  const [first, second] = within(list).getAllByRole('listitem')
  expect(within(first!).getByRole('button', { name: 'Edit comment' })).toBeInTheDocument()
  expect(within(second!).queryByRole('button', { name: 'Edit comment' })).toBeNull()

  await app.user.type(within(card).getByRole('textbox', { name: 'Write a comment' }), 'My reply')
  await app.user.click(within(card).getByRole('button', { name: 'Comment' }))
  await waitFor(() => expect(texts()).toEqual(['First thought', 'Second thought', 'My reply']))
  expect(await within(card).findByRole('button', { name: '3 comments' })).toBeInTheDocument()
  expect(within(within(list).getAllByRole('listitem')[2]!).getByText('Sending…')).toBeInTheDocument()
  await waitFor(() => expect(mutations(app.device.pushes).map((m) => m.name)).toEqual(['comment.create']))
  expect(mutations(app.device.pushes)[0]!.args).toEqual({
    id: expect.any(String),
    post_id: post.id,
    content: 'My reply',
  })
})

test('deleting an own comment asks first and lowers the count', async () => {
  const post = makePost(buble.id, 'Bob Builder', 'Discuss', 30, { commentsCount: 1 })
  const app = openWall([postChange(post), commentChange(makeComment(post, 'Alice Example', 'Oops', 20))], {
    server: silent,
  })
  const card = await screen.findByRole('article', { name: 'Post by Bob Builder' })
  await app.user.click(within(card).getByRole('button', { name: '1 comment' }))
  await app.user.click(await within(card).findByRole('button', { name: 'Delete comment' }))
  await app.user.click(
    within(screen.getByRole('dialog', { name: 'Delete comment?' })).getByRole('button', { name: 'Delete comment' }),
  )
  expect(await within(card).findByRole('button', { name: '0 comments' })).toBeInTheDocument()
  expect(within(card).queryByText('Oops')).toBeNull()
})

test('an image is uploaded first and the post carries its address', async () => {
  const app = openWall([], {
    server: silent,
    api: {
      'POST /api/uploads/image': json(200, { url: '/api/uploads/secure/picture.webp' }),
      'GET /api/uploads/secure/picture.webp': () => new Response('webp'),
    },
  })
  await app.user.type(await screen.findByRole('textbox', { name: 'Write a post' }), 'With a picture')
  await app.user.upload(screen.getByLabelText('Add image'), new File(['x'], 'picture.png', { type: 'image/png' }))
  expect(screen.getByRole('button', { name: 'Remove image' })).toBeInTheDocument()
  await app.user.click(screen.getByRole('button', { name: 'Post' }))
  const mine = await screen.findByRole('article', { name: 'Post by Alice Example' })
  // Fetched with the session: an <img src> could not send the Bearer header.
  expect(await within(mine).findByRole('img', { name: 'Shared by Alice Example' })).toHaveAttribute(
    'src',
    expect.stringMatching(/^blob:/),
  )
  expect(app.callsTo('GET /api/uploads/secure/picture.webp')[0]?.headers.Authorization).toBe('Bearer token-1')
  const form = app.callsTo('POST /api/uploads/image')[0]!.body as FormData
  expect(form.get('buble_id')).toBe(buble.id)
  expect((form.get('file') as File).name).toBe('picture.png')
  await waitFor(() => expect(mutations(app.device.pushes)).toHaveLength(1))
  expect(mutations(app.device.pushes)[0]!.args).toMatchObject({ image_url: '/api/uploads/secure/picture.webp' })
})

test('what is typed while a post is being sent stays in the box; only the text that went is cleared', async () => {
  const upload = deferred<Response>()
  const app = openWall([], {
    server: silent,
    api: {
      'POST /api/uploads/image': () => upload.promise,
      'GET /api/uploads/secure/picture.webp': () => new Response('webp'),
    },
  })
  const box = await screen.findByRole('textbox', { name: 'Write a post' })
  await app.user.type(box, 'First, with a picture')
  await app.user.upload(screen.getByLabelText('Add image'), new File(['x'], 'picture.png', { type: 'image/png' }))
  await app.user.click(screen.getByRole('button', { name: 'Post' }))
  expect(await screen.findByRole('button', { name: 'Posting…' })).toBeDisabled()
  await app.user.clear(box)
  await app.user.type(box, 'The next one')
  upload.resolve(json(200, { url: '/api/uploads/secure/picture.webp' }))
  await waitFor(() => expect(postTexts()).toEqual(['First, with a picture']))
  await waitFor(() => expect(screen.getByRole('button', { name: 'Post' })).toBeEnabled())
  expect(box).toHaveValue('The next one')
})

test('a failed upload says Upload failed and keeps the text; nothing is queued', async () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  const app = openWall([], { server: silent, api: { 'POST /api/uploads/image': json(500, undefined) } })
  await app.user.type(await screen.findByRole('textbox', { name: 'Write a post' }), 'Keep me')
  await app.user.upload(screen.getByLabelText('Add image'), new File(['x'], 'picture.png', { type: 'image/png' }))
  await app.user.click(screen.getByRole('button', { name: 'Post' }))
  expect((await screen.findByRole('alert')).textContent).toBe('Upload failed')
  expect(screen.getByRole('textbox', { name: 'Write a post' })).toHaveValue('Keep me')
  expect(warn).toHaveBeenCalledWith('Upload failed', expect.anything())
  expect(await app.device.current()!.db.outbox.count()).toBe(0)
})

test('offline, the image button waits and says why, and a text post still goes into the queue', async () => {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false)
  const app = openWall([])
  const image = await screen.findByLabelText('Add image')
  expect(image).toBeDisabled()
  expect(image).toHaveAccessibleDescription('Images can be added when you are online.')
  await app.user.type(screen.getByRole('textbox', { name: 'Write a post' }), 'Written on the train')
  await app.user.click(screen.getByRole('button', { name: 'Post' }))
  const mine = await screen.findByRole('article', { name: 'Post by Alice Example' })
  expect(within(mine).getByText('Sending…')).toBeInTheDocument()
  expect(await app.device.current()!.db.outbox.count()).toBe(1)
})

test('a refused post is taken back and the sync status keeps its text under the spec’s headline', async () => {
  const app = openWall([], { server: refusing('FORBIDDEN', 'You may not post here') })
  await app.user.type(await screen.findByRole('textbox', { name: 'Write a post' }), 'Not welcome')
  await app.user.click(screen.getByRole('button', { name: 'Post' }))
  expect(await screen.findByText('Not saved: Failed to create post')).toBeInTheDocument()
  await waitFor(() => expect(screen.queryByRole('article', { name: 'Post by Alice Example' })).toBeNull())
  expect((await app.device.current()!.db.rejections.toArray())[0]).toMatchObject({
    name: 'post.create',
    args: { content: 'Not welcome' },
  })
})

test('a post shows its author as the member list names them now (a profile change re-sends members, not posts)', async () => {
  const stale = { id: bob.id, name: 'Bobby Before', avatar_url: null }
  openWall([
    postChange(makePost(buble.id, 'Bob Builder', 'Renamed since', 3, { author: stale, author_name: stale.name })),
  ])
  expect(await screen.findByRole('article', { name: 'Post by Bob Builder' })).toHaveTextContent('Renamed since')
  expect(screen.queryByText('Bobby Before')).toBeNull()
})
