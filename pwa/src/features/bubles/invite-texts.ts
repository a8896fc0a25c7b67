/** The texts of the invite dialog, the join dialog and the join page (issue 21 §4). */

export const INVITE_TEXTS = {
  dialogTitle: 'Invite code generated',
  intro: 'Give this code or the link to the person you want in',
  introEnd: 'They open the link, or enter the code under Join Buble. It works once.',
  linkLabel: 'Invite link',
  copyCode: 'Copy code',
  copyLink: 'Copy link',
  copied: 'Copied!',
  share: 'Share…',
  shareTitle: (bubleName: string) => `Join ${bubleName} on Buble`,
  shareText: (bubleName: string) => `Join ${bubleName}, a private group on Buble.`,
  shareFailed: 'Could not open the share sheet. Copy the link instead.',
  sentTo: (email: string) => `Invite sent to ${email}`,
  sentDetail: 'They got a code of their own by e-mail. It is listed under Active codes.',
  revoked: 'Revoked: this code no longer works.',
} as const

export const JOIN_TEXTS = {
  pageTitle: 'Join a Buble',
  checking: 'Checking…',
  checkingCode: 'Checking the invite code…',
  offline: 'You are offline. An invite code can only be checked online.',
  checkFailed: 'Could not check the invite code. Try again.',
  retry: 'Try again',
  join: 'Join',
  joinOffline: 'You are offline. Joining a Buble needs a connection.',
  signInToJoin: 'Sign in to join',
  signUpToJoin: 'Create an account',
  signedOutHint: 'Sign in or create an account first. You come back here to join.',
  deadHint: 'Ask whoever invited you for a new code.',
  toDashboard: 'Go to your Bubles',
  toSignIn: 'Back to sign in',
  alreadyMember: 'You are already a member of this Buble.',
  expires: 'Expires',
} as const
