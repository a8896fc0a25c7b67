import { describe, expect, test } from 'vitest'
import { ENTITY_TABLE, ROW_TABLE_VERSIONS } from './device.ts'

describe("the device's row tables", () => {
  const firstVersion = ROW_TABLE_VERSIONS[0] ?? {}

  test('every entity has a table from the first version, filed by id', () => {
    for (const table of Object.values(ENTITY_TABLE)) expect(firstVersion[table]?.split(',')[0]).toBe('id')
  })

  // The engine drops a buble's rows by this index when the buble leaves the device.
  test("every table but the bubles' own is filed by buble", () => {
    for (const [entity, table] of Object.entries(ENTITY_TABLE))
      if (entity !== 'buble') expect(firstVersion[table]?.split(',').map((index) => index.trim())).toContain('buble_id')
  })

  test('a later version changes only tables there are, and keeps each one filed by id', () => {
    for (const version of ROW_TABLE_VERSIONS.slice(1))
      for (const [table, indexes] of Object.entries(version)) {
        expect(Object.values(ENTITY_TABLE)).toContain(table)
        expect(indexes?.startsWith('id,')).toBe(true)
      }
  })
})
