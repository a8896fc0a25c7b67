import type { ModerationAction, ReportGroup } from '@buble/shared/reports'
import type { Change } from '@buble/sync/protocol'
import { screen, waitFor, within } from '@testing-library/react'
import { afterEach, expect, test, vi } from 'vitest'
import { json } from '../../test/fake-fetch.ts'
import { alice, bob, bubleChange, makeBuble, makeMember, memberChange } from '../../test/fixtures.ts'
import { renderApp } from '../../test/render-app.tsx'
import { makePost, postChange } from '../../test/wall-fixtures.ts'

/**
 * Reporting and the Reports section (issue 24 §1): Report on someone else's post opens a dialog,
 * queues `report.create` (offline too) and shows "Reported"; a moderator's Reports section groups an
 * item's reports and queues `report.resolve`; a plain member sees only notices about their content.
 */

const buble = makeBuble({ name: 'Book Club' })
const REPORTS = `GET /api/bubles/${buble.id}/reports`
const HISTORY = `GET /api/bubles/${buble.id}/reports/history`
const NOTICES = `GET /api/bubles/${buble.id}/moderation/notices`

afterEach(() => vi.restoreAllMocks())

function open(route: string, rows: Change[], role: 'owner' | 'member' = 'member', api = {}) {
  return renderApp({
    route,
    user: alice,
    server: {
      push: () => new Promise(() => {}),
      seed: [
        bubleChange(buble),
        memberChange(buble.id, makeMember(alice, role)),
        memberChange(buble.id, makeMember(bob, 'member')),
        ...rows,
      ],
    },
    api: { 'GET /api/users/profile': json(200, alice), ...api },
  })
}

const queued = (app: ReturnType<typeof open>) =>
  app.device
    .current()!
    .db.outbox.toArray()
    .then((entries) => entries.map((entry) => [entry.name, entry.args]))

test("a member reports someone else's post: a reason and a note, queued as report.create; then Reported", async () => {
  const theirs = makePost(buble.id, 'Bob Builder', 'Buy cheap watches', 5)
  const mine = makePost(buble.id, 'Alice Example', 'My own words', 3, { author_id: alice.id })
  const app = open('/bubles/book-club/wall', [postChange(theirs), postChange(mine)])
  const card = await screen.findByRole('article', { name: 'Post by Bob Builder' })
  // One's own content has no Report.
  const own = await screen.findByRole('article', { name: 'Post by Alice Example' })
  expect(within(own).queryByRole('button', { name: /^Report/ })).toBeNull()

  await app.user.click(within(card).getByRole('button', { name: 'Report post' }))
  const dialog = await screen.findByRole('dialog', { name: 'Report this post' })
  // No reason picked: the dialog says so and queues nothing.
  await app.user.click(within(dialog).getByRole('button', { name: 'Send report' }))
  expect(within(dialog).getByText('Pick a reason')).toBeInTheDocument()
  expect(await queued(app)).toEqual([])

  await app.user.click(within(dialog).getByRole('radio', { name: /Spam/ }))
  await app.user.type(within(dialog).getByRole('textbox', { name: 'Note for the moderators (optional)' }), 'Third time')
  await app.user.click(within(dialog).getByRole('button', { name: 'Send report' }))
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  expect(within(card).getByRole('status')).toHaveTextContent(
    'Thanks. Your report goes to the moderators of this Buble.',
  )
  expect(await within(card).findByText(/^Reported/)).toHaveTextContent('Reported post')
  expect(within(card).queryByRole('button', { name: 'Report post' })).toBeNull()
  const [[name, args]] = (await queued(app)) as [[string, Record<string, unknown>]]
  expect(name).toBe('report.create')
  expect(args).toMatchObject({
    buble_id: buble.id,
    target_type: 'post',
    target_id: theirs.id,
    reason: 'spam',
    note: 'Third time',
  })
})

test('offline, a report is kept on the device and says it goes once back online', async () => {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false)
  const theirs = makePost(buble.id, 'Bob Builder', 'Rude words', 5)
  const app = open('/bubles/book-club/wall', [postChange(theirs)])
  const card = await screen.findByRole('article', { name: 'Post by Bob Builder' })
  await app.user.click(within(card).getByRole('button', { name: 'Report post' }))
  const dialog = await screen.findByRole('dialog', { name: 'Report this post' })
  await app.user.click(within(dialog).getByRole('radio', { name: /Harassment/ }))
  await app.user.click(within(dialog).getByRole('button', { name: 'Send report' }))
  expect(await within(card).findByRole('status')).toHaveTextContent(
    'Thanks. Your report is saved on this device and goes to the moderators when you are back online.',
  )
  expect(await queued(app)).toEqual([['report.create', expect.objectContaining({ reason: 'harassment', note: null })]])
})

