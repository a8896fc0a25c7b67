import { occurrences } from '@buble/shared/recurrence'
import { expect, test } from '@playwright/test'
import { api, person, serviceWorkerReady } from './helpers.ts'

// Recurring events (issue 23 §3, decision 97) at phone width, on a Stockholm clock.
test.use({ timezoneId: 'Europe/Stockholm', viewport: { width: 360, height: 740 } })

interface ServerEvent {
  id: string
  title: string
  event_time: string
  recurrence: string | null
  rsvps: { user_id: string; status: string; occurrence: string | null }[]
}

/** A call to the API with the page's own session. */

const YEAR = new Date().getFullYear() + 1

test('a weekly event: made in the form, listed at its next occurrence with a repeat label, answered per occurrence, edited “this event” and, offline, “this and following”', async ({
  browser,
}) => {
  const ann = await person(browser, 'Ann Repeat')
  const { page } = ann
  const buble = await api<{ id: string; slug: string }>(page, 'POST', '/bubles', { name: `Repeats ${Date.now()}` })
  // A weekly run that began a few days ago: its next occurrence is the second one.
  const began = new Date(Math.floor((Date.now() - 3 * 86_400_000) / 60_000) * 60_000).toISOString()
  const run = await api<ServerEvent>(page, 'POST', `/bubles/${buble.id}/events`, {
    title: 'Morning run',
    event_time: began,
    recurrence: 'FREQ=WEEKLY;COUNT=5',
  })
  const [, next, third] = occurrences(run)
  let offlineAt = 0

  await page.goto(`/bubles/${buble.slug || buble.id}/events`)
  const runCard = page.getByRole('article', { name: 'Morning run', exact: true })
  await expect(runCard.getByText('Repeats weekly, 5 times')).toBeVisible()
  await expect(runCard.locator('time')).toHaveAttribute('datetime', next as string)

  await test.step('Ann creates a monthly event in the form', async () => {
    await page.getByRole('button', { name: 'Create Event' }).first().click()
    const form = page.getByRole('dialog', { name: 'Create Event' })
    await form.getByLabel('Title').fill('Book club')
    await form.getByLabel('Date and time').fill(`${YEAR}-03-10T18:00`)
    await form.getByLabel('Repeat').selectOption({ label: `Monthly on the second ${weekdayOf(`${YEAR}-03-10`)}` })
    await form.getByLabel('Number of times').fill('6')
    await form.getByRole('button', { name: 'Create Event' }).click()
    await expect(form).toHaveCount(0)
    const card = page.getByRole('article', { name: 'Book club', exact: true })
    await expect(card.getByText(`Repeats monthly on the second ${weekdayOf(`${YEAR}-03-10`)}, 6 times`)).toBeVisible()
    await expect
      .poll(async () => (await api<ServerEvent[]>(page, 'GET', `/bubles/${buble.id}/events`)).map((e) => e.recurrence))
      .toContain(`FREQ=MONTHLY;BYDAY=+2${weekdayOf(`${YEAR}-03-10`).slice(0, 2).toUpperCase()};COUNT=6`)
  })

  await test.step('Ann is going to the run’s next occurrence: the answer is that occurrence’s', async () => {
    await runCard.getByRole('button', { name: 'Going', exact: true }).click()
    await runCard.getByRole('group', { name: 'Confirm RSVP' }).getByRole('button', { name: 'Yes', exact: true }).click()
    await expect(runCard.getByText('Going (1)')).toBeVisible()
    await expect
      .poll(async () => {
        const events = await api<ServerEvent[]>(page, 'GET', `/bubles/${buble.id}/events`)
        return events.find((e) => e.id === run.id)?.rsvps.map((r) => [r.status, r.occurrence])
      })
      .toEqual([['going', next]])
  })

  await test.step('editing the run asks which of its events the edit changes', async () => {
    await runCard.getByRole('button', { name: /Edit/ }).first().click()
    const ask = page.getByRole('dialog', { name: 'Edit repeating event' })
    await expect(ask.getByRole('button', { name: 'This and following events' })).toBeVisible()
    await ask.getByRole('button', { name: 'This event', exact: true }).click()
    const form = page.getByRole('dialog', { name: 'Edit Event' })
    await form.getByLabel('Location').fill('The park')
    await form.getByRole('button', { name: 'Save' }).click()
    await expect(form).toHaveCount(0)
    // The occurrence is an event of its own now, with its answer; the series moves on to the one after.
    await expect(page.getByRole('article', { name: 'Morning run', exact: true })).toHaveCount(2)
  })

  await test.step('offline, Ann edits this and following events; back online the series is split on the server', async () => {
    await serviceWorkerReady(page)
    await expect(page.getByRole('button', { name: 'Synced' })).toBeVisible()
    offlineAt = ann.problems.length
    await page.context().setOffline(true)
    await expect(page.getByRole('button', { name: 'Offline', exact: true })).toBeVisible()
    const series = page.getByRole('article', { name: 'Morning run', exact: true }).filter({ hasText: 'Repeats weekly' })
    await expect(series.locator('time')).toHaveAttribute('datetime', third as string)
    await series.getByRole('button', { name: /Edit/ }).first().click()
    await page
      .getByRole('dialog', { name: 'Edit repeating event' })
      .getByRole('button', { name: 'This and following events' })
      .click()
    const form = page.getByRole('dialog', { name: 'Edit Event' })
    await form.getByLabel('Title').fill('Evening run')
    await form.getByRole('button', { name: 'Save' }).click()
    await expect(form).toHaveCount(0)
    // At once on the device: the rest of the series (three of the five) is a series of its own.
    const rest = page.getByRole('article', { name: 'Evening run', exact: true })
    await expect(rest.getByText('Repeats weekly, 3 times')).toBeVisible()
    await expect(rest.locator('time')).toHaveAttribute('datetime', third as string)

    await page.context().setOffline(false)
    await expect(page.getByRole('button', { name: 'Synced' })).toBeVisible()
    await expect
      .poll(async () =>
        (await api<ServerEvent[]>(page, 'GET', `/bubles/${buble.id}/events`))
          .filter((e) => e.recurrence !== null && e.title !== 'Book club')
          .map((e) => [e.title, e.event_time, e.recurrence?.replace(/UNTIL=\d{8}T\d{6}Z/, 'UNTIL=…')])
          .sort(),
      )
      .toEqual([
        ['Evening run', third, 'FREQ=WEEKLY;COUNT=3'],
        ['Morning run', run.event_time, 'FREQ=WEEKLY;UNTIL=…'],
      ])
  })
  // A pull a poke started just as Ann went offline may be cut, and Chromium logs it: at most that one
  // line, for a sync call, after going offline; nothing else.
  const cut = ann.problems
    .slice(offlineAt)
    .filter((problem) => /ERR_INTERNET_DISCONNECTED \(http:[^)]*\/api\/sync\//.test(problem))
  expect(cut.length).toBeLessThanOrEqual(1)
  expect(ann.problems.filter((problem) => !cut.includes(problem))).toEqual([])
  await ann.close()
})

/** The English weekday of a date ('Tuesday'). */
function weekdayOf(date: string): string {
  return new Intl.DateTimeFormat('en-GB', { weekday: 'long', timeZone: 'UTC' }).format(new Date(`${date}T12:00:00Z`))
}
