import type { User } from '@buble/shared/auth'
import { MUTED_INDEFINITELY } from '@buble/shared/mutes'
import { type BubleRole, type Permission, ROLE_DEFAULT_PERMISSIONS } from '@buble/shared/permissions'
import { screen, waitFor, within } from '@testing-library/react'
import { expect, test } from 'vitest'
import { bubleServer } from '../../test/buble-server.ts'
import { json } from '../../test/fake-fetch.ts'
import { alice, bob, bubleChange, makeBuble, makeMember, memberChange, ownedBy, person } from '../../test/fixtures.ts'
import { renderApp } from '../../test/render-app.tsx'

const someone = (name: string): User => ({
  ...alice,
  id: person(name).id,
  name,
  email: `${name.split(' ')[0]!.toLowerCase()}@example.com`,
})
const carol = someone('Carol Chen')
const dan = someone('Dan Dare')
const eve = someone('Eve Evans')

/** Book Club with Alice as `role`; Bob owns it unless Alice does; Eve an admin, Carol a moderator, Dan a member. */
function open(role: BubleRole, options: { permissions?: Permission[]; danMutedUntil?: string } = {}) {
  const permissions = options.permissions ?? [...ROLE_DEFAULT_PERMISSIONS[role]]
  const buble = makeBuble({
    name: 'Book Club',
    ...(role === 'owner' ? {} : { ...ownedBy(bob), my_role: role, my_permissions: permissions }),
  })
  const others: [User, BubleRole][] = [
    ...(role === 'owner' ? [] : ([[bob, 'owner']] as [User, BubleRole][])),
    [eve, 'admin'],
    [carol, 'moderator'],
  ]
  const danRow = makeMember(dan, 'member')
  const server = bubleServer([
    bubleChange(buble),
    memberChange(buble.id, { ...makeMember(alice, role), permissions }),
    ...others.map(([user, r]) => memberChange(buble.id, makeMember(user, r))),
    memberChange(buble.id, options.danMutedUntil ? { ...danRow, muted_until: options.danMutedUntil } : danRow),
  ])
  const app = renderApp({
    route: '/bubles/book-club/members',
    user: alice,
    server,
    api: { 'GET /api/users/profile': json(200, alice) },
  })
  return { ...app, buble }
}

const manageButtons = () =>
  screen.queryAllByRole('button', { name: /^Manage / }).map((b) => b.textContent?.replace('Manage ', ''))
async function manage(app: ReturnType<typeof open>, name: string) {
  // The members tab loads lazily: the first test of the file waits for its code too.
  await app.user.click(await screen.findByRole('button', { name: `Manage ${name}` }))
  return screen.getByRole('dialog', { name: 'Manage Member' })
}
const muteSection = (dialog: HTMLElement) => within(dialog).queryByRole('region', { name: 'Mute' })
const pushed = (app: ReturnType<typeof open>) =>
  app.device.pushes.flatMap((push) => push.mutations).map(({ name, args }) => ({ name, args }))

test('the owner mutes a member for a day: the choices, the queued mutation, the row says until when at once', async () => {
  const app = open('owner')
  const dialog = await manage(app, 'Dan Dare')
  const section = muteSection(dialog)!
  const select = within(section).getByRole('combobox', { name: 'Mute for' })
  expect(
    within(select)
      .getAllByRole('option')
      .map((o) => o.textContent),
  ).toEqual(['1 hour', '1 day', '1 week', 'Until unmuted'])
  await app.user.selectOptions(select, '1d')
  await app.user.click(within(section).getByRole('button', { name: 'Mute' }))
  expect(await within(section).findByText('Member muted')).toBeInTheDocument()
  await waitFor(() =>
    expect(pushed(app)).toContainEqual({
      name: 'member.mute',
      args: { buble_id: app.buble.id, user_id: dan.id, duration: '1d' },
    }),
  )
  // The device's row changed with it: the modal now offers Unmute, the list says until when.
  expect(await within(section).findByText(/^Muted until \w{3} \d+ \w{3}(?: \d{4})?, \d\d:\d\d CES?T$/)).toBeVisible()
  expect(within(section).getByRole('button', { name: 'Unmute' })).toBeEnabled()
  const list = screen.getByRole('region', { name: 'Members' })
  expect(within(list).getByText(/^Muted until /)).toBeInTheDocument()
})

test('a muted member: "Muted until unmuted" and Unmute, which queues member.unmute', async () => {
  const app = open('owner', { danMutedUntil: MUTED_INDEFINITELY })
  const dialog = await manage(app, 'Dan Dare')
  const section = muteSection(dialog)!
  expect(within(section).getByText('Muted until unmuted')).toBeInTheDocument()
  await app.user.click(within(section).getByRole('button', { name: 'Unmute' }))
  expect(await within(section).findByText('Member unmuted')).toBeInTheDocument()
  await waitFor(() =>
    expect(pushed(app)).toContainEqual({ name: 'member.unmute', args: { buble_id: app.buble.id, user_id: dan.id } }),
  )
  expect(await within(section).findByRole('button', { name: 'Mute' })).toBeInTheDocument()
})

test.each([
  ['the owner', 'owner', undefined, ['Eve Evans', 'Carol Chen', 'Dan Dare'], ['Eve Evans', 'Carol Chen', 'Dan Dare']],
  ['an admin', 'admin', undefined, ['Eve Evans', 'Carol Chen', 'Dan Dare'], ['Eve Evans', 'Carol Chen', 'Dan Dare']],
  ['a moderator', 'moderator', undefined, ['Dan Dare'], ['Dan Dare']],
  // moderate_content alone is reason enough to open a member: to mute them.
  ['a moderator holding only moderate_content', 'moderator', ['moderate_content'], ['Dan Dare'], ['Dan Dare']],
  ['a moderator without moderate_content', 'moderator', ['remove_members'], ['Dan Dare'], []],
  ['a member', 'member', undefined, [], []],
] as const)('%s: Mute offered for exactly whom canMute allows', async (_, role, permissions, opened, offered) => {
  const app = open(role, permissions ? { permissions: [...permissions] } : {})
  const members = await screen.findByRole('region', { name: 'Members' })
  await waitFor(() => expect(within(members).getAllByRole('listitem').length).toBeGreaterThanOrEqual(4))
  if (opened.length > 0) await screen.findByRole('button', { name: 'Manage Dan Dare' })
  expect(manageButtons().filter((name) => name !== 'Bob Builder')).toEqual(opened)
  const withMute: string[] = []
  for (const name of opened) {
    const dialog = await manage(app, name)
    if (muteSection(dialog)) withMute.push(name)
    await app.user.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  }
  expect(withMute).toEqual(offered)
})
