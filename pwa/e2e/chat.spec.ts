import type { UnreadPush } from '@buble/shared/push'
import { type Browser, type CDPSession, expect, type Locator, type Page, test, type Worker } from '@playwright/test'
import sharp from 'sharp'
import { expectAccessible, inviteCode, join, type Person, person, serviceWorkerReady } from './helpers.ts'

const chatButton = (page: Page, unread = 0) =>
  page.getByRole('button', { name: unread > 0 ? `Chat ${unread} unread` : 'Chat', exact: true })
const chatPanel = (page: Page, club: string) => page.getByRole('dialog', { name: `Chat in ${club}` })
const messageField = (page: Page) => page.getByRole('textbox', { name: 'Write a message' })
/** A message by its sender and a piece of its own text (a reply also holds the quoted text). */
const message = (page: Page, sender: string, text: string) =>
  page
    .getByRole('list', { name: 'Messages' })
    .getByRole('listitem', { name: `Message from ${sender}` })
    .filter({ has: page.locator('.chat-text', { hasText: text }) })

/** A message's actions show on hover (or keyboard focus, or a long press): the pointer rests on it first. */
async function action(item: Locator, name: string) {
  // Off any other message first: the actions it shows float over its neighbours.
  await item.page().mouse.move(0, 0)
  await item.hover()
  return item.getByRole('button', { name })
}

/** A reaction chip of a message (emoji and count), which lists who reacted. */
const chip = (item: Locator, label: string, count: number) =>
  item.getByRole('list', { name: 'Reactions' }).getByRole('button', { name: `${label}, ${count}: who reacted` })

async function openChat(page: Page, club: string) {
  await page.getByRole('button', { name: /^Chat/ }).click()
  await expect(chatPanel(page, club)).toBeVisible()
  await expect(messageField(page)).toBeFocused()
}

async function send(page: Page, text: string) {
  await messageField(page).fill(text)
  await messageField(page).press('Enter')
  await expect(messageField(page)).toHaveValue('')
}

/** A GET of the API with the page's own session. */
async function apiGet<T>(page: Page, path: string): Promise<T> {
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('auth-storage') ?? '{}').state?.token)
  const res = await page.request.get(`/api${path}`, { headers: { authorization: `Bearer ${token}` } })
  expect(res.status()).toBe(200)
  return (await res.json()) as T
}

/** How many messages with this text the server holds (the newest page, through the page's own session). */
async function countOnServer(page: Page, bubleId: string, text: string): Promise<number> {
  const { messages } = await apiGet<{ messages: { content: string }[] }>(page, `/chat/${bubleId}/messages?limit=50`)
  return messages.filter((m) => m.content === text).length
}

/** Ann makes a buble and Ben joins it; both end on its page. */
async function twoMembers(browser: Browser, prefix: string) {
  const ann = await person(browser, 'Ann Author')
  const ben = await person(browser, 'Ben Reader')
  const club = `${prefix} ${Date.now()}`
  await ann.page.getByRole('button', { name: 'Create New Buble' }).click()
  await ann.page.getByLabel('Buble Name').fill(club)
  await ann.page.getByRole('button', { name: 'Create Buble' }).click()
  await expect(ann.page.getByRole('heading', { level: 1, name: club })).toBeVisible()
  // On the server once its address is the slug: then it can have invites.
  await expect(ann.page).toHaveURL(new RegExp(`/bubles/${prefix.toLowerCase()}-\\d+$`))
  const code = await inviteCode(ann.page)
  await join(ben.page, code, club)
  const buble = (await apiGet<{ id: string; name: string; slug: string }[]>(ann.page, '/bubles')).find(
    (b) => b.name === club,
  )
  expect(buble).toBeDefined()
  return { ann, ben, club, bubleId: buble?.id ?? '', slug: buble?.slug ?? '' }
}

/** A request in flight when the network went away fails, and Chromium logs it: that is the network. */
function forgiveDisconnects(who: Person) {
  who.problems.splice(
    0,
    who.problems.length,
    ...who.problems.filter((problem) => !/ERR_INTERNET_DISCONNECTED/.test(problem)),
  )
}

