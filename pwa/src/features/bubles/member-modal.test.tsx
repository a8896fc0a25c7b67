import type { User } from '@buble/shared/auth'
import type { Buble } from '@buble/shared/bubles'
import { type BubleRole, type Permission, ROLE_DEFAULT_PERMISSIONS } from '@buble/shared/permissions'
import { act, screen, waitFor, within } from '@testing-library/react'
import { expect, test, vi } from 'vitest'
import { bubleServer } from '../../test/buble-server.ts'
import { json, type Reply } from '../../test/fake-fetch.ts'
import { alice, bob, bubleChange, makeBuble, makeMember, memberChange, ownedBy, person } from '../../test/fixtures.ts'
import { renderApp } from '../../test/render-app.tsx'

const PROFILE = 'GET /api/users/profile'
const someone = (name: string): User => ({
  ...alice,
  id: person(name).id,
  name,
  email: `${name.split(' ')[0]!.toLowerCase()}@example.com`,
})
const carol = someone('Carol Chen')
const dan = someone('Dan Dare')
const eve = someone('Eve Evans')

const ALL_LABELS = [
  'Manage Buble',
  'Delete Buble',
  'Manage members',
  'Invite members',
  'Remove members',
  'Change roles',
  'Manage events',
  'Manage polls',
  'Create events',
  'Create polls',
  'Moderate content',
  "Delete others' content",
  'Pin posts',
]

type Server = ReturnType<typeof bubleServer>
type Routes = (buble: Buble, server: Server) => Record<string, Reply | Reply[]>

/** Book Club with Alice in `role`; the others fill the rest of the ladder. */
function open(role: BubleRole, options: { permissions?: Permission[]; api?: Routes } = {}) {
  const permissions = options.permissions ?? [...ROLE_DEFAULT_PERMISSIONS[role]]
  const buble = makeBuble({
    name: 'Book Club',
    ...(role === 'owner' ? {} : { ...ownedBy(bob), my_role: role, my_permissions: permissions }),
  })
  const others: [User, BubleRole][] =
    role === 'owner'
      ? [
          [bob, 'admin'],
          [carol, 'moderator'],
          [dan, 'member'],
        ]
      : [
          [bob, 'owner'],
          [eve, 'admin'],
          [carol, 'moderator'],
          [dan, 'member'],
        ]
  const server = bubleServer([
    bubleChange(buble),
    memberChange(buble.id, { ...makeMember(alice, role, '2026-11-20T10:00:00.000Z'), permissions }),
    ...others.map(([user, r]) => memberChange(buble.id, makeMember(user, r, '2026-11-23T10:00:00.000Z'))),
  ])
  const app = renderApp({
    route: '/bubles/book-club/members',
    user: alice,
    server,
    api: { [PROFILE]: json(200, alice), ...options.api?.(buble, server) },
    advanceTimers: vi.isFakeTimers() ? vi.advanceTimersByTime : undefined,
  })
  return { ...app, server, buble }
}

const manageButtons = () =>
  screen.queryAllByRole('button', { name: /^Manage / }).map((button) => button.textContent?.replace('Manage ', ''))

async function manage(app: ReturnType<typeof open>, name: string) {
  await app.user.click(await screen.findByRole('button', { name: `Manage ${name}` }))
  return screen.getByRole('dialog', { name: 'Manage Member' })
}

const checkboxes = (dialog: HTMLElement) =>
  within(dialog)
    .getAllByRole('checkbox')
    .map((box) => ({
      label: (box as HTMLInputElement).labels?.[0]?.textContent,
      checked: (box as HTMLInputElement).checked,
      enabled: !(box as HTMLInputElement).disabled,
    }))

const roleOptions = (dialog: HTMLElement) =>
  within(within(dialog).getByRole('combobox', { name: 'Role' }))
    .getAllByRole('option')
    .map((option) => option.textContent)

test('the owner may manage everyone but themselves', async () => {
  open('owner')
  await screen.findByRole('button', { name: 'Manage Dan Dare' })
  expect(manageButtons()).toEqual(['Bob Builder', 'Carol Chen', 'Dan Dare'])
})

