import { screen } from '@testing-library/react'
import { expect, test } from 'vitest'
import { alice } from '../../test/fixtures.ts'
import { renderApp } from '../../test/render-app.tsx'

test('the privacy page states the minimum age of 13 and removal within 30 days of account deletion', () => {
  renderApp({ route: '/privacy' })
  expect(screen.getByRole('heading', { name: 'Privacy policy', level: 1 })).toBeInTheDocument()
  expect(screen.getByText('You must be at least 13 years old to create an account.')).toBeInTheDocument()
  expect(screen.getByText(/is removed within 30 days of the deletion/)).toBeInTheDocument()
})

test('it says what is kept where, that there are no trackers, and which outside services are contacted', () => {
  renderApp({ route: '/privacy' })
  for (const heading of [
    'What Buble keeps on its server',
    'What stays on your device',
    'No trackers',
    'Services Buble contacts',
    'Deleting your account',
  ]) {
    expect(screen.getByRole('heading', { name: heading })).toBeInTheDocument()
  }
  for (const kept of ['Stories:', 'Donation pledges:', 'Admin audit log:', 'Push subscriptions:', 'Read marks:']) {
    expect(screen.getByText(kept)).toBeInTheDocument()
  }
  expect(screen.getByText(/A story lives 24 hours/)).toBeInTheDocument()
  expect(screen.getByText('DATA_DIR')).toBeInTheDocument()
  expect(screen.getByText(/IndexedDB/)).toBeInTheDocument()
  for (const service of ['Open-Meteo', 'Ticketmaster', "Your browser's push service", 'Linked websites:']) {
    expect(screen.getByText(service)).toBeInTheDocument()
  }
  expect(screen.getByText('Download my data')).toBeInTheDocument()
})

test('signed out it offers sign-in; signed in it leads back to the bubles and the profile; both link to Donate', () => {
  const { unmount } = renderApp({ route: '/privacy' })
  expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login')
  expect(screen.getByRole('link', { name: 'Donate' })).toHaveAttribute('href', '/donate')
  unmount()
  renderApp({ route: '/privacy', user: alice })
  expect(screen.getByRole('link', { name: 'Back to your bubles' })).toHaveAttribute('href', '/dashboard')
  expect(screen.getByRole('link', { name: 'profile' })).toHaveAttribute('href', '/profile')
  expect(screen.getByRole('link', { name: 'Donate' })).toHaveAttribute('href', '/donate')
})
