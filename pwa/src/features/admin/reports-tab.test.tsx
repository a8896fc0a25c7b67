import { screen, within } from '@testing-library/react'
import { expect, test } from 'vitest'
import { PROFILE, root } from '../../test/admin-fixtures.ts'
import { json } from '../../test/fake-fetch.ts'
import { renderApp } from '../../test/render-app.tsx'

const page = (n: number, bubleName: string, pages = 2) =>
  json(200, {
    reports: [
      {
        buble_id: `0190f5b4-1000-7000-8000-00000000000${n}`,
        buble_name: bubleName,
        target_type: 'comment',
        target_id: `0190f5b4-3000-7000-8000-00000000000${n}`,
        excerpt: `Excerpt ${n}`,
        exists: n === 1,
        author: { id: 'a', name: 'Bob Builder' },
        reasons: [{ reason: 'harassment', count: 1 }],
        reports: [
          {
            id: `r${n}`,
            reporter: { id: 'c', name: 'Cleo' },
            reason: 'harassment',
            note: 'Not ok',
            created_at: '2026-11-28T10:00:00.000Z',
          },
        ],
        first_reported_at: '2026-11-28T10:00:00.000Z',
        last_reported_at: '2026-11-28T10:00:00.000Z',
      },
    ],
    pagination: { page: n, limit: 20, pages, total: pages },
  })

test("the admin's Reports tab lists every buble's reports with their reporters, page by page", async () => {
  const app = renderApp({
    route: '/admin?tab=reports',
    user: root,
    api: {
      [PROFILE]: json(200, root),
      'GET /api/admin/reports?page=1': page(1, 'Book Club'),
      'GET /api/admin/reports?page=2': page(2, 'Chess Club'),
    },
  })
  const table = await screen.findByRole('region', { name: 'Reports' })
  const row = within(table).getAllByRole('row')[1]!
  expect(row).toHaveTextContent('Book Club')
  expect(row).toHaveTextContent('Excerpt 1')
  expect(row).toHaveTextContent('Harassment × 1')
  expect(row).toHaveTextContent('Cleo: Harassment (“Not ok”)')
  await app.user.click(screen.getByRole('button', { name: /Next/ }))
  expect(await screen.findByText('Chess Club')).toBeInTheDocument()
  expect(screen.getByText(/\(removed\) Excerpt 2/)).toBeInTheDocument()
})
