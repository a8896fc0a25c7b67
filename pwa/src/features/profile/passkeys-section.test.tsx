import { PASSKEY_MESSAGES } from '@buble/shared/passkeys'
import { screen, within } from '@testing-library/react'
import { beforeEach, expect, test, vi } from 'vitest'
import { json } from '../../test/fake-fetch.ts'
import { alice, aliceProfile } from '../../test/fixtures.ts'
import { renderApp } from '../../test/render-app.tsx'
import { PASSKEY_TEXTS } from './passkey-texts.ts'

const browser = vi.hoisted(() => ({ createPasskey: vi.fn(), has: vi.fn(() => true) }))
vi.mock('../../session/passkey-support.ts', () => ({ browserHasPasskeys: browser.has }))
vi.mock('../../session/passkey-ceremonies.ts', async (actual) => ({
  ...(await actual<typeof import('../../session/passkey-ceremonies.ts')>()),
  createPasskey: browser.createPasskey,
}))

beforeEach(() => {
  browser.createPasskey.mockReset()
  browser.has.mockReturnValue(true)
})

const LIST = 'GET /api/users/passkeys'
const phone = {
  id: '0190a5b2-7c2e-7000-8000-000000000001',
  name: 'Phone',
  device_type: 'multiDevice',
  backed_up: true,
  created_at: '2026-11-02T10:00:00.000Z',
  last_used_at: '2026-11-20T10:00:00.000Z',
}
const laptop = { ...phone, id: '0190a5b2-7c2e-7000-8000-000000000002', name: 'Laptop', last_used_at: null }
const profile = { 'GET /api/users/profile': () => json(200, aliceProfile) }
const section = () => screen.findByRole('region', { name: PASSKEY_TEXTS.title })

test('the list shows each passkey with when it was added and last used', async () => {
  renderApp({
    route: '/profile',
    user: alice,
    api: { ...profile, [LIST]: () => json(200, { passkeys: [phone, laptop], has_password: true }) },
  })
  const passkeys = await section()
  const items = await within(passkeys).findAllByRole('listitem')
  expect(items[0]).toHaveTextContent('Phone')
  expect(items[0]).toHaveTextContent('Added 2 Nov 2026 · Last used 20 Nov 2026')
  expect(items[1]).toHaveTextContent(`Laptop${PASSKEY_TEXTS.created} 2 Nov 2026 · ${PASSKEY_TEXTS.neverUsed}`)
  expect(within(passkeys).getByRole('button', { name: PASSKEY_TEXTS.removePassword })).toBeInTheDocument()
})

test('adding one: the name is checked, the browser makes the passkey, the list shows it', async () => {
  const response = { id: 'AQ', rawId: 'AQ', type: 'public-key', response: {} }
  browser.createPasskey.mockResolvedValue(response)
  const app = renderApp({
    route: '/profile',
    user: alice,
    api: {
      ...profile,
      [LIST]: () => json(200, { passkeys: [], has_password: true }),
      'POST /api/users/passkeys/registration-options': () => json(200, { challenge: 'abc' }),
      'POST /api/users/passkeys': () => json(201, { ...laptop, name: 'Work laptop' }),
    },
  })
  const passkeys = await section()
  expect(await within(passkeys).findByText(PASSKEY_TEXTS.empty)).toBeInTheDocument()
  await app.user.click(within(passkeys).getByRole('button', { name: PASSKEY_TEXTS.add }))
  expect(within(passkeys).getByText(PASSKEY_MESSAGES.nameRequired)).toBeInTheDocument()
  expect(app.callsTo('POST /api/users/passkeys/registration-options')).toHaveLength(0)
  await app.user.type(within(passkeys).getByLabelText(PASSKEY_TEXTS.nameLabel), ' Work laptop ')
  await app.user.click(within(passkeys).getByRole('button', { name: PASSKEY_TEXTS.add }))
  expect(await within(passkeys).findByText(PASSKEY_TEXTS.added)).toBeInTheDocument()
  expect(browser.createPasskey).toHaveBeenCalledWith({ challenge: 'abc' })
  expect(app.callsTo('POST /api/users/passkeys')[0]?.body).toEqual({ name: 'Work laptop', response })
  expect(within(passkeys).getByRole('listitem')).toHaveTextContent('Work laptop')
})

test('a cancelled passkey dialog says so and adds nothing', async () => {
  browser.createPasskey.mockRejectedValue(
    Object.assign(new Error('The operation either timed out or was not allowed.'), { name: 'NotAllowedError' }),
  )
  const app = renderApp({
    route: '/profile',
    user: alice,
    api: {
      ...profile,
      [LIST]: () => json(200, { passkeys: [], has_password: true }),
      'POST /api/users/passkeys/registration-options': () => json(200, { challenge: 'abc' }),
    },
  })
  const passkeys = await section()
  await app.user.type(await within(passkeys).findByLabelText(PASSKEY_TEXTS.nameLabel), 'Phone')
  await app.user.click(within(passkeys).getByRole('button', { name: PASSKEY_TEXTS.add }))
  expect(await within(passkeys).findByText(PASSKEY_TEXTS.cancelled)).toBeInTheDocument()
  expect(app.callsTo('POST /api/users/passkeys')).toHaveLength(0)
})