test('each permission says what it allows: moderate_content mutes members and acts on reports', async () => {
  const app = open('owner')
  const dialog = await manage(app, 'Dan Dare')
  const hintOf = (label: string) => within(dialog).getByRole('checkbox', { name: label })
  expect(hintOf('Moderate content')).toHaveAccessibleDescription('Mute members, and see and act on reports')
  expect(hintOf("Delete others' content")).toHaveAccessibleDescription(
    "Delete others' posts, comments, chat messages and stories",
  )
})

test('a moderator may manage plain members only', async () => {
  open('moderator')
  await screen.findByRole('button', { name: 'Manage Dan Dare' })
  expect(manageButtons()).toEqual(['Dan Dare'])
})

test('a plain member manages nobody', async () => {
  open('member')
  const members = await screen.findByRole('region', { name: 'Members' })
  await waitFor(() => expect(within(members).getAllByRole('listitem')).toHaveLength(5))
  expect(manageButtons()).toEqual([])
})

test('the owner editing an admin: member info, the warning, every role but owner, every permission open', async () => {
  const app = open('owner')
  const dialog = await manage(app, 'Bob Builder')
  expect(within(dialog).getByText('Bob Builder')).toBeInTheDocument()
  expect(within(dialog).getByText('bob@example.com')).toBeInTheDocument()
  expect(dialog.querySelector('.role-badge')).toHaveTextContent('Admin')
  expect(within(dialog).getByText(/Joined 23 Nov 2026/)).toBeInTheDocument()
  expect(within(dialog).getByText('Changing admin permissions can affect system access')).toBeInTheDocument()

  expect(roleOptions(dialog)).toEqual(['Admin', 'Moderator', 'Member'])
  expect(within(dialog).getByRole('combobox', { name: 'Role' })).toHaveValue('admin')
  const boxes = checkboxes(dialog)
  expect(boxes.map((box) => box.label)).toEqual(ALL_LABELS)
  expect(boxes.every((box) => box.enabled)).toBe(true)
  expect(boxes.filter((box) => !box.checked).map((box) => box.label)).toEqual(['Delete Buble'])
  expect(within(dialog).getByRole('button', { name: 'Transfer Ownership' })).toBeEnabled()
  expect(within(dialog).getByRole('button', { name: 'Remove Member' })).toBeEnabled()
  // Nothing changed yet: nothing to save.
  expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDisabled()
})

test('a moderator editing a member: only "member", only the permissions they hold open, no transfer', async () => {
  const held: Permission[] = [...ROLE_DEFAULT_PERMISSIONS.moderator, 'manage_members']
  const app = open('moderator', { permissions: held })
  const dialog = await manage(app, 'Dan Dare')
  expect(roleOptions(dialog)).toEqual(['Member'])
  const boxes = checkboxes(dialog)
  expect(boxes.filter((box) => !box.enabled).map((box) => box.label)).toEqual([
    'Manage Buble',
    'Delete Buble',
    'Pin posts',
  ])
  expect(boxes.filter((box) => box.checked).map((box) => box.label)).toEqual(['Create events', 'Create polls'])
  expect(within(dialog).queryByText('Changing admin permissions can affect system access')).toBeNull()
  expect(within(dialog).queryByRole('button', { name: 'Transfer Ownership' })).toBeNull()
  expect(within(dialog).getByRole('button', { name: 'Remove Member' })).toBeInTheDocument()
})

test('without manage_members, the permissions are shown but cannot be changed', async () => {
  const app = open('moderator')
  const dialog = await manage(app, 'Dan Dare')
  expect(checkboxes(dialog).some((box) => box.enabled)).toBe(false)
  expect(within(dialog).getByText("You cannot change this member's permissions; they follow the role.")).toBeVisible()
})

const roleCall = (buble: Buble) => `PUT /api/bubles/${buble.id}/members/role`
const transferCall = (buble: Buble) => `POST /api/bubles/${buble.id}/transfer-ownership`
const removeCall = (buble: Buble) => `DELETE /api/bubles/${buble.id}/members/remove`

