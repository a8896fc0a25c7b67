import { screen, within } from '@testing-library/react'
import { expect, test, vi } from 'vitest'
import { json } from '../../test/fake-fetch.ts'
import { alice, aliceProfile } from '../../test/fixtures.ts'
import { renderApp } from '../../test/render-app.tsx'
import { CALENDAR_TEXTS } from './calendar-texts.ts'

const SETTINGS = 'GET /api/users/calendar'
const settings = (reminder: string, secret = 'a'.repeat(43)) => ({
  reminder,
  feed_url: `webcal://buble.test/api/calendar/${secret}.ics`,
  feed_http_url: `http://buble.test/api/calendar/${secret}.ics`,
})
const profile = { 'GET /api/users/profile': () => json(200, aliceProfile) }

const section = () => screen.findByRole('region', { name: CALENDAR_TEXTS.title })

test('the reminder choice is saved at once; a failed save says so and keeps the saved choice', async () => {
  const app = renderApp({
    route: '/profile',
    user: alice,
    api: {
      ...profile,
      [SETTINGS]: () => json(200, settings('1h')),
      'PUT /api/users/calendar': [() => json(200, settings('1d')), new TypeError('offline')],
    },
  })
  const calendar = await section()
  const reminder = await within(calendar).findByLabelText(CALENDAR_TEXTS.reminderLabel)
  expect(reminder).toHaveValue('1h')
  await app.user.selectOptions(reminder, '1 day before')
  expect(await within(calendar).findByText(CALENDAR_TEXTS.reminderSaved)).toBeInTheDocument()
  expect(app.callsTo('PUT /api/users/calendar')[0]?.body).toEqual({ reminder: '1d' })
  expect(reminder).toHaveValue('1d')
  await app.user.selectOptions(reminder, 'Never')
  expect(await within(calendar).findByText(CALENDAR_TEXTS.reminderFailed)).toBeInTheDocument()
  expect(reminder).toHaveValue('1d')
})

test('Reset asks first: Cancel keeps the link, Reset link shows the new one', async () => {
  const app = renderApp({
    route: '/profile',
    user: alice,
    api: {
      ...profile,
      [SETTINGS]: () => json(200, settings('1h')),
      'POST /api/users/calendar/reset-feed': () => json(200, settings('1h', 'b'.repeat(43))),
    },
  })
  const calendar = await section()
  const link = await within(calendar).findByLabelText(CALENDAR_TEXTS.feedLabel)
  expect(link).toHaveValue(settings('1h').feed_url)
  await app.user.click(within(calendar).getByRole('button', { name: CALENDAR_TEXTS.reset }))
  await app.user.click(within(screen.getByRole('dialog', { name: CALENDAR_TEXTS.resetTitle })).getByText('Cancel'))
  expect(app.callsTo('POST /api/users/calendar/reset-feed')).toHaveLength(0)
  expect(link).toHaveValue(settings('1h').feed_url)
  await app.user.click(within(calendar).getByRole('button', { name: CALENDAR_TEXTS.reset }))
  const dialog = screen.getByRole('dialog', { name: CALENDAR_TEXTS.resetTitle })
  await app.user.click(within(dialog).getByRole('button', { name: CALENDAR_TEXTS.resetConfirm }))
  expect(await within(calendar).findByText(CALENDAR_TEXTS.resetDone)).toBeInTheDocument()
  expect(link).toHaveValue(settings('1h', 'b'.repeat(43)).feed_url)
  expect(within(calendar).getByRole('link', { name: CALENDAR_TEXTS.subscribe })).toHaveAttribute(
    'href',
    settings('1h', 'b'.repeat(43)).feed_url,
  )
})

test('a load failure shows the reason and Try Again loads the settings', async () => {
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  const down = () => json(500, { message: 'Database down', code: 'INTERNAL_ERROR' })
  const app = renderApp({
    route: '/profile',
    user: alice,
    api: { ...profile, [SETTINGS]: [down, down, () => json(200, settings('none'))] },
  })
  const calendar = await section()
  expect(await within(calendar).findByText('Database down')).toBeInTheDocument()
  await app.user.click(within(calendar).getByRole('button', { name: CALENDAR_TEXTS.tryAgain }))
  expect(await within(calendar).findByLabelText(CALENDAR_TEXTS.reminderLabel)).toHaveValue('none')
})

test('offline, the section says the settings need a connection and asks for nothing', async () => {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false)
  const app = renderApp({
    route: '/profile',
    user: alice,
    api: { ...profile, [SETTINGS]: () => json(200, settings('1h')) },
  })
  const calendar = await section()
  expect(await within(calendar).findByText(CALENDAR_TEXTS.offline)).toBeInTheDocument()
  expect(within(calendar).queryByLabelText(CALENDAR_TEXTS.feedLabel)).toBeNull()
  expect(app.callsTo(SETTINGS)).toHaveLength(0)
})
