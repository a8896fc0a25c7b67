import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { expect, test, vi } from 'vitest'
import { createApiClient } from '../../session/api-client.ts'
import { createSession } from '../../session/session.ts'
import { SessionProvider } from '../../session/session-context.tsx'
import { fakeFetch, json, type Reply } from '../../test/fake-fetch.ts'
import { alice } from '../../test/fixtures.ts'
import { MuteToggle } from './mute-toggle.tsx'

const BUBLE = '0190a8f0-0000-7000-8000-000000000001'

function renderToggle(api: Record<string, Reply | Reply[]>, supported = true) {
  const rest = fakeFetch(api)
  const session = createSession({ storage: localStorage, fetch: rest.fetch })
  session.signIn({ access_token: 'token-1', user: alice })
  const redirectToLogin = vi.fn()
  const client = createApiClient({ session, fetch: rest.fetch, redirectToLogin })
  render(
    <SessionProvider services={{ session, api: client, redirectToLogin }}>
      <MuteToggle bubleId={BUBLE} supported={supported} />
    </SessionProvider>,
  )
  return rest
}

test('shows the buble muted as the server says, and unmutes it', async () => {
  const rest = renderToggle({
    'GET /api/push/preferences': json(200, { enabled: true, muted: [BUBLE] }),
    [`PUT /api/push/mutes/${BUBLE}`]: json(200, { buble_id: BUBLE, muted: false }),
  })
  const button = await screen.findByRole('button', { name: 'Unmute notifications' })
  expect(button).toHaveAttribute('aria-pressed', 'true')
  await userEvent.click(button)
  await waitFor(() =>
    expect(screen.getByRole('button', { name: 'Mute notifications' })).toHaveAttribute('aria-pressed', 'false'),
  )
  expect(rest.callsTo(`PUT /api/push/mutes/${BUBLE}`).map((c) => c.body)).toEqual([{ muted: false }])
})

test('mutes an unmuted buble', async () => {
  const rest = renderToggle({
    'GET /api/push/preferences': json(200, { enabled: true, muted: [] }),
    [`PUT /api/push/mutes/${BUBLE}`]: json(200, { buble_id: BUBLE, muted: true }),
  })
  await userEvent.click(await screen.findByRole('button', { name: 'Mute notifications' }))
  expect(await screen.findByRole('button', { name: 'Unmute notifications' })).toBeInTheDocument()
  expect(rest.callsTo(`PUT /api/push/mutes/${BUBLE}`).map((c) => c.body)).toEqual([{ muted: true }])
})

test('without Web Push in the browser there is no toggle and no call', () => {
  const rest = renderToggle({}, false)
  expect(screen.queryByRole('button')).not.toBeInTheDocument()
  expect(rest.calls).toEqual([])
})