test('choosing a role resets the permissions to its defaults; Save sends the role alone, then closes after 1.5 s', async () => {
  // Only the timers: fake-indexeddb schedules with setImmediate, which must keep running.
  vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] })
  const app = open('owner', {
    api: (buble, server) => ({
      [roleCall(buble)]: () => {
        // The server's change, brought by the pull the modal starts.
        server.send(memberChange(buble.id, makeMember(dan, 'moderator', '2026-11-23T10:00:00.000Z')))
        return json(200, { message: 'Member role updated successfully', member: makeMember(dan, 'moderator') })
      },
    }),
  })
  const dialog = await manage(app, 'Dan Dare')
  await app.user.selectOptions(within(dialog).getByRole('combobox', { name: 'Role' }), 'moderator')
  const ticked = checkboxes(dialog)
    .filter((box) => box.checked)
    .map((box) => box.label)
  expect(ticked).toEqual([
    'Invite members',
    'Remove members',
    'Change roles',
    'Manage events',
    'Manage polls',
    'Create events',
    'Create polls',
    'Moderate content',
    "Delete others' content",
  ])
  await app.user.click(within(dialog).getByRole('button', { name: 'Save' }))

  expect(await within(dialog).findByText('Member role updated successfully')).toBeInTheDocument()
  expect(app.callsTo(roleCall(app.buble))).toHaveLength(1)
  expect(app.callsTo(roleCall(app.buble))[0]?.body).toEqual({ userId: dan.id, role: 'moderator' })
  await act(() => vi.advanceTimersByTimeAsync(1000))
  expect(screen.getByRole('dialog', { name: 'Manage Member' })).toBeInTheDocument()
  await act(() => vi.advanceTimersByTimeAsync(500))
  expect(screen.queryByRole('dialog')).toBeNull()
  // The list follows the pull.
  const row = screen.getByRole('button', { name: 'Manage Dan Dare' }).closest('li')!
  await waitFor(() => expect(row.querySelector('.role-badge')).toHaveTextContent('Moderator'))
})

test("permissions that differ from the role's defaults are sent as customPermissions", async () => {
  const app = open('owner', {
    api: (buble) => ({
      [roleCall(buble)]: json(200, { message: 'Member role updated successfully', member: makeMember(dan) }),
    }),
  })
  const dialog = await manage(app, 'Dan Dare')
  await app.user.click(within(dialog).getByRole('checkbox', { name: 'Create polls' }))
  await app.user.click(within(dialog).getByRole('checkbox', { name: 'Moderate content' }))
  await app.user.click(within(dialog).getByRole('button', { name: 'Save' }))
  expect(await within(dialog).findByText('Member role updated successfully')).toBeInTheDocument()
  expect(app.callsTo(roleCall(app.buble))[0]?.body).toEqual({
    userId: dan.id,
    role: 'member',
    customPermissions: ['create_events', 'moderate_content'],
  })
})

test('choosing admin shows the warning too', async () => {
  const app = open('owner')
  const dialog = await manage(app, 'Dan Dare')
  expect(within(dialog).queryByText('Changing admin permissions can affect system access')).toBeNull()
  await app.user.selectOptions(within(dialog).getByRole('combobox', { name: 'Role' }), 'admin')
  expect(within(dialog).getByText('Changing admin permissions can affect system access')).toBeInTheDocument()
})

test.each([
  [
    'the server message',
    json(403, { message: 'You cannot give this role', code: 'FORBIDDEN' }),
    'You cannot give this role',
  ],
  ['else "Failed to update member role"', json(500, undefined), 'Failed to update member role'],
  [
    'offline when no answer came',
    new TypeError('Failed to fetch'),
    'You are offline. Managing members needs a connection.',
  ],
])('a failed save shows %s and keeps the modal open', async (_what, reply, text) => {
  const app = open('owner', { api: (buble) => ({ [roleCall(buble)]: reply }) })
  const dialog = await manage(app, 'Carol Chen')
  await app.user.selectOptions(within(dialog).getByRole('combobox', { name: 'Role' }), 'member')
  await app.user.click(within(dialog).getByRole('button', { name: 'Save' }))
  expect(await within(dialog).findByRole('alert')).toHaveTextContent(new RegExp(`^${text.replace(/\./g, '\\.')}$`))
  expect(within(dialog).queryByText('Member role updated successfully')).toBeNull()
  expect(within(dialog).getByRole('button', { name: 'Save' })).toBeEnabled()
})

