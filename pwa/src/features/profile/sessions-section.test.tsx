import { screen, within } from '@testing-library/react'
import { afterEach, expect, test, vi } from 'vitest'
import { json } from '../../test/fake-fetch.ts'
import { alice, aliceCalendar, aliceProfile, aliceSessions } from '../../test/fixtures.ts'
import { renderApp } from '../../test/render-app.tsx'
import { SESSIONS_TEXTS as T } from './sessions-texts.ts'

const LIST = 'GET /api/users/sessions'
const [thisOne, phone] = aliceSessions as [(typeof aliceSessions)[0], (typeof aliceSessions)[0]]
const laptop = {
  ...phone,
  id: '0190a5b2-0000-7000-8000-0000000000a3',
  device: 'macOS',
  browser: 'Firefox',
  place: null,
}
const profile = {
  'GET /api/users/profile': json(200, aliceProfile),
  'GET /api/users/calendar': () => json(200, aliceCalendar),
}
const section = () => screen.findByRole('region', { name: T.title })

afterEach(() => vi.restoreAllMocks())

test('each session shows its device and browser, its place if known and its last use; this device is marked', async () => {
  renderApp({ route: '/profile', user: alice, api: { ...profile, [LIST]: () => json(200, [thisOne, phone]) } })
  const devices = await section()
  const items = await within(devices).findAllByRole('listitem')
  expect(items).toHaveLength(2)
  expect(items[0]).toHaveTextContent('Chrome on Windows')
  expect(within(items[0]!).getByText(T.thisDevice)).toBeInTheDocument()
  expect(within(items[0]!).getByText(T.activeNow)).toBeInTheDocument()
  // This device is signed out with the profile's own Sign Out, not from the list.
  expect(within(items[0]!).queryByRole('button')).toBeNull()
  expect(items[1]).toHaveTextContent('Safari on iPhone')
  expect(items[1]).toHaveTextContent('Stockholm, SE')
  expect(items[1]).toHaveTextContent(`${T.lastUsed} 3h ago`)
  expect(within(items[1]!).queryByText(T.thisDevice)).toBeNull()
  expect(within(items[1]!).getByRole('button', { name: `${T.signOut}: Safari on iPhone` })).toBeInTheDocument()
})

test('Sign out asks first: Cancel keeps the device, Sign out ends it and takes it off the list', async () => {
  const app = renderApp({
    route: '/profile',
    user: alice,
    api: {
      ...profile,
      [LIST]: () => json(200, [thisOne, phone, laptop]),
      [`DELETE /api/users/sessions/${phone.id}`]: () => json(200, { message: 'Signed out', ended: 1 }),
    },
  })
  const devices = await section()
  const button = await within(devices).findByRole('button', { name: `${T.signOut}: Safari on iPhone` })
  await app.user.click(button)
  const dialog = screen.getByRole('dialog', { name: T.signOutTitle })
  expect(dialog).toHaveTextContent(T.signOutBody('Safari on iPhone'))
  await app.user.click(within(dialog).getByText('Cancel'))
  expect(app.callsTo(`DELETE /api/users/sessions/${phone.id}`)).toHaveLength(0)
  await app.user.click(button)
  await app.user.click(
    within(screen.getByRole('dialog', { name: T.signOutTitle })).getByRole('button', { name: T.signOut }),
  )
  expect(await within(devices).findByText(T.signedOut('Safari on iPhone'))).toBeInTheDocument()
  expect(app.callsTo(`DELETE /api/users/sessions/${phone.id}`)).toHaveLength(1)
  expect(within(devices).queryByText('Safari on iPhone')).toBeNull()
  expect(within(devices).getByText('Firefox on macOS')).toBeInTheDocument()
})

test('a failed sign-out says so in the dialog and keeps the device listed', async () => {
  vi.spyOn(console, 'error').mockImplementation(() => {})
  const app = renderApp({
    route: '/profile',
    user: alice,
    api: {
      ...profile,
      [LIST]: () => json(200, [thisOne, phone]),
      [`DELETE /api/users/sessions/${phone.id}`]: new TypeError('offline'),
    },
  })
  const devices = await section()
  await app.user.click(await within(devices).findByRole('button', { name: `${T.signOut}: Safari on iPhone` }))
  const dialog = screen.getByRole('dialog', { name: T.signOutTitle })
  await app.user.click(within(dialog).getByRole('button', { name: T.signOut }))
  expect(await within(dialog).findByText(T.signOutFailed)).toBeInTheDocument()
  expect(within(devices).getByText('Safari on iPhone')).toBeInTheDocument()
})

test('a device signed out meanwhile (404) is taken off the list as if just signed out', async () => {
  const app = renderApp({
    route: '/profile',
    user: alice,
    api: {
      ...profile,
      [LIST]: () => json(200, [thisOne, phone]),
      [`DELETE /api/users/sessions/${phone.id}`]: () => json(404, { message: 'Session not found', code: 'NOT_FOUND' }),
    },
  })
  const devices = await section()
  await app.user.click(await within(devices).findByRole('button', { name: `${T.signOut}: Safari on iPhone` }))
  const dialog = screen.getByRole('dialog', { name: T.signOutTitle })
  await app.user.click(within(dialog).getByRole('button', { name: T.signOut }))
  expect(await within(devices).findByText(T.signedOut('Safari on iPhone'))).toBeInTheDocument()
  expect(within(devices).queryByText('Safari on iPhone')).toBeNull()
})

test('Sign out everywhere else leaves this device alone in the list', async () => {
  const app = renderApp({
    route: '/profile',
    user: alice,
    api: {
      ...profile,
      [LIST]: () => json(200, [thisOne, phone, laptop]),
      'POST /api/users/sessions/end-others': () => json(200, { message: 'Signed out everywhere else', ended: 2 }),
    },
  })
  const devices = await section()
  await app.user.click(await within(devices).findByRole('button', { name: T.signOutOthers }))
  const dialog = screen.getByRole('dialog', { name: T.signOutOthersTitle })
  await app.user.click(within(dialog).getByRole('button', { name: T.signOutOthers }))
  expect(await within(devices).findByText(T.signedOutOthers)).toBeInTheDocument()
  expect(app.callsTo('POST /api/users/sessions/end-others')).toHaveLength(1)
  expect(within(devices).getAllByRole('listitem')).toHaveLength(1)
  expect(within(devices).getByText(T.noOthers)).toBeInTheDocument()
  expect(within(devices).queryByRole('button', { name: T.signOutOthers })).toBeNull()
})

test('a load failure shows the reason and Try Again loads the list', async () => {
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  const down = () => json(500, { message: 'Database down', code: 'INTERNAL_ERROR' })
  const app = renderApp({
    route: '/profile',
    user: alice,
    api: { ...profile, [LIST]: [down, down, () => json(200, [thisOne])] },
  })
  const devices = await section()
  expect(await within(devices).findByText('Database down')).toBeInTheDocument()
  await app.user.click(within(devices).getByRole('button', { name: T.tryAgain }))
  expect(await within(devices).findByText(T.noOthers)).toBeInTheDocument()
  expect(within(devices).getByText(T.thisDevice)).toBeInTheDocument()
})

test('offline, the section says the list needs a connection and asks for nothing', async () => {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false)
  const app = renderApp({ route: '/profile', user: alice, api: { ...profile, [LIST]: () => json(200, [thisOne]) } })
  const devices = await section()
  expect(await within(devices).findByText(T.offline)).toBeInTheDocument()
  expect(app.callsTo(LIST)).toHaveLength(0)
})
