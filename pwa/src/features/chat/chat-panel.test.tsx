import type { MemberRef } from '@buble/shared/bubles'
import type { ChatMessage } from '@buble/shared/chat'
import type { BubleRole } from '@buble/shared/permissions'
import type { Change } from '@buble/sync/protocol'
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { expect, test, vi } from 'vitest'
import { refusing } from '../../test/buble-server.ts'
import { json } from '../../test/fake-fetch.ts'
import {
  alice,
  bob,
  bubleChange,
  makeBuble,
  makeMember,
  memberChange,
  person,
  putChange,
  unreadChange,
} from '../../test/fixtures.ts'
import { renderApp } from '../../test/render-app.tsx'
import type { TestServer } from '../../test/test-device.ts'
import { formatClock } from '../../ui/format.ts'
import { COPY_FAILED } from '../../ui/use-copy.ts'
import { LONG_PRESS_MS } from './chat-message.tsx'

const PROFILE = 'GET /api/users/profile'
const buble = makeBuble({ name: 'Book Club' })

let count = 0
function makeMessage(
  sender: string,
  content: string,
  minutesAgo: number,
  extra: Partial<ChatMessage> = {},
): ChatMessage {
  return {
    id: `0190f5b4-4000-7000-8000-${String(++count).padStart(12, '0')}`,
    buble_id: buble.id,
    content,
    type: 'text',
    image_url: null,
    sender: person(sender),
    created_at: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
    is_edited: false,
    reply_to_id: null,
    replyTo: null,
    reactions: {},
    reactionsSummary: {},
    ...extra,
  }
}
const messageChange = (message: ChatMessage) => putChange('chat_message', message)

/** A server that never answers a push: what the panel shows comes from the device alone. */
const silent: Partial<TestServer> = { push: () => new Promise(() => {}) }

function openBuble(
  rows: Change[],
  options: { server?: Partial<TestServer>; role?: BubleRole; api?: Parameters<typeof renderApp>[0]['api'] } = {},
) {
  return renderApp({
    route: '/bubles/book-club',
    user: alice,
    server: {
      seed: [
        bubleChange(buble),
        memberChange(buble.id, makeMember(alice, options.role ?? 'owner')),
        memberChange(buble.id, makeMember(bob, 'member')),
        ...rows,
      ],
      ...options.server,
    },
    api: { [PROFILE]: json(200, alice), ...options.api },
  })
}

type App = ReturnType<typeof openBuble>

async function openChat(app: App) {
  await app.user.click(await screen.findByRole('button', { name: /^Chat/ }))
  return screen.getByRole('dialog', { name: 'Chat in Book Club' })
}

const field = () => screen.getByRole('textbox', { name: 'Write a message' })
/** The list's messages, by their names ("Message from …"), read from the markup: a role query over 60 of
 * them, rerun on every change inside a waitFor, took most of a test's 20 s on a busy machine. */
const messageItems = () => [
  ...screen.getByRole('list', { name: 'Messages' }).querySelectorAll<HTMLElement>('li[aria-label^="Message from"]'),
]
const texts = () => messageItems().map((item) => item.querySelector('.chat-text')?.textContent)
const queued = async (app: App, name: string) =>
  (await app.device.current()!.db.outbox.toArray()).filter((entry) => entry.name === name)

test('the Chat button shows the chat’s unread count, 99+ beyond, and opening the panel reads it', async () => {
  const app = openBuble([unreadChange(buble.id, 'chat', 150)])
  const button = await screen.findByRole('button', { name: 'Chat 99+ unread' })
  expect(button).toHaveAttribute('aria-expanded', 'false')
  await app.user.click(button)
  expect(button).toHaveAttribute('aria-expanded', 'true')
  await waitFor(() => expect(button).toHaveAccessibleName('Chat'))
  await waitFor(async () => expect(await queued(app, 'unread.read')).toHaveLength(1))
  expect((await queued(app, 'unread.read'))[0]!.args).toEqual({ buble_id: buble.id, contentType: 'chat' })
})

