import { render, screen } from '@testing-library/react'
import { MemoryRouter } from 'react-router-dom'
import { expect, test } from 'vitest'
import { TabCount } from '../../ui/tab-count.tsx'
import { BubleTabs } from './buble-tabs.tsx'

test('a tab count shows nothing at zero', () => {
  const { container } = render(<TabCount count={0} />)
  expect(container).toBeEmptyDOMElement()
})

test.each([
  [3, '3', '3 unread'],
  [99, '99', '99 unread'],
  // The server stops counting at 100 (UNREAD_CAP), so the number itself would say too much.
  [100, '99+', '99+ unread'],
])('a tab count of %i shows "%s" and is read as "%s"', (count, shown, spoken) => {
  render(<TabCount count={count} />)
  expect(screen.getByText(shown)).toHaveAttribute('aria-hidden', 'true')
  expect(screen.getByText(spoken)).toHaveClass('visually-hidden')
})

test('counts appear on the tabs that have unread content, never on the overview', () => {
  render(
    <MemoryRouter>
      <BubleTabs buble={{ id: 'b1', slug: 'book-club' }} current="overview" counts={{ wall: 3, polls: 0 }} />
    </MemoryRouter>,
  )
  expect(screen.getByRole('link', { name: 'Wall 3 unread' })).toHaveAttribute('href', '/bubles/book-club/wall')
  expect(screen.getByRole('link', { name: 'Polls' })).toBeInTheDocument()
  expect(screen.getByRole('link', { name: 'Overview' })).toHaveAttribute('aria-current', 'page')
})
