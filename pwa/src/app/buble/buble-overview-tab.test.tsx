import type { Buble } from '@buble/shared/bubles'
import { type BubleRole, ROLE_DEFAULT_PERMISSIONS } from '@buble/shared/permissions'
import { storedToolsOf, type ToolKey, toolsOf } from '@buble/shared/tools'
import { screen, waitFor, within } from '@testing-library/react'
import { expect, test } from 'vitest'
import { bubleActions, chooseBubleAction } from '../../test/buble-menu.ts'
import { bubleServer } from '../../test/buble-server.ts'
import { json, type Reply } from '../../test/fake-fetch.ts'
import { alice, bob, bubleChange, makeBuble, makeMember, memberChange, ownedBy } from '../../test/fixtures.ts'
import { renderApp } from '../../test/render-app.tsx'

const PROFILE = 'GET /api/users/profile'
type Server = ReturnType<typeof bubleServer>

function open(
  role: BubleRole,
  options: { tools?: ToolKey[]; api?: (buble: Buble, server: Server) => Record<string, Reply | Reply[]> } = {},
) {
  const buble = makeBuble({
    name: 'Book Club',
    ...(role === 'owner'
      ? {}
      : { ...ownedBy(bob), my_role: role, my_permissions: [...ROLE_DEFAULT_PERMISSIONS[role]] }),
    ...(options.tools ? { tools: options.tools } : {}),
  })
  const server = bubleServer([
    bubleChange(buble),
    memberChange(buble.id, makeMember(alice, role)),
    ...(role === 'owner' ? [] : [memberChange(buble.id, makeMember(bob, 'owner'))]),
  ])
  const app = renderApp({
    route: '/bubles/book-club',
    user: alice,
    server,
    api: { [PROFILE]: json(200, alice), ...options.api?.(buble, server) },
  })
  return { ...app, buble, server }
}

const toolCards = () =>
  within(screen.getByRole('list', { name: 'Tools' }))
    .getAllByRole('article')
    .map((card) => within(card).getByRole('heading').textContent)

test('the overview shows the tools that are on, in the order the buble keeps them', async () => {
  open('member', { tools: ['wall', 'stories', 'local_events', 'weather', 'latest_polls'] })
  await screen.findByRole('list', { name: 'Tools' })
  expect(toolCards()).toEqual(['Wall', 'Stories', 'Local Events', 'Weather', 'Latest Polls'])
  const weather = screen.getByRole('article', { name: 'Weather' })
  expect(weather).toHaveTextContent("Current conditions and a 5-day forecast for your Buble's location.")
  expect(screen.getByRole('region', { name: 'About this Buble' })).toBeInTheDocument()
})

test.each([
  ['owner', true, true],
  ['admin', false, true],
  ['moderator', false, false],
  ['member', false, false],
] as const)('the %s sees Add Tool: %s; Rename, in the title bar menu: %s', async (role, addTool, rename) => {
  const app = open(role)
  await screen.findByRole('list', { name: 'Tools' })
  expect(screen.queryByRole('button', { name: 'Add Tool' }) !== null).toBe(addTool)
  // The overview no longer has its own Rename: it is one of the title bar's actions.
  expect(screen.queryByRole('button', { name: 'Rename' })).toBeNull()
  expect((await bubleActions(app.user)).includes('Rename')).toBe(rename)
})

test('Add Tool lists every tool, Wall and Stories always on, Local Events on and removable; Save puts the tools and the cards follow', async () => {
  const app = open('owner', {
    api: (buble, server) => ({
      [`PUT /api/bubles/${buble.id}/tools`]: (call) => {
        const { enabled } = call.body as { enabled: ToolKey[] }
        server.send(bubleChange({ ...buble, tools: enabled }))
        return json(200, { tools: toolsOf(storedToolsOf(enabled)) })
      },
    }),
  })
  expect(await screen.findByRole('list', { name: 'Tools' })).toBeInTheDocument()
  expect(toolCards()).toEqual(['Wall', 'Stories', 'Local Events'])
  await app.user.click(screen.getByRole('button', { name: 'Add Tool' }))
  const dialog = screen.getByRole('dialog', { name: 'Add Tool' })
  const boxes = within(dialog)
    .getAllByRole('checkbox')
    .map((box) => [
      (box as HTMLInputElement).labels?.[0]?.textContent,
      (box as HTMLInputElement).checked,
      !(box as HTMLInputElement).disabled,
    ])
  expect(boxes).toEqual([
    ['Wall', true, false],
    ['Stories', true, false],
    ['Local Events', true, true],
    ['Weather', false, true],
    ['Event Stats', false, true],
    ['Latest Polls', false, true],
  ])
  expect(within(dialog).getByRole('checkbox', { name: 'Wall' })).toHaveAccessibleDescription(/^Always on\./)
  expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDisabled()

  await app.user.click(within(dialog).getByRole('checkbox', { name: 'Latest Polls' }))
  await app.user.click(within(dialog).getByRole('checkbox', { name: 'Weather' }))
  await app.user.click(within(dialog).getByRole('button', { name: 'Save' }))

  expect(await screen.findByRole('status')).toHaveTextContent('Tools updated')
  expect(screen.queryByRole('dialog')).toBeNull()
  expect(app.callsTo(`PUT /api/bubles/${app.buble.id}/tools`)[0]?.body).toEqual({
    enabled: ['wall', 'stories', 'local_events', 'weather', 'latest_polls'],
  })
  await screen.findByRole('article', { name: 'Latest Polls' })
  expect(toolCards()).toEqual(['Wall', 'Stories', 'Local Events', 'Weather', 'Latest Polls'])
})

