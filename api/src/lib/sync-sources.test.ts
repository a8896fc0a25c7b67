/** How a batcher answers (decision 93): the first of each id gets what was written, a repeat and an id not written are left to the handler. */

import { describe, expect, test } from 'vitest'
import { batchAnswers, firstOfEach, ONE_BY_ONE } from './sync-sources.ts'

describe('firstOfEach and batchAnswers', () => {
  const items = [{ id: 'a' }, { id: 'b' }, { id: 'a' }, { id: 'c' }]

  test('a statement writes the first of each id, in order', () => {
    expect(firstOfEach(items)).toEqual([{ id: 'a' }, { id: 'b' }, { id: 'c' }])
    expect(firstOfEach(items)[0]).toBe(items[0])
  })

  test('the first of an id gets its row; a repeat and an id not written go one at a time', () => {
    const written = new Map([
      ['a', 'row a'],
      ['c', 'row c'],
    ])
    expect(batchAnswers(items, written)).toEqual(['row a', ONE_BY_ONE, ONE_BY_ONE, 'row c'])
    expect(batchAnswers([], written)).toEqual([])
  })
})