test('Transfer Ownership asks first; confirming posts the new owner and says so', async () => {
  const app = open('owner', {
    api: (buble) => ({
      [transferCall(buble)]: [json(500, undefined), json(200, { message: 'Ownership transferred successfully' })],
    }),
  })
  let dialog = await manage(app, 'Bob Builder')
  await app.user.click(within(dialog).getByRole('button', { name: 'Transfer Ownership' }))
  let confirm = screen.getByRole('dialog', { name: 'Transfer Ownership' })
  expect(confirm).toHaveTextContent('Make Bob Builder the owner of this Buble?')
  expect(within(confirm).getByRole('button', { name: 'Cancel' })).toHaveFocus()
  await app.user.click(within(confirm).getByRole('button', { name: 'Cancel' }))
  dialog = screen.getByRole('dialog', { name: 'Manage Member' })
  expect(app.callsTo(transferCall(app.buble))).toHaveLength(0)

  await app.user.click(within(dialog).getByRole('button', { name: 'Transfer Ownership' }))
  confirm = screen.getByRole('dialog', { name: 'Transfer Ownership' })
  await app.user.click(within(confirm).getByRole('button', { name: 'Transfer Ownership' }))
  expect(await within(confirm).findByRole('alert')).toHaveTextContent(/^Failed to transfer ownership$/)
  await app.user.click(within(confirm).getByRole('button', { name: 'Transfer Ownership' }))

  dialog = await screen.findByRole('dialog', { name: 'Manage Member' })
  expect(within(dialog).getByRole('status')).toHaveTextContent('Ownership transferred successfully')
  expect(app.callsTo(transferCall(app.buble)).map((call) => call.body)).toEqual([
    { newOwnerId: bob.id },
    { newOwnerId: bob.id },
  ])
})

test('Remove Member asks first; confirming sends the member in the body and says so', async () => {
  const app = open('moderator', {
    api: (buble) => ({
      [removeCall(buble)]: [
        json(403, { message: 'You are not allowed to remove members', code: 'FORBIDDEN' }),
        json(200, { message: 'Member removed successfully' }),
      ],
    }),
  })
  const dialog = await manage(app, 'Dan Dare')
  await app.user.click(within(dialog).getByRole('button', { name: 'Remove Member' }))
  const confirm = screen.getByRole('dialog', { name: 'Remove Member' })
  expect(confirm).toHaveTextContent('Remove Dan Dare from this Buble?')
  await app.user.click(within(confirm).getByRole('button', { name: 'Remove Member' }))
  expect(await within(confirm).findByRole('alert')).toHaveTextContent(/^You are not allowed to remove members$/)
  await app.user.click(within(confirm).getByRole('button', { name: 'Remove Member' }))
  const after = await screen.findByRole('dialog', { name: 'Manage Member' })
  expect(within(after).getByRole('status')).toHaveTextContent('Member removed successfully')
  expect(app.callsTo(removeCall(app.buble))[1]?.body).toEqual({ userId: dan.id })
})

test('a removal with no message from the server shows "Failed to remove member"', async () => {
  const app = open('owner', { api: (buble) => ({ [removeCall(buble)]: json(500, undefined) }) })
  const dialog = await manage(app, 'Carol Chen')
  await app.user.click(within(dialog).getByRole('button', { name: 'Remove Member' }))
  const confirm = screen.getByRole('dialog', { name: 'Remove Member' })
  await app.user.click(within(confirm).getByRole('button', { name: 'Remove Member' }))
  expect(await within(confirm).findByRole('alert')).toHaveTextContent(/^Failed to remove member$/)
})

test('offline, the modal says managing members needs a connection and offers nothing to send', async () => {
  const app = open('owner')
  const dialog = await manage(app, 'Bob Builder')
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false)
  act(() => {
    window.dispatchEvent(new Event('offline'))
  })
  expect(within(dialog).getByRole('status')).toHaveTextContent('You are offline. Managing members needs a connection.')
  await app.user.selectOptions(within(dialog).getByRole('combobox', { name: 'Role' }), 'member')
  expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDisabled()
  expect(within(dialog).getByRole('button', { name: 'Transfer Ownership' })).toBeDisabled()
  expect(within(dialog).getByRole('button', { name: 'Remove Member' })).toBeDisabled()
  expect(app.calls.filter((call) => call.url.includes('/members/'))).toHaveLength(0)
})
