import type { ActiveInvite } from '@buble/shared/bubles'
import { screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { chooseBubleAction } from '../../test/buble-menu.ts'
import { bubleServer } from '../../test/buble-server.ts'
import { json, type Reply } from '../../test/fake-fetch.ts'
import { alice, bubleChange, makeBuble, makeMember, memberChange, person } from '../../test/fixtures.ts'
import { renderApp } from '../../test/render-app.tsx'
import { COPY_FAILED } from '../../ui/use-copy.ts'

const PROFILE = 'GET /api/users/profile'
const buble = makeBuble({ name: 'Garden Club' })
const INVITES = `POST /api/bubles/${buble.id}/invites`
const LIST = `GET /api/bubles/${buble.id}/invites`
const revokeCall = (code: string) => `DELETE /api/bubles/${buble.id}/invites/${code}`
const first = json(201, { code: 'K7M2PQ9XRT', expires_at: '2026-11-30T10:00:00.000Z' })

const activeCode = (code: string, overrides: Partial<ActiveInvite> = {}): ActiveInvite => ({
  code,
  email: null,
  created_at: '2026-11-23T10:00:00.000Z',
  expires_at: '2026-11-30T10:00:00.000Z',
  created_by: person(alice.name),
  ...overrides,
})
const listed = (...invites: ActiveInvite[]) => json(200, { invites })
const justMade = activeCode('K7M2PQ9XRT')
const mailed = activeCode('ZX8RT4WQ2M', {
  email: 'dan@example.com',
  created_by: person('Mia Moderator'),
  created_at: '2026-11-22T09:00:00.000Z',
  expires_at: '2026-11-29T09:00:00.000Z',
})

/** Generates the first code; the API answers as scripted (the e-mail invite with `emailed`, the list with `list`). */
async function openInvite({
  emailed = json(500, undefined),
  list = listed(justMade),
  api = {},
}: {
  emailed?: Reply
  list?: Reply | Reply[]
  api?: Record<string, Reply | Reply[]>
} = {}) {
  const app = renderApp({
    route: '/bubles/garden-club',
    user: alice,
    server: bubleServer([bubleChange(buble), memberChange(buble.id, makeMember(alice, 'owner'))]),
    api: { [PROFILE]: json(200, alice), [INVITES]: [first, emailed], [LIST]: list, ...api },
  })
  await chooseBubleAction(app.user, 'Generate Invite')
  const dialog = await screen.findByRole('dialog', { name: 'Invite code generated' })
  return { app, dialog }
}

const codesSection = (dialog: HTMLElement) => within(dialog).getByRole('region', { name: 'Active codes' })
const rowsOf = async (dialog: HTMLElement) => {
  const section = codesSection(dialog)
  return (await within(section).findAllByRole('listitem')).map((row) => row.textContent)
}

test('an invite sent by e-mail is confirmed beside its form, and the code on screen stays the one it was', async () => {
  const { app, dialog } = await openInvite({
    emailed: json(201, { code: 'ZX8RT4WQ2M', expires_at: '2026-12-01T09:00:00.000Z' }),
    list: [listed(justMade), listed(mailed, justMade)],
  })
  expect(within(dialog).getByText('K7M2PQ9XRT', { selector: '.invite-code' })).toBeInTheDocument()
  await rowsOf(dialog)
  await app.user.type(within(dialog).getByLabelText('E-mail address'), '  Dan@Example.com ')
  await app.user.click(within(dialog).getByRole('button', { name: 'Send invite' }))

  const form = within(dialog).getByRole('heading', { name: 'Or send an invite by e-mail' }).closest('form')!
  expect(await within(form).findByRole('status')).toHaveTextContent(/^Invite sent to dan@example\.com$/)
  // The code and link shown are still the first code's: the mailed one is the addressee's own.
  expect(within(dialog).getByText('K7M2PQ9XRT', { selector: '.invite-code' })).toBeInTheDocument()
  expect(within(dialog).queryByText('ZX8RT4WQ2M', { selector: '.invite-code' })).toBeNull()
  expect(within(dialog).getByLabelText('Invite link')).toHaveValue(`${window.location.origin}/join/K7M2PQ9XRT`)
  expect(within(dialog).getByText(/^Expires 30 Nov 2026, \d\d:\d\d$/)).toBeInTheDocument()
  expect(app.callsTo(INVITES).map((call) => call.body)).toEqual([{}, { email: 'dan@example.com' }])
  expect(within(dialog).getByLabelText('E-mail address')).toHaveValue('')
  // The list is read again: the mailed code is in it, for whom.
  await waitFor(() => expect(app.callsTo(LIST)).toHaveLength(2))
  await waitFor(async () => expect(await rowsOf(dialog)).toHaveLength(2))
  expect(within(codesSection(dialog)).getByText('For dan@example.com')).toBeInTheDocument()
})

test('the invite link sits beside the code; Copy link says Copied! only once copied, then Copy link again', async () => {
  const { app, dialog } = await openInvite()
  const link = within(dialog).getByLabelText('Invite link')
  expect(link).toHaveValue(`${window.location.origin}/join/K7M2PQ9XRT`)
  expect(link).toHaveAttribute('readonly')
  const writeText = vi.spyOn(navigator.clipboard, 'writeText')
  await app.user.click(within(dialog).getByRole('button', { name: 'Copy link' }))
  expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/join/K7M2PQ9XRT`)
  await expect(navigator.clipboard.readText()).resolves.toBe(`${window.location.origin}/join/K7M2PQ9XRT`)
  const copied = await within(dialog).findByRole('button', { name: 'Copied!' })
  // Each has its own state: the code's button still offers to copy the code.
  expect(within(dialog).getByRole('button', { name: 'Copy code' })).toBeInTheDocument()
  await waitFor(() => expect(copied).toHaveTextContent('Copy link'))
  expect(within(dialog).queryByRole('alert')).toBeNull()
})

test('a copy the clipboard refused never says Copied!: it says how to copy by hand', async () => {
  const { app, dialog } = await openInvite()
  vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValueOnce(new DOMException('Denied', 'NotAllowedError'))
  await app.user.click(within(dialog).getByRole('button', { name: 'Copy link' }))
  expect(await within(dialog).findByRole('alert')).toHaveTextContent(COPY_FAILED)
  expect(within(dialog).queryByRole('button', { name: 'Copied!' })).toBeNull()
  expect(within(dialog).getByRole('button', { name: 'Copy link' })).toBeInTheDocument()
  // The next try that works clears the error.
  await app.user.click(within(dialog).getByRole('button', { name: 'Copy link' }))
  expect(await within(dialog).findByRole('button', { name: 'Copied!' })).toBeInTheDocument()
  expect(within(dialog).queryByRole('alert')).toBeNull()
})

describe('Share', () => {
  afterEach(() => {
    Reflect.deleteProperty(navigator, 'share')
  })

  test('is not offered where the browser has no share sheet', async () => {
    expect('share' in navigator).toBe(false)
    const { dialog } = await openInvite()
    expect(within(dialog).getByRole('button', { name: 'Copy link' })).toBeInTheDocument()
    expect(within(dialog).queryByRole('button', { name: 'Share…' })).toBeNull()
  })

  test("opens the platform's share sheet with the buble's name and the link", async () => {
    const share = vi.fn().mockResolvedValue(undefined)
    Object.defineProperty(navigator, 'share', { value: share, configurable: true })
    const { app, dialog } = await openInvite()
    await app.user.click(within(dialog).getByRole('button', { name: 'Share…' }))
    expect(share).toHaveBeenCalledWith({
      title: 'Join Garden Club on Buble',
      text: 'Join Garden Club, a private group on Buble.',
      url: `${window.location.origin}/join/K7M2PQ9XRT`,
    })
    expect(within(dialog).queryByRole('alert')).toBeNull()
  })

  test('closing the share sheet is no error; a sheet that fails says to copy the link', async () => {
    const share = vi
      .fn()
      .mockRejectedValueOnce(new DOMException('Share canceled', 'AbortError'))
      .mockRejectedValueOnce(new DOMException('Not allowed', 'NotAllowedError'))
    Object.defineProperty(navigator, 'share', { value: share, configurable: true })
    const { app, dialog } = await openInvite()
    await app.user.click(within(dialog).getByRole('button', { name: 'Share…' }))
    await waitFor(() => expect(share).toHaveBeenCalledTimes(1))
    expect(within(dialog).queryByRole('alert')).toBeNull()
    await app.user.click(within(dialog).getByRole('button', { name: 'Share…' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Could not open the share sheet. Copy the link instead.',
    )
  })
})

test.each([
  [
    'the server message (already a member)',
    json(409, { message: 'dan@example.com is already a member of this Buble', code: 'CONFLICT' }),
    'dan@example.com is already a member of this Buble',
  ],
  ['else "Failed to generate invite"', json(500, undefined), 'Failed to generate invite'],
])('a failed e-mail invite shows %s', async (_what, reply, text) => {
  const { app, dialog } = await openInvite({ emailed: reply })
  await rowsOf(dialog)
  await app.user.type(within(dialog).getByLabelText('E-mail address'), 'dan@example.com')
  await app.user.click(within(dialog).getByRole('button', { name: 'Send invite' }))
  expect(await within(dialog).findByRole('alert')).toHaveTextContent(text)
  expect(within(dialog).getByRole('alert').textContent).toBe(text)
  expect(within(dialog).queryByRole('status')).toBeNull()
  expect(within(dialog).getByLabelText('E-mail address')).toHaveValue('dan@example.com')
})

test('an address that does not look like one is caught before anything is sent', async () => {
  const { app, dialog } = await openInvite()
  await app.user.type(within(dialog).getByLabelText('E-mail address'), 'dan at example')
  await app.user.click(within(dialog).getByRole('button', { name: 'Send invite' }))
  expect(within(dialog).getByText('Please enter a valid email address')).toBeInTheDocument()
  expect(within(dialog).getByLabelText('E-mail address')).toHaveAttribute('aria-invalid', 'true')
  expect(app.callsTo(INVITES)).toHaveLength(1)
})

test('the active codes are listed newest first, each with whom it was mailed to, who made it and when it expires', async () => {
  const { dialog } = await openInvite({ list: listed(justMade, mailed) })
  const section = codesSection(dialog)
  // Loading first, then the list.
  expect(await rowsOf(dialog)).toEqual([
    expect.stringMatching(/^K7M2PQ9XRTMade by Alice Example · Expires 30 Nov 2026, \d\d:\d\dRevoke$/),
    expect.stringMatching(
      /^ZX8RT4WQ2MFor dan@example\.comMade by Mia Moderator · Expires 29 Nov 2026, \d\d:\d\dRevoke$/,
    ),
  ])
  expect(within(section).getByRole('button', { name: 'Revoke code K7M2PQ9XRT' })).toBeEnabled()
  expect(within(section).getByRole('button', { name: 'Revoke code ZX8RT4WQ2M' })).toBeEnabled()
})

test('while the list loads a spinner says so; with no active code it says there is none', async () => {
  let answer: (reply: Response) => void = () => {}
  const pending = new Promise<Response>((resolve) => {
    answer = resolve
  })
  const { dialog } = await openInvite({ list: () => pending })
  const section = codesSection(dialog)
  expect(within(section).getByRole('status')).toHaveTextContent('Loading codes…')
  answer(listed())
  expect(
    await within(section).findByText('No active codes. Used, revoked and expired codes are not listed.'),
  ).toBeInTheDocument()
  expect(within(section).queryByRole('status')).toBeNull()
  expect(within(section).queryByRole('list')).toBeNull()
})

test('a list that fails to load says so, and Try again reads it again', async () => {
  const { app, dialog } = await openInvite({
    list: [json(500, undefined), json(403, { code: 'FORBIDDEN', message: 'Not yours' }), listed(justMade)],
  })
  const section = codesSection(dialog)
  expect(await within(section).findByRole('alert')).toHaveTextContent(/^Failed to load invite codes$/)
  await app.user.click(within(section).getByRole('button', { name: 'Try again' }))
  await waitFor(() => expect(within(section).getByRole('alert')).toHaveTextContent(/^Not yours$/))
  await app.user.click(within(section).getByRole('button', { name: 'Try again' }))
  expect(await rowsOf(dialog)).toHaveLength(1)
  expect(within(section).queryByRole('alert')).toBeNull()
  expect(app.callsTo(LIST)).toHaveLength(3)
})

test('Revoke asks first; Cancel changes nothing, Revoke Code revokes and the code leaves the list', async () => {
  const { app, dialog } = await openInvite({
    list: listed(justMade, mailed),
    api: { [revokeCall('ZX8RT4WQ2M')]: new Response(null, { status: 204 }) },
  })
  await rowsOf(dialog)
  await app.user.click(within(dialog).getByRole('button', { name: 'Revoke code ZX8RT4WQ2M' }))
  let confirm = await screen.findByRole('dialog', { name: 'Revoke Invite Code' })
  expect(confirm).toHaveTextContent(
    'Revoke the code ZX8RT4WQ2M sent to dan@example.com? It stops working at once: nobody can join Garden Club with it.',
  )
  await app.user.click(within(confirm).getByRole('button', { name: 'Cancel' }))
  let modal = await screen.findByRole('dialog', { name: 'Invite code generated' })
  expect(await rowsOf(modal)).toHaveLength(2)
  expect(app.callsTo(revokeCall('ZX8RT4WQ2M'))).toEqual([])

  await app.user.click(within(modal).getByRole('button', { name: 'Revoke code ZX8RT4WQ2M' }))
  confirm = await screen.findByRole('dialog', { name: 'Revoke Invite Code' })
  await app.user.click(within(confirm).getByRole('button', { name: 'Revoke Code' }))
  modal = await screen.findByRole('dialog', { name: 'Invite code generated' })
  expect(app.callsTo(revokeCall('ZX8RT4WQ2M'))).toHaveLength(1)
  const section = codesSection(modal)
  expect(within(section).getByRole('status')).toHaveTextContent(/^Code ZX8RT4WQ2M revoked\. It no longer works\.$/)
  expect(await rowsOf(modal)).toEqual([expect.stringMatching(/^K7M2PQ9XRT/)])
  // The code just generated is untouched.
  expect(within(modal).getByRole('button', { name: 'Copy code' })).toBeEnabled()
})

test('a refused revoke shows the server message in the dialog and reads the list again', async () => {
  const { app, dialog } = await openInvite({
    list: [listed(justMade, mailed), listed(justMade)],
    api: { [revokeCall('ZX8RT4WQ2M')]: json(404, { code: 'NOT_FOUND', message: 'Invite code not found' }) },
  })
  await rowsOf(dialog)
  await app.user.click(within(dialog).getByRole('button', { name: 'Revoke code ZX8RT4WQ2M' }))
  const confirm = await screen.findByRole('dialog', { name: 'Revoke Invite Code' })
  await app.user.click(within(confirm).getByRole('button', { name: 'Revoke Code' }))
  expect(await within(confirm).findByRole('alert')).toHaveTextContent(/^Invite code not found$/)
  await app.user.click(within(confirm).getByRole('button', { name: 'Cancel' }))
  const modal = await screen.findByRole('dialog', { name: 'Invite code generated' })
  await waitFor(async () => expect(await rowsOf(modal)).toHaveLength(1))
  expect(within(modal).queryByRole('status')).toBeNull()
})

test('revoking the code just generated says it no longer works and stops offering to copy it', async () => {
  const { app, dialog } = await openInvite({
    api: { [revokeCall('K7M2PQ9XRT')]: new Response(null, { status: 204 }) },
  })
  await rowsOf(dialog)
  await app.user.click(within(dialog).getByRole('button', { name: 'Revoke code K7M2PQ9XRT' }))
  await app.user.click(
    within(await screen.findByRole('dialog', { name: 'Revoke Invite Code' })).getByRole('button', {
      name: 'Revoke Code',
    }),
  )
  const modal = await screen.findByRole('dialog', { name: 'Invite code generated' })
  expect(within(modal).getByText('Revoked: this code no longer works.')).toBeInTheDocument()
  expect(within(modal).getByRole('button', { name: 'Copy code' })).toBeDisabled()
  expect(within(codesSection(modal)).getByText('No active codes. Used, revoked and expired codes are not listed.'))
})

test('the list works from the keyboard: Tab reaches Revoke, Enter asks, Escape cancels', async () => {
  const { app, dialog } = await openInvite()
  await rowsOf(dialog)
  const revoke = within(dialog).getByRole('button', { name: 'Revoke code K7M2PQ9XRT' })
  for (let i = 0; i < 20 && document.activeElement !== revoke; i++) await app.user.tab()
  expect(revoke).toHaveFocus()
  await app.user.keyboard('{Enter}')
  const confirm = await screen.findByRole('dialog', { name: 'Revoke Invite Code' })
  // A destructive action: Cancel has the focus, so Enter does no harm.
  expect(within(confirm).getByRole('button', { name: 'Cancel' })).toHaveFocus()
  await app.user.keyboard('{Escape}')
  expect(await screen.findByRole('dialog', { name: 'Invite code generated' })).toBeInTheDocument()
  expect(screen.queryByRole('dialog', { name: 'Revoke Invite Code' })).toBeNull()
})
