import { screen, within } from '@testing-library/react'
import { expect, test } from 'vitest'
import { bubleServer } from '../../test/buble-server.ts'
import { json, type Reply } from '../../test/fake-fetch.ts'
import { alice, bubleChange, makeBuble, makeMember, memberChange } from '../../test/fixtures.ts'
import { renderApp } from '../../test/render-app.tsx'

const PROFILE = 'GET /api/users/profile'
const buble = makeBuble({ name: 'Garden Club' })
const INVITES = `POST /api/bubles/${buble.id}/invites`
const first = json(201, { code: 'K7M2PQ9XRT', expires_at: '2026-11-30T10:00:00.000Z' })

/** Generates the first code, then answers the e-mail invite with `emailed`. */
async function openInvite(emailed: Reply) {
  const app = renderApp({
    route: '/bubles/garden-club',
    user: alice,
    server: bubleServer([bubleChange(buble), memberChange(buble.id, makeMember(alice, 'owner'))]),
    api: { [PROFILE]: json(200, alice), [INVITES]: [first, emailed] },
  })
  await app.user.click(await screen.findByRole('button', { name: 'Generate Invite' }))
  const dialog = await screen.findByRole('dialog', { name: 'Invite code generated' })
  return { app, dialog }
}

test('an invite sent by e-mail says to whom and shows the code that went out', async () => {
  const { app, dialog } = await openInvite(json(201, { code: 'ZX8RT4WQ2M', expires_at: '2026-12-01T09:00:00.000Z' }))
  expect(within(dialog).getByText('K7M2PQ9XRT')).toHaveClass('invite-code')
  await app.user.type(within(dialog).getByLabelText('E-mail address'), '  Dan@Example.com ')
  await app.user.click(within(dialog).getByRole('button', { name: 'Send invite' }))

  expect(await within(dialog).findByRole('status')).toHaveTextContent(/^Invite sent to dan@example\.com$/)
  expect(within(dialog).getByText('ZX8RT4WQ2M')).toHaveClass('invite-code')
  expect(within(dialog).queryByText('K7M2PQ9XRT')).toBeNull()
  expect(within(dialog).getByText(/^Expires 1 Dec 2026, \d\d:\d\d$/)).toBeInTheDocument()
  expect(app.callsTo(INVITES).map((call) => call.body)).toEqual([{}, { email: 'dan@example.com' }])
  expect(within(dialog).getByLabelText('E-mail address')).toHaveValue('')
})

test.each([
  [
    'the server message (already a member)',
    json(409, { message: 'dan@example.com is already a member of this Buble', code: 'CONFLICT' }),
    'dan@example.com is already a member of this Buble',
  ],
  ['else "Failed to generate invite"', json(500, undefined), 'Failed to generate invite'],
])('a failed e-mail invite shows %s', async (_what, reply, text) => {
  const { app, dialog } = await openInvite(reply)
  await app.user.type(within(dialog).getByLabelText('E-mail address'), 'dan@example.com')
  await app.user.click(within(dialog).getByRole('button', { name: 'Send invite' }))
  expect(await within(dialog).findByRole('alert')).toHaveTextContent(text)
  expect(within(dialog).getByRole('alert').textContent).toBe(text)
  expect(within(dialog).queryByRole('status')).toBeNull()
  expect(within(dialog).getByLabelText('E-mail address')).toHaveValue('dan@example.com')
})

test('an address that does not look like one is caught before anything is sent', async () => {
  const { app, dialog } = await openInvite(json(500, undefined))
  await app.user.type(within(dialog).getByLabelText('E-mail address'), 'dan at example')
  await app.user.click(within(dialog).getByRole('button', { name: 'Send invite' }))
  expect(within(dialog).getByText('Please enter a valid email address')).toBeInTheDocument()
  expect(within(dialog).getByLabelText('E-mail address')).toHaveAttribute('aria-invalid', 'true')
  expect(app.callsTo(INVITES)).toHaveLength(1)
})