test('two members chat in real time: unread count, reply, reaction, edit, a two-line message and a delete', async ({
  browser,
}) => {
  const { ann, ben, club } = await twoMembers(browser, 'Chat')
  const first = 'Dinner at seven, at mine?'

  await test.step('Ann sends with Enter; Ben’s Chat button counts it without a reload', async () => {
    await openChat(ann.page, club)
    await expect(chatPanel(ann.page, club).getByRole('heading', { name: 'No messages yet' })).toBeVisible()
    await send(ann.page, first)
    await expect(message(ann.page, 'Ann Author', first)).toBeVisible()
    await expect(message(ann.page, 'Ann Author', first).getByText('Sending…')).toHaveCount(0)
    await expect(chatButton(ben.page, 1)).toBeVisible()
  })

  await test.step('Ben opens the chat (the count clears) and replies; the quote shows on both screens', async () => {
    await chatButton(ben.page, 1).click()
    await expect(chatPanel(ben.page, club)).toBeVisible()
    await expect(chatButton(ben.page)).toHaveAttribute('aria-expanded', 'true')
    const seen = message(ben.page, 'Ann Author', first)
    await expect(seen).toBeVisible()
    // Mine to answer and react to, not to edit or delete.
    await expect(seen.getByRole('button', { name: 'Edit message', includeHidden: true })).toHaveCount(0)
    await expect(seen.getByRole('button', { name: 'Delete message', includeHidden: true })).toHaveCount(0)
    await (await action(seen, 'Reply to Ann Author')).click()
    await expect(ben.page.getByRole('blockquote', { name: 'Replying to Ann Author' })).toContainText(first)
    await expect(messageField(ben.page)).toBeFocused()
    await send(ben.page, 'Yes! I will bring dessert.')
    await expect(ben.page.getByRole('blockquote', { name: 'Replying to Ann Author' })).toHaveCount(0)
    for (const page of [ben.page, ann.page]) {
      const reply = message(page, 'Ben Reader', 'I will bring dessert')
      await expect(reply).toBeVisible()
      await expect(reply.getByRole('blockquote')).toContainText(`Ann Author${first}`)
    }
  })

  await test.step('Ben reacts; both screens count it', async () => {
    await (await action(message(ben.page, 'Ann Author', first), 'Love')).click()
    const love = (page: Page) => chip(message(page, 'Ann Author', first), 'Love', 1)
    await expect(love(ben.page)).toHaveClass(/is-mine/)
    await expect(love(ann.page)).toBeVisible()
    await expect(love(ann.page)).not.toHaveClass(/is-mine/)
  })

  await test.step('Ann edits her message: marked edited on both screens, the quote follows', async () => {
    // Her only message (while edited, its text is a field).
    const mine = ann.page.getByRole('listitem', { name: 'Message from Ann Author' })
    await expect(mine).toHaveCount(1)
    await (await action(mine, 'Edit message')).click()
    await mine.getByRole('textbox', { name: 'Edit message' }).fill('Dinner at eight, at mine?')
    await mine.getByRole('button', { name: 'Save' }).click()
    for (const page of [ann.page, ben.page]) {
      const edited = message(page, 'Ann Author', 'Dinner at eight')
      await expect(edited).toContainText('(edited)')
      await expect(chip(edited, 'Love', 1)).toBeVisible()
      await expect(message(page, 'Ben Reader', 'I will bring dessert').getByRole('blockquote')).toContainText(
        'Dinner at eight',
      )
    }
  })

  await test.step('Shift+Enter starts a new line; the two-line message arrives intact', async () => {
    const field = messageField(ben.page)
    await field.fill('Line one')
    await field.press('Shift+Enter')
    await expect(field).toHaveValue('Line one\n')
    await ben.page.keyboard.type('Line two')
    await field.press('Enter')
    await expect(field).toHaveValue('')
    const arrived = message(ann.page, 'Ben Reader', 'Line two').locator('.chat-text')
    await expect.poll(() => arrived.textContent()).toBe('Line one\nLine two')
    await expect(message(ann.page, 'Ben Reader', 'Line one')).toHaveCount(1)
  })

  await test.step('Ann deletes her message: gone on both screens, the reply no longer quotes it', async () => {
    await (await action(message(ann.page, 'Ann Author', 'Dinner at eight'), 'Delete message')).click()
    const dialog = ann.page.getByRole('dialog', { name: 'Delete message?' })
    await dialog.getByRole('button', { name: 'Delete message' }).click()
    await expect(dialog).toHaveCount(0)
    for (const page of [ann.page, ben.page]) {
      await expect(message(page, 'Ann Author', 'Dinner at eight')).toHaveCount(0)
      const reply = message(page, 'Ben Reader', 'I will bring dessert')
      await expect(reply).toBeVisible()
      await expect(reply.getByRole('blockquote')).toHaveCount(0)
    }
  })

  expect(ann.problems).toEqual([])
  expect(ben.problems).toEqual([])
  await ann.close()
  await ben.close()
})