test('Local Events is removed by unticking it, and its card goes; ticked again it comes back', async () => {
  const app = open('owner', {
    api: (buble, server) => ({
      [`PUT /api/bubles/${buble.id}/tools`]: (call) => {
        const { enabled } = call.body as { enabled: ToolKey[] }
        server.send(bubleChange({ ...buble, tools: enabled }))
        return json(200, { tools: toolsOf(storedToolsOf(enabled)) })
      },
    }),
  })
  await app.user.click(await screen.findByRole('button', { name: 'Add Tool' }))
  let dialog = screen.getByRole('dialog', { name: 'Add Tool' })
  expect(within(dialog).getByRole('checkbox', { name: 'Local Events' })).not.toHaveAccessibleDescription(/^Always on/)
  await app.user.click(within(dialog).getByRole('checkbox', { name: 'Local Events' }))
  await app.user.click(within(dialog).getByRole('button', { name: 'Save' }))
  expect(await screen.findByRole('status')).toHaveTextContent('Tools updated')
  expect(app.callsTo(`PUT /api/bubles/${app.buble.id}/tools`)[0]?.body).toEqual({ enabled: ['wall', 'stories'] })
  await waitFor(() => expect(toolCards()).toEqual(['Wall', 'Stories']))

  await app.user.click(screen.getByRole('button', { name: 'Add Tool' }))
  dialog = screen.getByRole('dialog', { name: 'Add Tool' })
  expect(within(dialog).getByRole('checkbox', { name: 'Local Events' })).not.toBeChecked()
  await app.user.click(within(dialog).getByRole('checkbox', { name: 'Local Events' }))
  await app.user.click(within(dialog).getByRole('button', { name: 'Save' }))
  await waitFor(() => expect(toolCards()).toEqual(['Wall', 'Stories', 'Local Events']))
})

test('a tool is removed by unticking it', async () => {
  const app = open('owner', {
    tools: ['wall', 'stories', 'local_events', 'weather', 'event_stats'],
    api: (buble) => ({ [`PUT /api/bubles/${buble.id}/tools`]: json(200, { tools: toolsOf(['event_stats']) }) }),
  })
  await app.user.click(await screen.findByRole('button', { name: 'Add Tool' }))
  const dialog = screen.getByRole('dialog', { name: 'Add Tool' })
  await app.user.click(within(dialog).getByRole('checkbox', { name: 'Weather' }))
  await app.user.click(within(dialog).getByRole('button', { name: 'Save' }))
  expect(await screen.findByRole('status')).toHaveTextContent('Tools updated')
  expect(app.callsTo(`PUT /api/bubles/${app.buble.id}/tools`)[0]?.body).toEqual({
    enabled: ['wall', 'stories', 'local_events', 'event_stats'],
  })
})

test.each([
  [
    'the server message',
    json(403, { message: 'Only the owner can add or remove tools', code: 'FORBIDDEN' }),
    'Only the owner can add or remove tools',
  ],
  ['else "Failed to perform action"', json(500, undefined), 'Failed to perform action'],
])('a failed tools save shows %s and keeps the modal open', async (_what, reply, text) => {
  const app = open('owner', { api: (buble) => ({ [`PUT /api/bubles/${buble.id}/tools`]: reply }) })
  await app.user.click(await screen.findByRole('button', { name: 'Add Tool' }))
  const dialog = screen.getByRole('dialog', { name: 'Add Tool' })
  await app.user.click(within(dialog).getByRole('checkbox', { name: 'Weather' }))
  await app.user.click(within(dialog).getByRole('button', { name: 'Save' }))
  expect((await within(dialog).findByRole('alert')).textContent).toBe(text)
})

test('Rename, from the title bar menu, checks the name, patches it and the page shows the new name', async () => {
  const app = open('admin', {
    api: (buble) => ({
      [`PATCH /api/bubles/${buble.id}`]: [
        json(500, undefined),
        (call) => json(200, { ...buble, name: (call.body as { name: string }).name }),
      ],
    }),
  })
  await chooseBubleAction(app.user, 'Rename')
  const dialog = screen.getByRole('dialog', { name: 'Rename Buble' })
  const field = within(dialog).getByLabelText('Buble Name')
  expect(field).toHaveValue('Book Club')
  expect(field).toHaveFocus()

  await app.user.clear(field)
  await app.user.click(within(dialog).getByRole('button', { name: 'Rename' }))
  expect(within(dialog).getByText('Buble name is required')).toBeInTheDocument()
  expect(app.calls.filter((call) => call.method === 'PATCH')).toHaveLength(0)

  await app.user.type(field, '  Book Lovers ')
  await app.user.click(within(dialog).getByRole('button', { name: 'Rename' }))
  expect((await within(dialog).findByRole('alert')).textContent).toBe('Failed to perform action')
  await app.user.click(within(dialog).getByRole('button', { name: 'Rename' }))

  expect(await screen.findByRole('heading', { level: 1, name: 'Book Lovers' })).toBeInTheDocument()
  expect(screen.queryByRole('dialog')).toBeNull()
  expect(screen.getByRole('status')).toHaveTextContent('Buble renamed')
  expect(app.calls.filter((call) => call.method === 'PATCH').map((call) => call.body)).toEqual([
    { name: 'Book Lovers' },
    { name: 'Book Lovers' },
  ])
  // The slug stays: the address does not move.
  expect(screen.getByRole('link', { name: 'Overview' })).toHaveAttribute('href', '/bubles/book-club')
})
