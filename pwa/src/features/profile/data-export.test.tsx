import { screen, within } from '@testing-library/react'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { deferred } from '../../test/deferred.ts'
import { json } from '../../test/fake-fetch.ts'
import { alice, aliceProfile } from '../../test/fixtures.ts'
import { renderApp } from '../../test/render-app.tsx'
import { DATA_EXPORT_TEXTS, fileNameOf } from './data-export.tsx'

const PROFILE = 'GET /api/users/profile'
const EXPORT = 'GET /api/users/me/export'
const ZIP_BYTES = new Uint8Array([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)])

const zipAnswer = () =>
  new Response(ZIP_BYTES, {
    status: 200,
    headers: {
      'Content-Type': 'application/zip',
      'Content-Disposition': 'attachment; filename="buble-data-2026-11-25.zip"',
    },
  })

let saved: { blob: Blob; name: string; href: string }[]
let blobs: Blob[]

beforeEach(() => {
  saved = []
  blobs = []
  // jsdom has no object URLs and does not download: record what would have been saved.
  URL.createObjectURL = vi.fn((blob: Blob) => {
    blobs.push(blob)
    return `blob:buble/${blobs.length}`
  })
  URL.revokeObjectURL = vi.fn()
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ blob: blobs[blobs.length - 1]!, name: this.download, href: this.getAttribute('href') ?? '' })
  })
})

afterEach(() => {
  Reflect.deleteProperty(URL, 'createObjectURL')
  Reflect.deleteProperty(URL, 'revokeObjectURL')
})

const section = () => screen.getByRole('region', { name: 'Download my data' })

test('the button fetches the ZIP with the bearer token and saves it under the server’s file name', async () => {
  const answer = deferred<Response>()
  const app = renderApp({
    route: '/profile',
    user: alice,
    api: { [PROFILE]: json(200, aliceProfile), [EXPORT]: () => answer.promise },
  })
  await screen.findByRole('region', { name: 'Download my data' })
  expect(within(section()).getByText(DATA_EXPORT_TEXTS.explanation)).toBeInTheDocument()
  // By keyboard: Tab to the button, Enter to start.
  const button = within(section()).getByRole('button', { name: 'Download my data' })
  button.focus()
  await app.user.keyboard('{Enter}')
  expect(await within(section()).findByText('Preparing your data…')).toBeInTheDocument()
  expect(button).toBeDisabled()
  answer.resolve(zipAnswer())
  expect(await within(section()).findByText(DATA_EXPORT_TEXTS.done)).toBeInTheDocument()
  expect(button).toBeEnabled()
  expect(app.callsTo(EXPORT)).toHaveLength(1)
  expect(app.callsTo(EXPORT)[0]?.headers.Authorization).toBe('Bearer token-1')
  expect(saved).toHaveLength(1)
  expect(saved[0]?.name).toBe('buble-data-2026-11-25.zip')
  expect(saved[0]?.href).toBe('blob:buble/1')
  expect(new Uint8Array(await saved[0]!.blob.arrayBuffer())).toEqual(ZIP_BYTES)
  expect(document.querySelector('a[download]')).toBeNull()
})

test('a refused download shows the server message, and a network failure the fallback text', async () => {
  const app = renderApp({
    route: '/profile',
    user: alice,
    api: {
      [PROFILE]: json(200, aliceProfile),
      [EXPORT]: [
        json(429, { message: 'Too many requests. Please try again later.', code: 'RATE_LIMITED' }),
        new TypeError('Failed to fetch'),
      ],
    },
  })
  await screen.findByRole('region', { name: 'Download my data' })
  const button = within(section()).getByRole('button', { name: 'Download my data' })
  await app.user.click(button)
  expect(await within(section()).findByRole('alert')).toHaveTextContent('Too many requests. Please try again later.')
  await app.user.click(button)
  expect(await within(section()).findByRole('alert')).toHaveTextContent(/^Failed to download your data$/)
  expect(saved).toEqual([])
})

test('offline, the button is disabled and says why', async () => {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false)
  const app = renderApp({ route: '/profile', user: alice, api: { [PROFILE]: json(200, aliceProfile) } })
  await screen.findByRole('region', { name: 'Download my data' })
  const button = within(section()).getByRole('button', { name: 'Download my data' })
  expect(button).toBeDisabled()
  expect(button).toHaveAccessibleDescription(DATA_EXPORT_TEXTS.offline)
  await app.user.click(button)
  expect(app.callsTo(EXPORT)).toHaveLength(0)
})

test('the Delete Account dialog offers the download first, before the destructive confirm', async () => {
  const app = renderApp({
    route: '/profile',
    user: alice,
    api: { [PROFILE]: json(200, aliceProfile), [EXPORT]: zipAnswer() },
  })
  await app.user.click(await screen.findByRole('button', { name: 'Delete Account' }))
  const dialog = screen.getByRole('dialog', { name: 'Delete Account' })
  const download = within(dialog).getByRole('button', { name: 'Download my data' })
  const buttons = within(dialog).getAllByRole('button')
  expect(buttons.indexOf(download)).toBeLessThan(buttons.findIndex((b) => b.textContent === 'Delete Account'))
  expect(download).toHaveFocus()
  await app.user.keyboard('{Enter}')
  expect(await within(dialog).findByText(DATA_EXPORT_TEXTS.done)).toBeInTheDocument()
  expect(saved.map((file) => file.name)).toEqual(['buble-data-2026-11-25.zip'])
  expect(app.callsTo('POST /api/users/request-deletion')).toHaveLength(0)
  expect(screen.getByRole('dialog', { name: 'Delete Account' })).toBeInTheDocument()
})

test('the file name comes from Content-Disposition, else is made from the date', () => {
  expect(fileNameOf('attachment; filename="buble-data-2026-01-02.zip"')).toBe('buble-data-2026-01-02.zip')
  expect(fileNameOf(null, new Date('2026-03-04T23:59:00Z'))).toBe('buble-data-2026-03-04.zip')
})