test('the panel lists messages oldest first with sender, time and marks; an empty chat says so; Escape closes', async () => {
  const second = makeMessage('Bob Builder', 'Second', 5, { is_edited: true })
  const app = openBuble([messageChange(second), messageChange(makeMessage('Alice Example', 'First', 10))])
  const panel = await openChat(app)
  // The header reads "Chat · Book Club" and says "Chat in Book Club", as the dialog's name.
  const heading = within(panel).getByRole('heading', { level: 2 })
  expect(heading).toHaveAccessibleName('Chat in Book Club')
  expect(within(heading).getByText('·')).toHaveAttribute('aria-hidden', 'true')
  expect(within(heading).getByText('Book Club')).toHaveClass('chat-title-name')
  await waitFor(() => expect(texts()).toEqual(['First', 'Second']))
  const bobs = screen.getByRole('listitem', { name: 'Message from Bob Builder' })
  expect(within(bobs).getByText(formatClock(second.created_at))).toHaveAttribute('datetime', second.created_at)
  expect(within(bobs).getByText('(edited)')).toBeInTheDocument()
  expect(field()).toHaveFocus()
  await app.user.keyboard('{Escape}')
  expect(panel).not.toBeInTheDocument()
  expect(screen.getByRole('button', { name: 'Chat' })).toHaveFocus()
})

test('an empty chat invites the first message', async () => {
  const app = openBuble([])
  await openChat(app)
  expect(await screen.findByRole('heading', { name: 'No messages yet' })).toBeInTheDocument()
})

test('Enter sends at once, marked Sending…, queued once as chat.send; Shift+Enter starts a new line', async () => {
  const app = openBuble([], { server: silent })
  await openChat(app)
  await app.user.type(field(), 'Line one{Shift>}{Enter}{/Shift}Line two')
  expect(field()).toHaveValue('Line one\nLine two')
  expect(await queued(app, 'chat.send')).toHaveLength(0)
  await app.user.keyboard('{Enter}')
  const mine = await screen.findByRole('listitem', { name: 'Message from Alice Example' })
  expect(mine.querySelector('.chat-text')?.textContent).toBe('Line one\nLine two')
  expect(within(mine).getByText('Sending…')).toBeInTheDocument()
  expect(field()).toHaveValue('')
  const sent = await queued(app, 'chat.send')
  expect(sent).toHaveLength(1)
  expect(sent[0]!.args).toEqual({
    id: expect.any(String),
    buble_id: buble.id,
    content: 'Line one\nLine two',
    type: 'text',
  })
  // An empty field sends nothing.
  await app.user.keyboard('{Enter}')
  expect(await queued(app, 'chat.send')).toHaveLength(1)
})

test('a reply shows its quote above the composer and inside the sent message', async () => {
  const question = makeMessage('Bob Builder', 'Who brings snacks?', 3)
  const app = openBuble([messageChange(question)], { server: silent })
  await openChat(app)
  const bobs = await screen.findByRole('listitem', { name: 'Message from Bob Builder' })
  await app.user.click(within(bobs).getByRole('button', { name: 'Reply to Bob Builder' }))
  const quote = screen.getByLabelText('Replying to Bob Builder')
  expect(quote).toHaveTextContent('Who brings snacks?')
  expect(field()).toHaveFocus()
  await app.user.type(field(), 'I do{Enter}')
  const mine = await screen.findByRole('listitem', { name: 'Message from Alice Example' })
  expect(within(mine).getByText('Who brings snacks?')).toBeInTheDocument()
  expect(screen.queryByLabelText('Replying to Bob Builder')).toBeNull()
  expect((await queued(app, 'chat.send'))[0]!.args).toMatchObject({ content: 'I do', reply_to_id: question.id })
})

