/** The home screen's texts: what a buble card says about its latest activity and its unread count. */

import type { Activity } from '../../data/home.ts'

/** "Bob in chat: see you at 7", "You on the wall: …", "Carol joined". */
export function activityLine(activity: Pick<Activity, 'kind' | 'who' | 'mine' | 'text'>): string {
  const who = activity.mine ? 'You' : activity.who || 'Someone'
  const text = activity.text.replace(/\s+/g, ' ').trim()
  const said = (where: string) => (text ? `${who} ${where}: ${text}` : `${who} ${where}`)
  switch (activity.kind) {
    case 'chat':
      return said('in chat')
    case 'image':
      return text ? said('sent a photo') : `${who} sent a photo`
    case 'post':
      return said('on the wall')
    case 'comment':
      return said('commented')
    case 'event':
      return said('added an event')
    case 'poll':
      return said('asked')
    case 'story':
      return `${who} added a story`
    case 'joined':
      return `${who} joined`
  }
}

export const DASHBOARD_TEXTS = {
  noActivity: 'Nothing new yet',
  /** The count's name for assistive technology: "3 unread". */
  unread: (count: number) => `${count} unread`,
  /** The `@` mark's name: a tab holds an unread mention of the user. */
  mentioned: 'you were mentioned',
} as const
