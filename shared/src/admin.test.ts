import { describe, expect, test } from 'vitest'
import { AdminCreateBubleBody, AdminCreateUserBody, AdminListQuery, deleteTypeFailed, loadTabFailed } from './admin.ts'

const firstProblem = (
  schema: { safeParse(v: unknown): { success: boolean; error?: { issues: { message: string }[] } } },
  value: unknown,
) => schema.safeParse(value).error?.issues[0]?.message

describe('AdminListQuery', () => {
  test('defaults to page 1 of 20, without a search', () => {
    expect(AdminListQuery.parse({})).toEqual({ page: 1, limit: 20, search: undefined })
  })

  test.each([
    [{ limit: '100' }, 100],
    [{ limit: '101' }, 100],
    [{ limit: '5000' }, 100],
    [{ limit: '7' }, 7],
  ])('limit %j reads as %i', (query, limit) => {
    expect(AdminListQuery.parse(query).limit).toBe(limit)
  })

  test.each([
    [{ page: '0' }, 'page must be at least 1'],
    [{ page: '-3' }, 'page must be at least 1'],
    [{ page: 'two' }, 'page must be a number'],
    [{ page: '1.5' }, 'page must be a whole number'],
    [{ limit: '0' }, 'limit must be at least 1'],
    [{ search: 'x'.repeat(201) }, 'search must be at most 200 characters'],
  ])('%j is refused: %s', (query, message) => {
    expect(firstProblem(AdminListQuery, query)).toBe(message)
  })

  test('a blank search is no search; a search is trimmed', () => {
    expect(AdminListQuery.parse({ search: '   ' }).search).toBeUndefined()
    expect(AdminListQuery.parse({ search: '  ada ' }).search).toBe('ada')
  })
})

describe('admin bodies', () => {
  test('a new user needs a 6-character password only, and is a plain user unless told', () => {
    expect(AdminCreateUserBody.parse({ name: 'Ada', email: ' ADA@Example.com ', password: 'abc123' })).toEqual({
      name: 'Ada',
      email: 'ada@example.com',
      password: 'abc123',
      role: 'user',
    })
    expect(firstProblem(AdminCreateUserBody, { name: 'Ada', email: 'a@b.co', password: 'abc12' })).toBe(
      'Password must be at least 6 characters',
    )
  })

  test('a buble owner is a UUID, or absent', () => {
    expect(AdminCreateBubleBody.parse({ name: 'Club', ownerId: null })).toEqual({ name: 'Club', ownerId: undefined })
    expect(firstProblem(AdminCreateBubleBody, { name: 'Club', ownerId: 'me' })).toBe('ownerId must be a user id')
  })

  test('failure texts name the tab and the type (spec part 2 §8)', () => {
    expect(loadTabFailed('users')).toBe('Failed to load users')
    expect(deleteTypeFailed('poll')).toBe('Failed to delete poll')
  })
})