test('a message written offline is pending through a reload and arrives once', async ({ browser }) => {
  const { ann, ben, club, bubleId } = await twoMembers(browser, 'Tunnel')
  const offline = 'Written in the tunnel'

  await test.step('both chat online', async () => {
    await openChat(ann.page, club)
    await openChat(ben.page, club)
    await send(ann.page, 'Where are you?')
    await expect(message(ben.page, 'Ann Author', 'Where are you?')).toBeVisible()
  })

  await test.step('offline, Ben’s message is shown at once as pending, also after a reload', async () => {
    await serviceWorkerReady(ben.page)
    await expect(ben.page.getByRole('button', { name: 'Synced' })).toBeVisible()
    await ben.context.setOffline(true)
    await send(ben.page, offline)
    await expect(message(ben.page, 'Ben Reader', offline)).toContainText('Sending…')
    await expect(ben.page.getByRole('button', { name: 'Offline · 1 pending' })).toBeVisible()

    await ben.page.reload()
    await expect(ben.page.getByRole('button', { name: 'Offline · 1 pending' })).toBeVisible()
    await openChat(ben.page, club)
    await expect(message(ben.page, 'Ben Reader', offline)).toContainText('Sending…')
    await expect(message(ben.page, 'Ann Author', 'Where are you?')).toBeVisible()
    await expect(message(ann.page, 'Ben Reader', offline)).toHaveCount(0)
  })

  await test.step('online again, it arrives once on Ann’s screen and once on the server', async () => {
    await ben.context.setOffline(false)
    await expect(ben.page.getByRole('button', { name: 'Synced' })).toBeVisible()
    await expect(message(ben.page, 'Ben Reader', offline).getByText('Sending…')).toHaveCount(0)
    await expect(message(ann.page, 'Ben Reader', offline)).toHaveCount(1)
    expect(await countOnServer(ben.page, bubleId, offline)).toBe(1)
    await expect(message(ben.page, 'Ben Reader', offline)).toHaveCount(1)
    forgiveDisconnects(ben)
  })

  expect(ann.problems).toEqual([])
  expect(ben.problems).toEqual([])
  await ann.close()
  await ben.close()
})

/** What the wrapped worker APIs recorded: the badges set and the notifications asked for. */
interface Recorded {
  badges: number[]
  shown: string[]
}

/**
 * Records `navigator.setAppBadge` and `registration.showNotification` in the service worker
 * (Chromium cannot read a badge back), calling the real ones as before.
 */
async function recordWorker(worker: Worker) {
  await worker.evaluate(() => {
    const scope = self as unknown as ServiceWorkerGlobalScope & { __recorded: Recorded }
    const recorded: Recorded = { badges: [], shown: [] }
    scope.__recorded = recorded
    const nav = scope.navigator as WorkerNavigator & { setAppBadge?: (n?: number) => Promise<void> }
    const setBadge = nav.setAppBadge?.bind(nav)
    nav.setAppBadge = (n?: number) => {
      const result = setBadge ? setBadge(n) : Promise.resolve()
      // Noted once settled, before the caller goes on (its reaction is queued after this one): a
      // look in a later task sees whatever the push handler then did.
      const note = () => {
        recorded.badges.push(n ?? 0)
      }
      result.then(note, note)
      return result
    }
    const show = scope.registration.showNotification.bind(scope.registration)
    scope.registration.showNotification = (title: string, options?: NotificationOptions) => {
      recorded.shown.push(title)
      return show(title, options)
    }
  })
}

const recorded = (worker: Worker) => worker.evaluate(() => (self as unknown as { __recorded: Recorded }).__recorded)

