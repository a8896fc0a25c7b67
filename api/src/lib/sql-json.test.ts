import { describe, expect, test } from 'vitest'
import { jsonObject, memberRefJson } from './sql-json.ts'

interface Shape {
  id: string
  author_name: string
  isEdited: boolean
}

describe('jsonObject', () => {
  test('lists the fields of the shape in the order given, each with its SQL', () => {
    expect(jsonObject<Shape>({ id: 'c.id', author_name: 'u.name', isEdited: 'c.is_edited' })).toBe(
      "json_build_object('id', c.id, 'author_name', u.name, 'isEdited', c.is_edited)",
    )
  })

  test('a field missing from the shape, or not in it, does not compile', () => {
    // @ts-expect-error isEdited is missing
    jsonObject<Shape>({ id: 'c.id', author_name: 'u.name' })
    // @ts-expect-error is_edited is not a field of the shape
    jsonObject<Shape>({ id: 'c.id', author_name: 'u.name', isEdited: 'c.is_edited', is_edited: 'c.is_edited' })
  })

  test('a member reference is CONTRACT’s MemberRef of the aliased user', () => {
    expect(memberRefJson('u')).toBe("json_build_object('id', u.id, 'name', u.name, 'avatar_url', u.avatar_url)")
  })
})