test('edit and delete show on the sender’s own messages only; an edit is marked, a delete asks first', async () => {
  const app = openBuble(
    [messageChange(makeMessage('Bob Builder', 'Bob’s', 5)), messageChange(makeMessage('Alice Example', 'Alice’s', 4))],
    { server: silent, role: 'member' },
  )
  await openChat(app)
  const bobs = await screen.findByRole('listitem', { name: 'Message from Bob Builder' })
  expect(within(bobs).queryByRole('button', { name: 'Edit message' })).toBeNull()
  expect(within(bobs).queryByRole('button', { name: 'Delete message' })).toBeNull()

  const alices = screen.getByRole('listitem', { name: 'Message from Alice Example' })
  await app.user.click(within(alices).getByRole('button', { name: 'Edit message' }))
  const edit = within(alices).getByRole('textbox', { name: 'Edit message' })
  await app.user.clear(edit)
  await app.user.type(edit, 'Alice’s, edited')
  await app.user.click(within(alices).getByRole('button', { name: 'Save' }))
  await waitFor(() => expect(alices.querySelector('.chat-text')?.textContent).toBe('Alice’s, edited'))
  expect(within(alices).getByText('(edited)')).toBeInTheDocument()
  expect((await queued(app, 'chat.edit'))[0]!.args).toMatchObject({ content: 'Alice’s, edited' })

  await app.user.click(within(alices).getByRole('button', { name: 'Delete message' }))
  const confirm = screen.getByRole('dialog', { name: 'Delete message?' })
  await app.user.click(within(confirm).getByRole('button', { name: 'Delete message' }))
  await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Message from Alice Example' })).toBeNull())
  expect(await queued(app, 'chat.delete')).toHaveLength(1)
})

test('Copy puts a message’s text on the clipboard and says so; a refused copy says how to copy by hand', async () => {
  const app = openBuble([messageChange(makeMessage('Bob Builder', 'Meet at gate 4', 5))], { server: silent })
  await openChat(app)
  const bobs = await screen.findByRole('listitem', { name: 'Message from Bob Builder' })
  await app.user.click(within(bobs).getByRole('button', { name: 'Copy message' }))
  await expect(navigator.clipboard.readText()).resolves.toBe('Meet at gate 4')
  expect(within(bobs).getByRole('button', { name: 'Copied! message' })).toBeInTheDocument()

  vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValueOnce(new DOMException('Denied', 'NotAllowedError'))
  await app.user.click(within(bobs).getByRole('button', { name: 'Copied! message' }))
  expect(await within(bobs).findByRole('alert')).toHaveTextContent(COPY_FAILED)
  expect(within(bobs).getByRole('button', { name: 'Copy message' })).toBeInTheDocument()
})

test('a holder of delete_others_content may delete others’ messages, not edit them', async () => {
  const app = openBuble([messageChange(makeMessage('Bob Builder', 'Bob’s', 5))], { server: silent })
  await openChat(app)
  const bobs = await screen.findByRole('listitem', { name: 'Message from Bob Builder' })
  expect(within(bobs).getByRole('button', { name: 'Delete message' })).toBeInTheDocument()
  expect(within(bobs).queryByRole('button', { name: 'Edit message' })).toBeNull()
})

