/** Admin answers for the admin screen's tests. */

import type { User } from '@buble/shared/auth'
import type {
  AdminDashboard,
  AdminEvent,
  AdminHealth,
  AdminPoll,
  AdminPost,
  AdminUser,
  Pagination,
} from '../features/admin/admin-types.ts'
import { json } from './fake-fetch.ts'
import { alice, bob } from './fixtures.ts'

export const root: User = {
  ...alice,
  id: '0190f5b4-0000-7000-8000-0000000000aa',
  name: 'Ada Admin',
  email: 'ada@example.com',
  role: 'admin',
}

export const PROFILE = 'GET /api/users/profile'

export const adminUser = (user: User): AdminUser => ({ ...user, status: 'active', bubles_count: 1 })

export const userRow = (n: number, overrides: Partial<AdminUser> = {}): AdminUser => ({
  id: `0190f5b4-3000-7000-8000-${String(n).padStart(12, '0')}`,
  name: `User ${n}`,
  email: `user${n}@example.com`,
  role: 'user',
  bio: null,
  avatar_url: null,
  created_at: '2026-11-20T10:00:00.000Z',
  email_verified: true,
  status: 'active',
  bubles_count: 0,
  ...overrides,
})

export const pagination = (page: number, pages: number, total: number): Pagination => ({
  page,
  limit: 20,
  pages,
  total,
})

export const usersPage = (users: AdminUser[], page = 1, pages = 1, total = users.length) =>
  json(200, { users, pagination: pagination(page, pages, total) })

export const dashboard: AdminDashboard = {
  stats: { totalUsers: 42, totalBubles: 7, totalEvents: 13, totalPolls: 5, activeInvites: 3 },
  recentUsers: [adminUser(bob)],
  recentBubles: [
    {
      id: '0190f5b4-1000-7000-8000-0000000000b1',
      name: 'Book Club',
      slug: 'book-club',
      owner_id: alice.id,
      owner: { id: alice.id, name: alice.name, email: alice.email },
      member_count: 4,
      created_at: '2026-11-22T10:00:00.000Z',
    },
  ],
}

/** The URL a list call asks for. */
export const listUrl = (tab: string, page = 1, search = '') =>
  `GET /api/admin/${tab}?${new URLSearchParams({ page: String(page), limit: '20', ...(search ? { search } : {}) })}`

const bookClub = { id: '0190f5b4-1000-7000-8000-0000000000b1', name: 'Book Club', slug: 'book-club' }
const bobRef = { id: bob.id, name: bob.name, email: bob.email }

export const pollRow = (n: number, overrides: Partial<AdminPoll> = {}): AdminPoll => ({
  id: `0190f5b4-4000-7000-8000-${String(n).padStart(12, '0')}`,
  question: `Question ${n}?`,
  created_at: '2026-11-21T10:00:00.000Z',
  buble_id: bookClub.id,
  buble: bookClub,
  creator_id: bob.id,
  creator: bobRef,
  options: [
    { id: `0190f5b4-4100-7000-8000-${String(n).padStart(12, '0')}`, option_text: 'Yes', votes_count: 2 },
    { id: `0190f5b4-4200-7000-8000-${String(n).padStart(12, '0')}`, option_text: 'No', votes_count: 1 },
  ],
  totalVotes: 3,
  votersCount: 3,
  closes_at: null,
  closed: false,
  multiple: false,
  hide_results: false,
  secret: false,
  ...overrides,
})

export const eventRow = (n: number, overrides: Partial<AdminEvent> = {}): AdminEvent => ({
  id: `0190f5b4-6000-7000-8000-${String(n).padStart(12, '0')}`,
  title: `Event ${n}`,
  description: 'Bring snacks',
  location: 'The park',
  event_time: '2026-12-01T17:00:00.000Z',
  created_at: '2026-11-21T10:00:00.000Z',
  external_url: null,
  buble_id: bookClub.id,
  buble: bookClub,
  creator_id: bob.id,
  creator: bobRef,
  rsvps: { going: 2, maybe: 1, cant_go: 0 },
  ...overrides,
})

export const postRow = (n: number, overrides: Partial<AdminPost> = {}): AdminPost => ({
  id: `0190f5b4-5000-7000-8000-${String(n).padStart(12, '0')}`,
  content: `Post ${n}`,
  type: 'text',
  image_url: null,
  link_url: null,
  is_edited: false,
  commentsCount: 0,
  created_at: '2026-11-21T10:00:00.000Z',
  buble_id: bookClub.id,
  buble_name: bookClub.name,
  author_id: bob.id,
  author: bobRef,
  ...overrides,
})

export const healthAnswer = (overrides: Partial<AdminHealth> = {}): AdminHealth => ({
  status: 'healthy',
  timestamp: '2026-11-25T10:00:00.000Z',
  lastUpdated: '2026-11-25T10:00:00.000Z',
  database: 'pglite',
  metrics: {
    usersCount: 42,
    bublesCount: 7,
    eventsCount: 13,
    pollsCount: 5,
    activeInvitesCount: 3,
    expiredInvitesCount: 2,
  },
  ...overrides,
})

/** A page of any tab. */
export const page = (tab: string, rows: unknown[], at = 1, pages = rows.length ? 1 : 0, total = rows.length) =>
  json(200, { [tab]: rows, pagination: pagination(at, pages, total) })
