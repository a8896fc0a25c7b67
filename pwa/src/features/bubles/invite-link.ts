/** The shareable link of an invite code: the join page of this app, where it is served. */
export const inviteLink = (code: string, origin: string = window.location.origin): string =>
  `${origin}/join/${encodeURIComponent(code)}`

/** Whether this browser has a share sheet (navigator.share): phones mostly; where not, the button is not shown. */
export const canShare = (): boolean => typeof navigator.share === 'function'
