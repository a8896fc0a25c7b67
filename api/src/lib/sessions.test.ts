import { describe, expect, test } from 'vitest'
import { describeUserAgent, placeFrom, sessionEndedPayload } from './sessions.ts'

const UA = {
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  ipadChrome:
    'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/120.0 Mobile/15E148 Safari/604.1',
  android:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36',
  mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  windowsFirefox: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0',
  headless:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36',
}

describe('describeUserAgent', () => {
  test.each([
    ['an iPhone', UA.iphone, { device: 'iPhone', browser: 'Safari' }],
    ['an iPad with Chrome', UA.ipadChrome, { device: 'iPad', browser: 'Chrome' }],
    ['an Android phone', UA.android, { device: 'Android', browser: 'Chrome' }],
    ['a Mac', UA.mac, { device: 'macOS', browser: 'Chrome' }],
    ['Windows with Firefox', UA.windowsFirefox, { device: 'Windows', browser: 'Firefox' }],
    ['a headless Chrome', UA.headless, { device: 'Linux', browser: 'Chrome' }],
    ['curl', 'curl/8.0', { device: null, browser: null }],
    ['no header', undefined, { device: null, browser: null }],
    ['a header too long to be a browser', `${UA.iphone} ${'x'.repeat(600)}`, { device: null, browser: null }],
  ])('%s', (_, userAgent, expected) => {
    expect(describeUserAgent(userAgent)).toEqual(expected)
  })
})

describe('placeFrom', () => {
  const headers = (entries: Record<string, string>) => new Headers(entries)
  test.each([
    ['no headers configured', {}, [], null],
    ['configured but not sent', {}, ['cf-ipcity', 'cf-ipcountry'], null],
    [
      'city and country',
      { 'cf-ipcity': 'Stockholm', 'cf-ipcountry': 'SE' },
      ['cf-ipcity', 'cf-ipcountry'],
      'Stockholm, SE',
    ],
    [
      'an unknown country (XX) is left out',
      { 'cf-ipcity': 'Malmö', 'cf-ipcountry': 'XX' },
      ['cf-ipcity', 'cf-ipcountry'],
      'Malmö',
    ],
    ['Tor (T1) is no place', { 'cf-ipcountry': 'T1' }, ['cf-ipcountry'], null],
    ['a header not configured is not trusted', { 'cf-ipcity': 'Oslo' }, ['cf-ipcountry'], null],
    ['a long value is cut', { 'x-place': 'y'.repeat(200) }, ['x-place'], 'y'.repeat(80)],
  ])('%s', (_, sent, configured, expected) => {
    expect(placeFrom(headers(sent), configured)).toBe(expected)
  })
})

test('an ended session is announced with its user, which the change bus reads', () => {
  expect(JSON.parse(sessionEndedPayload('u1', ['s1', 's2']))).toEqual([
    { revoked: 'u1', session: 's1' },
    { revoked: 'u1', session: 's2' },
  ])
})
