import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { expect, test, vi } from 'vitest'
import { MenuButton, type MenuItem } from './menu-button.tsx'

function renderMenu(items: MenuItem[]) {
  const user = userEvent.setup()
  render(
    <>
      <MenuButton label="Things" items={items} />
      <button type="button">Elsewhere</button>
    </>,
  )
  return { user, button: screen.getByRole('button', { name: 'Things' }) }
}

const item = (key: string, extra: Partial<MenuItem> = {}): MenuItem => ({
  key,
  label: key,
  onSelect: vi.fn(),
  ...extra,
})

test('Home and End move to the ends, a disabled item is skipped and does nothing, Tab closes without acting', async () => {
  const items = [item('One'), item('Two', { disabled: true }), item('Three'), item('Four', { danger: true })]
  const { user, button } = renderMenu(items)
  button.focus()
  await user.keyboard('{Enter}')
  expect(screen.getByRole('menuitem', { name: 'One' })).toHaveFocus()
  await user.keyboard('{ArrowDown}')
  expect(screen.getByRole('menuitem', { name: 'Three' })).toHaveFocus()
  await user.keyboard('{End}')
  expect(screen.getByRole('menuitem', { name: 'Four' })).toHaveFocus()
  await user.keyboard('{Home}')
  expect(screen.getByRole('menuitem', { name: 'One' })).toHaveFocus()
  expect(screen.getByRole('menuitem', { name: 'Two' })).toHaveAttribute('aria-disabled', 'true')
  await user.click(screen.getByRole('menuitem', { name: 'Two' }))
  expect(items[1]?.onSelect).not.toHaveBeenCalled()
  expect(screen.getByRole('menu')).toBeInTheDocument()
  await user.keyboard('{Tab}')
  expect(screen.queryByRole('menu')).toBeNull()
  expect(items.every((one) => vi.mocked(one.onSelect).mock.calls.length === 0)).toBe(true)
})

test('a click chooses an item: the menu closes, the focus is back on the button, and the item acts once', async () => {
  const items = [item('One'), item('Two')]
  const { user, button } = renderMenu(items)
  await user.click(button)
  expect(button).toHaveAttribute('aria-expanded', 'true')
  expect(button).toHaveAttribute('aria-controls', screen.getByRole('menu').id)
  await user.click(screen.getByRole('menuitem', { name: 'Two' }))
  expect(items[1]?.onSelect).toHaveBeenCalledTimes(1)
  expect(screen.queryByRole('menu')).toBeNull()
  expect(button).toHaveFocus()
  expect(button).toHaveAttribute('aria-expanded', 'false')
})

test('a click elsewhere closes it; a second click on the button too', async () => {
  const { user, button } = renderMenu([item('One')])
  await user.click(button)
  await user.click(screen.getByRole('button', { name: 'Elsewhere' }))
  expect(screen.queryByRole('menu')).toBeNull()
  await user.click(button)
  expect(screen.getByRole('menu')).toBeInTheDocument()
  await user.click(button)
  expect(screen.queryByRole('menu')).toBeNull()
})

test('with nothing to offer there is no button at all', () => {
  render(<MenuButton label="Things" items={[]} />)
  expect(screen.queryByRole('button')).toBeNull()
})