const group = (overrides: Partial<ReportGroup> = {}): ReportGroup => ({
  buble_id: buble.id,
  buble_name: 'Book Club',
  target_type: 'post',
  target_id: '0190f5b4-2000-7000-8000-0000000000a1',
  excerpt: 'Buy cheap watches',
  exists: true,
  author: { id: bob.id, name: bob.name },
  reasons: [
    { reason: 'spam', count: 2 },
    { reason: 'other', count: 1 },
  ],
  reports: [
    {
      id: 'r1',
      reporter: { id: 'u1', name: 'Cleo' },
      reason: 'spam',
      note: null,
      created_at: '2026-11-28T10:00:00.000Z',
    },
    {
      id: 'r2',
      reporter: { id: 'u2', name: 'Dan' },
      reason: 'spam',
      note: 'Every day',
      created_at: '2026-11-28T10:05:00.000Z',
    },
    {
      id: 'r3',
      reporter: { id: 'u3', name: 'Eve' },
      reason: 'other',
      note: null,
      created_at: '2026-11-28T10:06:00.000Z',
    },
  ],
  first_reported_at: '2026-11-28T10:00:00.000Z',
  last_reported_at: '2026-11-28T10:06:00.000Z',
  ...overrides,
})

const dismissed: ModerationAction = {
  id: 'a1',
  buble_id: buble.id,
  action: 'dismiss',
  duration: null,
  target_type: 'poll',
  target_id: 'x',
  excerpt: 'Which day?',
  moderator: { id: alice.id, name: alice.name },
  author: { id: bob.id, name: bob.name },
  reports_closed: 2,
  created_at: '2026-11-27T10:00:00.000Z',
}

test("a moderator's Reports section groups an item's reports; muting queues report.resolve and the group leaves", async () => {
  const app = open('/bubles/book-club/reports', [], 'owner', {
    [REPORTS]: json(200, { groups: [group()], next: null }),
    [HISTORY]: json(200, { actions: [dismissed] }),
    [NOTICES]: json(200, { notices: [] }),
  })
  const card = await screen.findByRole('article', { name: /Post by Bob Builder/ })
  expect(within(card).getByText('3 reports')).toBeInTheDocument()
  expect(within(card).getByText('Buy cheap watches')).toBeInTheDocument()
  expect(
    within(within(card).getByRole('list', { name: 'Reasons' }))
      .getAllByRole('listitem')
      .map((li) => li.textContent),
  ).toEqual(['Spam × 2', 'Other × 1'])
  const reports = within(within(card).getByRole('list', { name: 'Reports' })).getAllByRole('listitem')
  expect(reports.map((li) => li.querySelector('strong')?.textContent)).toEqual(['Cleo', 'Dan', 'Eve'])
  expect(reports[1]).toHaveTextContent('Every day')
  expect(await screen.findByText(/Alice Example dismissed 2 reports on Bob Builder's poll/)).toBeInTheDocument()

  await app.user.selectOptions(within(card).getByRole('combobox', { name: 'Mute the author for' }), '1h')
  await app.user.click(within(card).getByRole('button', { name: 'Mute author' }))
  expect(await screen.findByRole('status')).toHaveTextContent('Bob Builder is muted for 1 hour.')
  expect(screen.queryByRole('article', { name: /Post by Bob Builder/ })).toBeNull()
  expect(await queued(app)).toEqual([
    [
      'report.resolve',
      { buble_id: buble.id, target_type: 'post', target_id: group().target_id, action: 'mute', duration: '1h' },
    ],
  ])
})

test('delete asks first, then queues report.resolve with delete', async () => {
  const app = open('/bubles/book-club/reports', [], 'owner', {
    [REPORTS]: json(200, { groups: [group()], next: null }),
    [HISTORY]: json(200, { actions: [] }),
    [NOTICES]: json(200, { notices: [] }),
  })
  const card = await screen.findByRole('article', { name: /Post by Bob Builder/ })
  await app.user.click(within(card).getByRole('button', { name: 'Delete post' }))
  const dialog = await screen.findByRole('dialog', { name: 'Delete this post?' })
  await app.user.click(within(dialog).getByRole('button', { name: 'Delete post' }))
  expect(await screen.findByRole('status')).toHaveTextContent('The post was deleted.')
  expect(await queued(app)).toEqual([['report.resolve', expect.objectContaining({ action: 'delete' })]])
  expect(screen.getByRole('heading', { name: 'No open reports' })).toBeInTheDocument()
})

test('offline with nothing loaded, the queue says it loads when back online', async () => {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false)
  open('/bubles/book-club/reports', [], 'owner', {
    [REPORTS]: new TypeError('Failed to fetch'),
    [HISTORY]: new TypeError('Failed to fetch'),
    [NOTICES]: new TypeError('Failed to fetch'),
  })
  expect(await screen.findByText('You are offline. The reports load when you are back online.')).toBeInTheDocument()
})

test('a plain member sees no queue, only what moderators did to their content, with no reporter named', async () => {
  open('/bubles/book-club/reports', [], 'member', {
    [NOTICES]: json(200, {
      notices: [
        {
          id: 'n1',
          buble_id: buble.id,
          action: 'delete',
          duration: null,
          target_type: 'post',
          excerpt: 'Buy cheap watches',
          text: 'A moderator removed your post after it was reported.',
          created_at: '2026-11-28T10:00:00.000Z',
        },
      ],
    }),
  })
  expect(await screen.findByText('A moderator removed your post after it was reported.')).toBeInTheDocument()
  expect(screen.queryByRole('article', { name: /Post by/ })).toBeNull()
  expect(screen.queryByRole('heading', { name: 'History' })).toBeNull()
})