test('a message shows only the reactions it has, as chips; a chip lists who reacted and toggles the user’s own', async () => {
  const bobRef: MemberRef = person('Bob Builder')
  const app = openBuble(
    [
      messageChange(
        makeMessage('Bob Builder', 'Hi', 5, { reactions: { [bobRef.id]: ['like'] }, reactionsSummary: { like: 1 } }),
      ),
    ],
    { server: silent },
  )
  await openChat(app)
  const bobs = await screen.findByRole('listitem', { name: 'Message from Bob Builder' })
  const chips = within(bobs).getByRole('list', { name: 'Reactions' })
  expect(
    within(chips)
      .getAllByRole('button')
      .map((chip) => chip.getAttribute('aria-label')),
  ).toEqual(['Like, 1: who reacted'])
  const like = within(chips).getByRole('button', { name: 'Like, 1: who reacted' })
  expect(like).toHaveAttribute('aria-expanded', 'false')
  await app.user.click(like)
  expect(like).toHaveAttribute('aria-expanded', 'true')
  const who = () => within(bobs).getByRole('list', { name: 'Reacted with Like' })
  expect(
    within(who())
      .getAllByRole('listitem')
      .map((li) => li.textContent),
  ).toEqual(['Bob Builder'])

  await app.user.click(within(bobs).getByRole('button', { name: 'Add your Like' }))
  expect(await within(chips).findByRole('button', { name: 'Like, 2: who reacted' })).toHaveClass('is-mine')
  expect(
    within(who())
      .getAllByRole('listitem')
      .map((li) => li.textContent),
  ).toEqual(['You', 'Bob Builder'])
  await app.user.click(within(bobs).getByRole('button', { name: 'Remove your Like' }))
  expect(await within(chips).findByRole('button', { name: 'Like, 1: who reacted' })).not.toHaveClass('is-mine')

  // Escape closes the list, not the chat.
  await app.user.keyboard('{Escape}')
  expect(within(bobs).queryByRole('list', { name: 'Reacted with Like' })).toBeNull()
  expect(screen.getByRole('dialog', { name: 'Chat in Book Club' })).toBeInTheDocument()

  // The quick reactions among the message's actions add a new one; its chip appears.
  await app.user.click(within(bobs).getByRole('button', { name: 'Love' }))
  expect(await within(chips).findByRole('button', { name: 'Love, 1: who reacted' })).toBeInTheDocument()
  const reacts = await queued(app, 'chat.react')
  expect(reacts.map((entry) => [entry.args, entry.settled])).toEqual([
    [expect.objectContaining({ reactionType: 'like' }), { on: true }],
    [expect.objectContaining({ reactionType: 'like' }), { on: false }],
    [expect.objectContaining({ reactionType: 'love' }), { on: true }],
  ])
})

test('who reacted names a member who has left as a former member', async () => {
  const bobRef: MemberRef = person('Bob Builder')
  const gone: MemberRef = person('Gone Away')
  const app = openBuble(
    [
      messageChange(
        makeMessage('Bob Builder', 'Hi', 5, {
          reactions: { [bobRef.id]: ['wow'], [gone.id]: ['wow'] },
          reactionsSummary: { wow: 2 },
        }),
      ),
    ],
    { server: silent },
  )
  await openChat(app)
  const bobs = await screen.findByRole('listitem', { name: 'Message from Bob Builder' })
  await app.user.click(within(bobs).getByRole('button', { name: 'Wow, 2: who reacted' }))
  const who = within(bobs).getByRole('list', { name: 'Reacted with Wow' })
  expect(
    within(who)
      .getAllByRole('listitem')
      .map((li) => li.textContent),
  ).toEqual(['A former member', 'Bob Builder'])
})

test('a message without reactions shows no chips', async () => {
  const app = openBuble([messageChange(makeMessage('Bob Builder', 'Hi', 5))], { server: silent })
  await openChat(app)
  const bobs = await screen.findByRole('listitem', { name: 'Message from Bob Builder' })
  expect(within(bobs).queryByRole('list', { name: 'Reactions' })).toBeNull()
})

test('own messages and others’ are told apart; a run of one sender shows its name once; days are separated', async () => {
  const app = openBuble([
    messageChange(makeMessage('Bob Builder', 'Two days ago', 2 * 24 * 60 + 30)),
    messageChange(makeMessage('Bob Builder', 'One', 3)),
    messageChange(makeMessage('Bob Builder', 'Two', 2)),
    messageChange(makeMessage('Alice Example', 'Mine', 1)),
  ])
  await openChat(app)
  await waitFor(() => expect(texts()).toEqual(['Two days ago', 'One', 'Two', 'Mine']))
  const list = screen.getByRole('list', { name: 'Messages' })
  const days = within(list)
    .getAllByRole('heading', { level: 3 })
    .map((h) => h.textContent)
  expect(days).toHaveLength(2)
  expect(days.at(-1)).toBe('Today')
  const [old, one, two, mine] = messageItems()
  expect(old).toHaveClass('chat-message-theirs', 'is-run-first')
  expect(one).toHaveClass('chat-message-theirs', 'is-run-first')
  expect(within(one!).getByText('Bob Builder', { selector: '.chat-sender' })).toBeInTheDocument()
  expect(two).not.toHaveClass('is-run-first')
  expect(two!.querySelector('.chat-sender')).toBeNull()
  expect(mine).toHaveClass('chat-message-mine', 'is-run-first')
})