test('rename saves the new name in place', async () => {
  const app = renderApp({
    route: '/profile',
    user: alice,
    api: {
      ...profile,
      [LIST]: () => json(200, { passkeys: [phone], has_password: true }),
      [`PATCH /api/users/passkeys/${phone.id}`]: () => json(200, { ...phone, name: 'Old phone' }),
    },
  })
  const passkeys = await section()
  await app.user.click(await within(passkeys).findByRole('button', { name: 'Rename Phone' }))
  const field = within(passkeys).getByLabelText(PASSKEY_TEXTS.renameLabel)
  await app.user.clear(field)
  await app.user.type(field, 'Old phone')
  await app.user.click(within(passkeys).getByRole('button', { name: PASSKEY_TEXTS.save }))
  expect(await within(passkeys).findByText(PASSKEY_TEXTS.renamed)).toBeInTheDocument()
  expect(app.callsTo(`PATCH /api/users/passkeys/${phone.id}`)[0]?.body).toEqual({ name: 'Old phone' })
  expect(within(passkeys).getByRole('listitem')).toHaveTextContent('Old phone')
})

test('remove asks first; the refusal of the last way to sign in is shown and the passkey stays', async () => {
  const app = renderApp({
    route: '/profile',
    user: alice,
    api: {
      ...profile,
      [LIST]: () => json(200, { passkeys: [phone, laptop], has_password: false }),
      [`DELETE /api/users/passkeys/${laptop.id}`]: () => json(200, { message: PASSKEY_MESSAGES.removed }),
      [`DELETE /api/users/passkeys/${phone.id}`]: () =>
        json(409, { code: 'CONFLICT', message: PASSKEY_MESSAGES.lastPasskey }),
    },
  })
  const passkeys = await section()
  await app.user.click(await within(passkeys).findByRole('button', { name: 'Remove Laptop' }))
  let dialog = screen.getByRole('dialog', { name: PASSKEY_TEXTS.removeTitle })
  await app.user.click(within(dialog).getByText('Cancel'))
  expect(app.callsTo(`DELETE /api/users/passkeys/${laptop.id}`)).toHaveLength(0)
  await app.user.click(within(passkeys).getByRole('button', { name: 'Remove Laptop' }))
  dialog = screen.getByRole('dialog', { name: PASSKEY_TEXTS.removeTitle })
  await app.user.click(within(dialog).getByRole('button', { name: PASSKEY_TEXTS.removeConfirm }))
  expect(await within(passkeys).findByText(PASSKEY_MESSAGES.removed)).toBeInTheDocument()
  expect(within(passkeys).getAllByRole('listitem')).toHaveLength(1)
  await app.user.click(within(passkeys).getByRole('button', { name: 'Remove Phone' }))
  dialog = screen.getByRole('dialog', { name: PASSKEY_TEXTS.removeTitle })
  await app.user.click(within(dialog).getByRole('button', { name: PASSKEY_TEXTS.removeConfirm }))
  expect(await within(passkeys).findByText(PASSKEY_MESSAGES.lastPasskey)).toBeInTheDocument()
  expect(within(passkeys).getByRole('listitem')).toHaveTextContent('Phone')
})

test('remove password asks for it; without a password the section offers a link by e-mail', async () => {
  const app = renderApp({
    route: '/profile',
    user: alice,
    api: {
      ...profile,
      [LIST]: () => json(200, { passkeys: [phone], has_password: true }),
      'POST /api/users/remove-password': [
        () => json(400, { code: 'INVALID_PASSWORD', message: 'Current password is incorrect' }),
        () => json(200, { message: PASSKEY_MESSAGES.passwordRemoved }),
      ],
      'POST /api/auth/forgot-password': () =>
        json(200, { message: 'If an account exists for that address, password reset instructions have been sent.' }),
    },
  })
  const passkeys = await section()
  await app.user.click(await within(passkeys).findByRole('button', { name: PASSKEY_TEXTS.removePassword }))
  const dialog = screen.getByRole('dialog', { name: PASSKEY_TEXTS.removePasswordTitle })
  await app.user.type(within(dialog).getByLabelText(PASSKEY_TEXTS.currentPassword), 'wrong')
  await app.user.click(within(dialog).getByRole('button', { name: PASSKEY_TEXTS.removePassword }))
  expect(await within(dialog).findByText('Current password is incorrect')).toBeInTheDocument()
  await app.user.click(within(dialog).getByRole('button', { name: PASSKEY_TEXTS.removePassword }))
  expect(await within(passkeys).findByText(PASSKEY_MESSAGES.passwordRemoved)).toBeInTheDocument()
  expect(app.callsTo('POST /api/users/remove-password')[1]?.body).toEqual({ currentPassword: 'wrong' })
  expect(within(passkeys).getByText(PASSKEY_TEXTS.noPassword)).toBeInTheDocument()
  await app.user.click(within(passkeys).getByRole('button', { name: PASSKEY_TEXTS.setPassword }))
  expect(await within(passkeys).findByText(/password reset instructions have been sent/)).toBeInTheDocument()
  expect(app.callsTo('POST /api/auth/forgot-password')[0]?.body).toEqual({ email: aliceProfile.email })
})