/** The notifications the app's worker shows, as the page reads them. */
const notifications = (page: Page) =>
  page.evaluate(async () =>
    (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
      title: n.title,
      body: n.body,
      url: (n.data as { url?: string } | null)?.url,
    })),
  )

/** The registration id of the app's service worker, from the DevTools ServiceWorker domain. */
async function registrationIdOf(cdp: CDPSession, scopeURL: string): Promise<string> {
  let id: string | undefined
  cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
    for (const registration of registrations)
      if (registration.scopeURL === scopeURL && !registration.isDeleted) id = registration.registrationId
  })
  await cdp.send('ServiceWorker.enable')
  await expect.poll(() => id).toBeDefined()
  return id ?? ''
}

test('a push badges the app, makes the page pull and notifies unless a focused window shows that buble', async ({
  browser,
  baseURL,
}) => {
  const origin = baseURL ?? ''
  const { ann, ben, club, bubleId, slug } = await twoMembers(browser, 'Push')
  const push = (body: string, chat: number): UnreadPush => ({
    type: 'unread',
    buble_id: bubleId,
    buble_name: club,
    contentType: 'chat',
    title: 'Ben Reader',
    body,
    url: `/bubles/${slug}?chat=open`,
    unread: { wall: 0, events: 0, polls: 0, members: 0, chat, reports: 0 },
  })
  let cdp: CDPSession | undefined
  let registrationId = ''
  let worker: Worker | undefined
  const deliver = (payload: UnreadPush) =>
    cdp?.send('ServiceWorker.deliverPushMessage', { origin, registrationId, data: JSON.stringify(payload) })
  const pulls: unknown[] = []

  await test.step('Ann is also in a second buble, where Ben posts: the worker counts it in the badge too', async () => {
    const side = `Push side ${Date.now()}`
    await ben.page.goto('/dashboard')
    await ben.page.getByRole('button', { name: 'Create New Buble' }).click()
    await ben.page.getByLabel('Buble Name').fill(side)
    await ben.page.getByRole('button', { name: 'Create Buble' }).click()
    await expect(ben.page).toHaveURL(/\/bubles\/push-side-\d+$/)
    await join(ann.page, await inviteCode(ben.page), side)
    const sideId = (await apiGet<{ id: string; name: string }[]>(ben.page, '/bubles')).find((b) => b.name === side)?.id
    const token = await ben.page.evaluate(() => JSON.parse(localStorage.getItem('auth-storage') ?? '{}').state?.token)
    const posted = await ben.page.request.post(`/api/wall/${sideId}/posts`, {
      headers: { authorization: `Bearer ${token}` },
      data: { content: 'Over here too' },
    })
    expect(posted.status()).toBe(201)
    await ben.page.goto(`/bubles/${slug}`)
  })

  await test.step('Ann allows notifications; her live stream is cut, so only a push makes her page pull', async () => {
    await ann.context.grantPermissions(['notifications'], { origin })
    await ann.context.route('**/api/stream', (route) =>
      route.fulfill({ status: 200, contentType: 'text/event-stream', body: '' }),
    )
    await ann.page.goto('/dashboard')
    await serviceWorkerReady(ann.page)
    await expect(ann.page.getByRole('button', { name: 'Synced' })).toBeVisible()
    await ann.page.exposeFunction('notePull', (data: { type?: string }) => {
      if (data?.type === 'buble:pull') pulls.push(data)
    })
    await ann.page.evaluate(() =>
      navigator.serviceWorker.addEventListener('message', (event) =>
        (window as unknown as { notePull(data: unknown): Promise<void> }).notePull(event.data),
      ),
    )
    cdp = await ann.context.newCDPSession(ann.page)
    registrationId = await registrationIdOf(cdp, `${origin}/`)
    worker = ann.context.serviceWorkers().find((w) => w.url() === `${origin}/sw.js`)
    expect(worker).toBeDefined()
    if (worker) await recordWorker(worker)
  })

  await test.step('Ben chats while Ann is on the dashboard: the push notifies, badges and pulls', async () => {
    await openChat(ben.page, club)
    await send(ben.page, 'Anyone up for a swim?')
    await expect(message(ben.page, 'Ben Reader', 'Anyone up for a swim?').getByText('Sending…')).toHaveCount(0)
    expect(await notifications(ann.page)).toEqual([])

    await deliver(push('Anyone up for a swim?', 1))
    await expect
      .poll(() => notifications(ann.page))
      .toEqual([{ title: 'Ben Reader', body: 'Anyone up for a swim?', url: `/bubles/${slug}?chat=open` }])
    await expect.poll(async () => worker && (await recorded(worker))).toEqual({ badges: [2], shown: ['Ben Reader'] })
    await expect.poll(() => pulls).toEqual([{ type: 'buble:pull', buble_id: bubleId }])
    // The pull brought Ben's message: the buble, opened in the app (no reload), counts it.
    await ann.page.getByRole('link', { name: club, exact: true }).click()
    await expect(ann.page.getByRole('heading', { level: 1, name: club })).toBeVisible()
    await expect(chatButton(ann.page, 1)).toBeVisible()
  })

  await test.step('Ann is on that buble: the next push badges and pulls but does not notify', async () => {
    await ann.page.evaluate(async () => {
      for (const n of await (await navigator.serviceWorker.ready).getNotifications()) n.close()
    })
    await expect.poll(() => notifications(ann.page)).toEqual([])
    await send(ben.page, 'The water is warm')
    await expect(message(ben.page, 'Ben Reader', 'The water is warm').getByText('Sending…')).toHaveCount(0)
    // Without the stream Ann's page has not heard of it.
    await expect(chatButton(ann.page, 1)).toBeVisible()

    // Her page was loaded at /dashboard: the worker must hear from it that it now shows the buble.
    await deliver(push('The water is warm', 2))
    await expect(chatButton(ann.page, 2)).toBeVisible()
    // The handler has finished once the badge is set: it asked for no notification.
    await expect.poll(async () => worker && (await recorded(worker))).toEqual({ badges: [2, 3], shown: ['Ben Reader'] })
    expect(await notifications(ann.page)).toEqual([])
  })

  await test.step('the notification’s address opens the buble with its chat', async () => {
    await ann.context.unroute('**/api/stream')
    await ann.page.goto(`/bubles/${slug}?chat=open`)
    await expect(chatPanel(ann.page, club)).toBeVisible()
    await expect(message(ann.page, 'Ben Reader', 'The water is warm')).toBeVisible()
    await expect(chatButton(ann.page)).toHaveAttribute('aria-expanded', 'true')
  })

  await cdp?.detach()
  expect(ann.problems).toEqual([])
  expect(ben.problems).toEqual([])
  await ann.close()
  await ben.close()
})

