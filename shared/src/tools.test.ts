import { expect, test } from 'vitest'
import { enabledToolsOf, optionalToolsOf, storedToolsOf, toolsOf } from './tools.ts'

test('a row stored before Local Events was removable (nothing said of it) keeps it on', () => {
  expect(enabledToolsOf([])).toEqual(['wall', 'stories', 'local_events'])
  expect(enabledToolsOf(['weather'])).toEqual(['wall', 'stories', 'local_events', 'weather'])
})

test('Local Events left out is stored as removed, and read back off; listed again it is on', () => {
  const removed = storedToolsOf(['weather'])
  expect(removed).toEqual(['-local_events', 'weather'])
  expect(optionalToolsOf(removed)).toEqual(['weather'])
  expect(enabledToolsOf(removed)).toEqual(['wall', 'stories', 'weather'])
  const back = storedToolsOf(['local_events', 'weather'])
  expect(back).toEqual(['weather'])
  expect(enabledToolsOf(back)).toEqual(['wall', 'stories', 'local_events', 'weather'])
})

test('Wall and Stories are never stored and never off; unknown keys change nothing', () => {
  expect(storedToolsOf(['wall', 'stories', 'horoscope', 'local_events'])).toEqual([])
  expect(toolsOf(storedToolsOf([])).filter((tool) => tool.enabled)).toEqual([
    { key: 'wall', enabled: true, removable: false },
    { key: 'stories', enabled: true, removable: false },
  ])
  expect(toolsOf([]).find((tool) => tool.key === 'local_events')).toEqual({
    key: 'local_events',
    enabled: true,
    removable: true,
  })
})
