import { expect, test } from 'vitest'
import type { ActivityKind } from '../../data/home.ts'
import { activityLine } from './dashboard-screen-texts.ts'

test.each<[ActivityKind, string, string]>([
  ['chat', 'see you at 7', 'Bob in chat: see you at 7'],
  ['image', '', 'Bob sent a photo'],
  ['image', 'the view', 'Bob sent a photo: the view'],
  ['post', 'Sunday lunch?', 'Bob on the wall: Sunday lunch?'],
  ['comment', 'Count me in', 'Bob commented: Count me in'],
  ['event', 'Reading night', 'Bob added an event: Reading night'],
  ['poll', 'Soup or stew?', 'Bob asked: Soup or stew?'],
  ['story', '', 'Bob added a story'],
  ['joined', '', 'Bob joined'],
])('%s: “%s” reads “%s”', (kind, text, line) => {
  expect(activityLine({ kind, who: 'Bob', mine: false, text })).toBe(line)
})

test('the user’s own activity reads “You”; line breaks fold into one line; a nameless maker is “Someone”', () => {
  expect(activityLine({ kind: 'chat', who: 'Alice', mine: true, text: 'on my\nway' })).toBe('You in chat: on my way')
  expect(activityLine({ kind: 'post', who: '', mine: false, text: 'hello' })).toBe('Someone on the wall: hello')
})
