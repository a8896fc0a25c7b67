/** What the events tab says (spec part 2 §2, §8). */
export const EVENT_TEXTS = {
  create: 'Create Event',
  edit: 'Edit Event',
  calendar: 'Add to calendar',
  calendarPending: 'The calendar file is ready once the event has reached the server.',
  calendarOffline: 'Adding to a calendar needs a connection.',
  empty: 'No events yet',
  emptyHint: 'Plan something together: create the first event.',
  emptyHintReader: 'Events members create show here.',
  /** The confirmation before an RSVP (spec part 2 §2), inline in the card. */
  confirmRsvp: 'Confirm RSVP',
  yes: 'Yes',
  no: 'No',
  rsvpSaving: 'Saving…',
  past: 'Past',
  pastHeading: 'Past',
  noUpcoming: 'No upcoming events',
  noUpcomingHint: 'Past events are listed below.',
  statsEmpty: 'No RSVPs yet. The most popular events show here.',
  /** Editing a repeating event (decision 97): which of its events the edit changes. */
  editScopeTitle: 'Edit repeating event',
  editScopeBody: 'Change only this event, or this one and the ones after it?',
  editThis: 'This event',
  editFollowing: 'This and following events',
  cancel: 'Cancel',
  deleteSeries: 'and every time it repeats are removed for everyone in this Buble, with their answers.',
  nextTime: 'Next:',
} as const