/** A small PNG, as a phone would pick it. */
const picture = async () => ({
  name: 'summit.png',
  mimeType: 'image/png',
  buffer: await sharp({ create: { width: 64, height: 48, channels: 3, background: '#2266aa' } })
    .png()
    .toBuffer(),
})

test('at 360×740 the chat looks like a chat: sides, runs, a day, actions on focus or hover, who reacted, an image with its caption', async ({
  browser,
}) => {
  const { ann, ben, club } = await twoMembers(browser, 'Phone')
  await ann.page.setViewportSize({ width: 360, height: 740 })
  const bubble = (item: Locator) => item.locator('.chat-bubble')

  await test.step('the panel fills the phone screen, its header names the buble, the composer sits at the bottom', async () => {
    await openChat(ann.page, club)
    const panel = chatPanel(ann.page, club)
    const title = panel.locator('.chat-title')
    await expect(title).toHaveAccessibleName(`Chat in ${club}`)
    // What shows: "Chat · Phone …" (the "in" is for screen readers).
    await expect(title.getByText('·', { exact: true })).toBeVisible()
    await expect(title.locator('.chat-title-name')).toHaveText(club)
    await expect(title.locator('.chat-title-name')).toBeVisible()
    const box = await panel.boundingBox()
    expect(box).toMatchObject({ x: 0, y: 0, width: 360, height: 740 })
    const composer = await panel.getByRole('form', { name: 'New message' }).boundingBox()
    expect((composer?.y ?? 0) + (composer?.height ?? 0)).toBeLessThanOrEqual(740)
    expect((composer?.y ?? 0) + (composer?.height ?? 0)).toBeGreaterThan(700)
  })

  await test.step('Ben’s two quick messages are one run on the left; Ann’s own is on the right, under Today', async () => {
    await openChat(ben.page, club)
    // Each on the server before the next is written, so the order is the order of writing.
    for (const text of ['Top out by noon?', 'Bring the blue rope']) {
      await send(ben.page, text)
      await expect(message(ben.page, 'Ben Reader', text).getByText('Sending…')).toHaveCount(0)
    }
    await send(ann.page, 'On my way')
    const first = message(ann.page, 'Ben Reader', 'Top out by noon?')
    const second = message(ann.page, 'Ben Reader', 'Bring the blue rope')
    const mine = message(ann.page, 'Ann Author', 'On my way')
    await expect(mine.getByText('Sending…')).toHaveCount(0)
    await expect(second).toBeVisible()
    await expect(ann.page.getByRole('list', { name: 'Messages' }).getByRole('heading', { name: 'Today' })).toBeVisible()
    // One name for the run.
    await expect(first.locator('.chat-sender')).toHaveText('Ben Reader')
    await expect(second.locator('.chat-sender')).toHaveCount(0)
    const theirs = await bubble(first).boundingBox()
    const own = await bubble(mine).boundingBox()
    if (!theirs || !own) throw new Error('no bubbles laid out')
    // Others' start at the left (after a 28 px avatar), the user's own end at the right.
    expect(theirs.x).toBeLessThan(60)
    expect(own.x + own.width).toBeGreaterThan(360 - 24)
    expect(own.x).toBeGreaterThan(theirs.x + 100)
    // Different colours.
    const background = (item: Locator) => bubble(item).evaluate((el) => getComputedStyle(el).backgroundColor)
    expect(await background(mine)).not.toBe(await background(first))
  })

  await test.step('actions hide until a message has keyboard focus or the pointer', async () => {
    const first = message(ann.page, 'Ben Reader', 'Top out by noon?')
    const mine = message(ann.page, 'Ann Author', 'On my way')
    await ann.page.mouse.move(180, 20)
    await expect(mine.getByRole('button', { name: 'Edit message' })).toBeHidden()
    await expect(first.getByRole('button', { name: 'Reply to Ben Reader' })).toBeHidden()
    // From the composer, Shift+Tab reaches the newest message: its actions show.
    await messageField(ann.page).focus()
    await ann.page.keyboard.press('Shift+Tab')
    await ann.page.keyboard.press('Shift+Tab')
    await expect(mine).toBeFocused()
    await expect(mine.getByRole('button', { name: 'Edit message' })).toBeVisible()
    // Up twice: the run's first message, and only its actions.
    await ann.page.keyboard.press('ArrowUp')
    await ann.page.keyboard.press('ArrowUp')
    await expect(first).toBeFocused()
    await expect(first.getByRole('button', { name: 'Reply to Ben Reader' })).toBeVisible()
    await expect(mine.getByRole('button', { name: 'Edit message' })).toBeHidden()
    await ann.page.keyboard.press('Tab')
    await expect(first.getByRole('button', { name: 'Like' })).toBeFocused()
    await expect(first.getByRole('button', { name: 'Reply to Ben Reader' })).toBeVisible()
    await messageField(ann.page).focus()
    await expect(first.getByRole('button', { name: 'Reply to Ben Reader' })).toBeHidden()
    // The pointer shows them too (Ben, on a desktop).
    const onBen = message(ben.page, 'Ann Author', 'On my way')
    await expect(onBen.getByRole('button', { name: 'Reply to Ann Author' })).toBeHidden()
    await onBen.hover()
    await expect(onBen.getByRole('button', { name: 'Reply to Ann Author' })).toBeVisible()
  })

  await test.step('Ben reacts to Ann’s message; on Ann’s phone the chip counts it and lists Ben', async () => {
    await (await action(message(ben.page, 'Ann Author', 'On my way'), 'Love')).click()
    const mine = message(ann.page, 'Ann Author', 'On my way')
    const love = chip(mine, 'Love', 1)
    await expect(love).toBeVisible()
    await expect(mine.getByRole('list', { name: 'Reactions' }).getByRole('button')).toHaveCount(1)
    await love.click()
    await expect(mine.getByRole('list', { name: 'Reacted with Love' })).toHaveText('Ben Reader')
    await expectAccessible(ann.page, 'chat at 360×740, who reacted open')
    await mine.getByRole('button', { name: 'Add your Love' }).click()
    await expect(chip(mine, 'Love', 2)).toHaveClass(/is-mine/)
    await expect(mine.getByRole('list', { name: 'Reacted with Love' }).getByRole('listitem')).toHaveText([
      'You',
      'Ben Reader',
    ])
    await expect(chip(message(ben.page, 'Ann Author', 'On my way'), 'Love', 2)).toBeVisible()
  })

  await test.step('an image is previewed with a caption before it is sent', async () => {
    await ann.page.getByLabel('Send an image').setInputFiles(await picture())
    const preview = ann.page.getByRole('img', { name: 'To send: summit.png' })
    await expect(preview).toBeVisible()
    await expect(messageField(ann.page)).toHaveAttribute('placeholder', 'Add a caption…')
    // Nothing is sent before Send.
    await expect(message(ben.page, 'Ann Author', 'The summit')).toHaveCount(0)
    await expectAccessible(ann.page, 'chat at 360×740, image preview')
    await messageField(ann.page).fill('The summit')
    await messageField(ann.page).press('Enter')
    await expect(preview).toHaveCount(0)
    for (const page of [ann.page, ben.page]) {
      const sent = message(page, 'Ann Author', 'The summit')
      await expect(sent.getByRole('img', { name: 'Sent by Ann Author' })).toBeVisible()
    }
    const composer = await ann.page.getByRole('form', { name: 'New message' }).boundingBox()
    expect((composer?.y ?? 0) + (composer?.height ?? 0)).toBeLessThanOrEqual(740)
  })

  await test.step('with the on-screen keyboard open (a shorter screen), the composer and the newest message stay in view', async () => {
    await messageField(ann.page).focus()
    await ann.page.setViewportSize({ width: 360, height: 420 })
    const composer = ann.page.getByRole('form', { name: 'New message' })
    await expect
      .poll(async () => {
        const box = await composer.boundingBox()
        return box ? box.y + box.height : 0
      })
      .toBeLessThanOrEqual(420)
    await expect(message(ann.page, 'Ann Author', 'The summit').locator('.chat-text')).toBeInViewport()
    await ann.page.setViewportSize({ width: 360, height: 740 })
  })

  await test.step('on a touch screen, a long press shows a message’s actions and a touch elsewhere hides them', async () => {
    const cdp = await ann.context.newCDPSession(ann.page)
    await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 1 })
    await cdp.send('Emulation.setEmitTouchEventsForMouse', { enabled: true, configuration: 'mobile' })
    const theirs = message(ann.page, 'Ben Reader', 'Bring the blue rope')
    const reply = theirs.getByRole('button', { name: 'Reply to Ben Reader' })
    /** A touch at the middle of an element (the message's text by default), measured just before: the list may move. */
    const touch = async (type: 'touchStart' | 'touchEnd', on = theirs.locator('.chat-text')) => {
      const box = type === 'touchStart' ? await on.boundingBox() : null
      const touchPoints = box ? [{ x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) }] : []
      await cdp.send('Input.dispatchTouchEvent', { type, touchPoints })
    }
    // A quick tap is not a long press.
    await touch('touchStart')
    await touch('touchEnd')
    // Longer than a long press (LONG_PRESS_MS in chat-message.tsx, 500 ms).
    await ann.page.waitForTimeout(800)
    await expect(reply).toBeHidden()
    // Held: the actions show while the finger is still down, and stay once it lifts.
    await touch('touchStart')
    await expect(reply).toBeVisible()
    await touch('touchEnd')
    await expect(reply).toBeVisible()
    // A touch elsewhere (the chat's title) hides them.
    await touch('touchStart', chatPanel(ann.page, club).locator('.chat-title'))
    await touch('touchEnd')
    await expect(reply).toBeHidden()
    await cdp.detach()
  })

  await expectAccessible(ann.page, 'chat at 360×740')
  expect(ann.problems).toEqual([])
  expect(ben.problems).toEqual([])
  await ann.close()
  await ben.close()
})
