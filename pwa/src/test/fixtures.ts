import type { Profile, User } from '@buble/shared/auth'

export const alice: User = {
  id: '0190f5b4-0000-7000-8000-000000000001',
  name: 'Alice Example',
  email: 'alice@example.com',
  email_verified: true,
  role: 'user',
  bio: null,
  avatar_url: null,
  created_at: '2025-01-15T10:00:00.000Z',
}

export const aliceProfile: Profile = {
  ...alice,
  deletion: { deletion_requested: false, deletion_scheduled_for: null, days_remaining: null, hours_remaining: null },
}
