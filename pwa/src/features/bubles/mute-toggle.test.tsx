import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { expect, test, vi } from 'vitest'
import { createApiClient } from '../../session/api-client.ts'
import { createSession } from '../../session/session.ts'
import { SessionProvider } from '../../session/session-context.tsx'
import { fakeFetch, json, type Reply } from '../../test/fake-fetch.ts'
import { alice } from '../../test/fixtures.ts'
import { useMute } from './mute-toggle.tsx'

const BUBLE = '0190a8f0-0000-7000-8000-000000000001'

/** The hook as the buble menu uses it: one control whose words say what it does. */
function MuteControl({ supported }: { supported: boolean }) {
  const mute = useMute(BUBLE, supported)
  if (!mute) return null
  return (
    <button type="button" aria-pressed={mute.muted} disabled={mute.busy} onClick={() => void mute.toggle()}>
      {mute.label}
    </button>
  )
}

function renderToggle(api: Record<string, Reply | Reply[]>, supported = true) {
  const rest = fakeFetch(api)
  const session = createSession({ storage: localStorage, fetch: rest.fetch })
  session.signIn({ access_token: 'token-1', user: alice })
  const redirectToLogin = vi.fn()
  const client = createApiClient({ session, fetch: rest.fetch, redirectToLogin })
  render(
    <SessionProvider services={{ session, api: client, redirectToLogin }}>
      <MuteControl supported={supported} />
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
