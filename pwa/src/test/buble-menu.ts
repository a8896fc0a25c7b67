/** The buble page's title bar menu in the component tests: one place that knows where its actions live. */

import { screen, within } from '@testing-library/react'
import type { UserEvent } from '@testing-library/user-event'

/** Opens the overflow menu ("Buble actions"), waiting for the page. */
async function openMenu(user: UserEvent) {
  await user.click(await screen.findByRole('button', { name: 'Buble actions' }))
  return screen.getByRole('menu', { name: 'Buble actions' })
}

/** Chooses an action of the menu: Generate Invite, Rename, Leave Buble, Delete Buble… */
export async function chooseBubleAction(user: UserEvent, name: string) {
  await user.click(within(await openMenu(user)).getByRole('menuitem', { name }))
}

/** The names of the actions the menu offers, read by opening it (and closing it again). */
export async function bubleActions(user: UserEvent): Promise<string[]> {
  const names = within(await openMenu(user))
    .getAllByRole('menuitem')
    .map((item) => item.textContent ?? '')
  await user.keyboard('{Escape}')
  return names
}