test('arrow keys move between messages, one of them in the tab order; a long press marks a message pressed', async () => {
  const app = openBuble(
    [
      messageChange(makeMessage('Bob Builder', 'One', 3)),
      messageChange(makeMessage('Bob Builder', 'Two', 2)),
      messageChange(makeMessage('Bob Builder', 'Three', 1)),
    ],
    { server: silent },
  )
  await openChat(app)
  await waitFor(() => expect(texts()).toEqual(['One', 'Two', 'Three']))
  const [one, two, three] = messageItems()
  // The newest is where the keyboard enters.
  expect(messageItems().map((item) => item.tabIndex)).toEqual([-1, -1, 0])
  three!.focus()
  await app.user.keyboard('{ArrowUp}')
  expect(two).toHaveFocus()
  // Tab enters the focused message's actions (that they show then is the browser's to check, in
  // e2e/chat.spec.ts: jsdom's :focus-visible is not a browser's).
  await app.user.tab()
  expect(within(two!).getByRole('button', { name: 'Like' })).toHaveFocus()
  two!.focus()
  await app.user.keyboard('{Home}')
  expect(one).toHaveFocus()
  expect(messageItems().map((item) => item.tabIndex)).toEqual([0, -1, -1])
  await app.user.keyboard('{End}')
  expect(three).toHaveFocus()

  // A touch held for LONG_PRESS_MS shows the actions; a touch that moves (a scroll) does not.
  fireEvent.pointerDown(one!, { pointerType: 'touch', clientX: 10, clientY: 10 })
  fireEvent.pointerMove(one!, { pointerType: 'touch', clientX: 10, clientY: 60 })
  await act(() => new Promise((resolve) => setTimeout(resolve, LONG_PRESS_MS + 100)))
  expect(one).not.toHaveClass('is-pressed')
  fireEvent.pointerDown(two!, { pointerType: 'touch', clientX: 10, clientY: 10 })
  await act(() => new Promise((resolve) => setTimeout(resolve, LONG_PRESS_MS + 100)))
  expect(two).toHaveClass('is-pressed')
  // A touch elsewhere hides them again.
  fireEvent.pointerDown(one!, { pointerType: 'touch' })
  expect(two).not.toHaveClass('is-pressed')
})

test('a picked image is previewed first and sent with its caption; it can be removed', async () => {
  const app = openBuble([], {
    server: silent,
    api: {
      'POST /api/uploads/image': json(200, { url: '/api/uploads/secure/picture.webp' }),
      'GET /api/uploads/secure/picture.webp': () => new Response('webp'),
    },
  })
  await openChat(app)
  const picture = new File(['x'], 'picture.png', { type: 'image/png' })
  await app.user.upload(screen.getByLabelText('Send an image'), picture)
  // Nothing is uploaded or sent yet: a preview waits, and the field takes a caption.
  expect(screen.getByRole('img', { name: 'To send: picture.png' })).toBeInTheDocument()
  expect(app.callsTo('POST /api/uploads/image')).toHaveLength(0)
  expect(field()).toHaveAttribute('placeholder', 'Add a caption…')
  expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled()
  await app.user.click(screen.getByRole('button', { name: 'Remove image' }))
  expect(screen.queryByRole('img', { name: 'To send: picture.png' })).toBeNull()
  expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled()

  await app.user.upload(screen.getByLabelText('Send an image'), picture)
  await app.user.type(field(), 'The summit{Enter}')
  const mine = await screen.findByRole('listitem', { name: 'Message from Alice Example' })
  expect(mine.querySelector('.chat-text')?.textContent).toBe('The summit')
  expect(screen.queryByRole('img', { name: 'To send: picture.png' })).toBeNull()
  expect(field()).toHaveValue('')
  expect(app.callsTo('POST /api/uploads/image')).toHaveLength(1)
  expect((await queued(app, 'chat.send'))[0]!.args).toMatchObject({
    content: 'The summit',
    image_url: '/api/uploads/secure/picture.webp',
    type: 'image',
  })
})

