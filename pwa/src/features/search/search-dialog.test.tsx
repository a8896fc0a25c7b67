import type { SearchHit, SearchPage } from '@buble/shared/search'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { expect, test } from 'vitest'
import { bubleServer } from '../../test/buble-server.ts'
import { deferred } from '../../test/deferred.ts'
import { json } from '../../test/fake-fetch.ts'
import { alice, bubleChange, makeBuble, makeMember, memberChange, person, putChange } from '../../test/fixtures.ts'
import { renderApp } from '../../test/render-app.tsx'
import { makePost } from '../../test/wall-fixtures.ts'

/**
 * The search dialog (issue 23 §2, decision 95): the device's hits at once, then the server's older
 * history merged in, newest first; a hit both hold shows once, as the device has it.
 */

const buble = makeBuble({ name: 'Sauna Club' })
const onDevice = makePost(buble.id, 'Bo', 'Sauna on Friday, bring towels', 5)
const older: SearchHit = {
  kind: 'chat',
  id: '0190f5b4-9000-7000-8000-000000000001',
  buble_id: buble.id,
  post_id: null,
  snippet: { text: 'The sauna was closed last winter', marks: [[4, 9]] },
  author: person('Cy'),
  created_at: '2024-01-10T10:00:00.000Z',
}
// The server's copy of the device's post is older than the device's (an edit not yet sent).
const stale: SearchHit = {
  ...older,
  kind: 'post',
  id: onDevice.id,
  snippet: { text: 'Sauna on Thursday', marks: [[0, 5]] },
  author: onDevice.author,
  created_at: onDevice.created_at,
}
const page: SearchPage = { results: [stale, older], hasMore: false, before: null }

test('the device answers first, then the server adds older history; a hit both hold shows once, as on the device', async () => {
  const user = userEvent.setup()
  const answer = deferred<Response>()
  const seed = [bubleChange(buble), memberChange(buble.id, makeMember(alice, 'owner')), putChange('post', onDevice)]
  const app = renderApp({
    route: `/bubles/${buble.slug}`,
    user: alice,
    server: bubleServer(seed),
    api: {
      'GET /api/users/profile': json(200, alice),
      [`GET /api/bubles/${buble.id}/search?q=sauna`]: () => answer.promise,
    },
  })
  await user.click(await screen.findByRole('button', { name: 'Search' }))
  const dialog = await screen.findByRole('dialog', { name: 'Search Sauna Club' })
  await user.type(within(dialog).getByRole('searchbox'), 'sauna')

  const results = await within(dialog).findByRole('list', { name: 'Results' })
  expect(
    within(results)
      .getAllByRole('button')
      .map((hit) => hit.textContent),
  ).toEqual([expect.stringContaining('Sauna on Friday, bring towels')])
  expect(within(dialog).getByRole('status')).toHaveTextContent('Looking further back…')
  answer.resolve(json(200, page))
  await within(dialog).findByText('closed last winter', { exact: false })
  const hits = within(results).getAllByRole('button')
  expect(hits.map((hit) => hit.querySelector('.search-hit-kind')?.textContent)).toEqual(['Wall post', 'Chat'])
  expect(hits.map((hit) => hit.querySelector('.search-hit-text')?.textContent)).toEqual([
    'Sauna on Friday, bring towels',
    'The sauna was closed last winter',
  ])
  expect(
    within(results)
      .getAllByText((_, el) => el?.tagName === 'MARK')
      .map((m) => m.textContent),
  ).toEqual(['Sauna', 'sauna'])
  expect(app.callsTo(`GET /api/bubles/${buble.id}/search?q=sauna`)).toHaveLength(1)
})