test('a failed upload keeps the preview and the caption and says Upload failed', async () => {
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  const app = openBuble([], { server: silent, api: { 'POST /api/uploads/image': json(500, undefined) } })
  await openChat(app)
  await app.user.upload(screen.getByLabelText('Send an image'), new File(['x'], 'picture.png', { type: 'image/png' }))
  await app.user.type(field(), 'Keep me{Enter}')
  expect((await screen.findByRole('alert')).textContent).toBe('Upload failed')
  expect(screen.getByRole('img', { name: 'To send: picture.png' })).toBeInTheDocument()
  expect(field()).toHaveValue('Keep me')
  expect(await queued(app, 'chat.send')).toHaveLength(0)
})

test('a message arriving from the server appears and is announced', async () => {
  const app = openBuble([messageChange(makeMessage('Bob Builder', 'Earlier', 5))])
  await openChat(app)
  await screen.findByRole('listitem', { name: 'Message from Bob Builder' })
  await app.device.current()!.remember([messageChange(makeMessage('Bob Builder', 'Just now', 0))])
  await waitFor(() => expect(texts()).toEqual(['Earlier', 'Just now']))
  expect(await screen.findByText('New message from Bob Builder: Just now')).toBeInTheDocument()
})

test('older messages load a page at a time above, keeping the view where it was', async () => {
  const rows = Array.from({ length: 60 }, (_, i) =>
    messageChange(makeMessage('Bob Builder', `Message ${i + 1}`, 60 - i)),
  )
  const app = openBuble(rows)
  await openChat(app)
  await waitFor(() => expect(messageItems()).toHaveLength(50))
  expect(texts()[0]).toBe('Message 11')
  expect(texts().at(-1)).toBe('Message 60')

  // jsdom lays nothing out: every message is 100px high, the view 400px.
  const list = document.querySelector<HTMLElement>('.chat-list')!
  let top = 0
  Object.defineProperty(list, 'scrollHeight', { get: () => list.querySelectorAll('.chat-message').length * 100 })
  Object.defineProperty(list, 'clientHeight', { get: () => 400 })
  Object.defineProperty(list, 'scrollTop', { get: () => top, set: (value: number) => (top = value) })
  // Scrolled up, as a reader does: the scroll event tells the panel it is no longer at the bottom, so a
  // list that re-renders meanwhile (a live query firing late on a busy machine) does not follow it there.
  top = 200
  fireEvent.scroll(list)
  // The button by its text: a role query weighs every button of 60 messages in jsdom (seconds when busy).
  await app.user.click(screen.getByText('Load older messages', { selector: 'button' }))
  await waitFor(() => expect(messageItems()).toHaveLength(60))
  expect(texts()[0]).toBe('Message 1')
  // 4,800px from the bottom before; the same after ten more messages above.
  expect(top).toBe(6000 - 4800)
  expect(screen.queryByText('Load older messages', { selector: 'button' })).toBeNull()
})

test('a refused message is taken back and the sync status keeps its text under the spec’s headline', async () => {
  const app = openBuble([], { server: refusing('FORBIDDEN', 'Not a member') })
  await openChat(app)
  await app.user.type(field(), 'Not welcome{Enter}')
  expect(await screen.findByText('Not saved: Failed to send message')).toBeInTheDocument()
  await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Message from Alice Example' })).toBeNull())
  expect((await app.device.current()!.db.rejections.toArray())[0]).toMatchObject({
    name: 'chat.send',
    args: { content: 'Not welcome' },
  })
})

test('offline, a message still shows at once and waits in the queue; the image button says why it waits', async () => {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false)
  const app = openBuble([])
  await openChat(app)
  const image = screen.getByLabelText('Send an image')
  expect(image).toBeDisabled()
  expect(image).toHaveAccessibleDescription('Images can be added when you are online.')
  await app.user.type(field(), 'Written on the train{Enter}')
  const mine = await screen.findByRole('listitem', { name: 'Message from Alice Example' })
  expect(within(mine).getByText('Sending…')).toBeInTheDocument()
  expect(await queued(app, 'chat.send')).toHaveLength(1)
})
