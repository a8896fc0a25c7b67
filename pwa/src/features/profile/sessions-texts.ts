/** The profile's "Devices signed in" section (issue 24 §4, decision 103). */

export const SESSIONS_TEXTS = {
  title: 'Devices signed in',
  intro: 'Where your account is signed in. Sign out a device you no longer use or do not recognise.',
  loading: 'Loading your devices…',
  failed: 'Failed to load the devices signed in',
  offline: 'You are offline. Connect to the internet to see the devices signed in.',
  tryAgain: 'Try Again',
  thisDevice: 'This device',
  activeNow: 'Active now',
  lastUsed: 'Last used',
  signedInSince: 'Signed in',
  noOthers: 'No other devices are signed in.',
  signOut: 'Sign out',
  signOutTitle: 'Sign out this device?',
  signOutBody: (label: string) =>
    `${label} is signed out at once. Anything it has not sent yet is lost, and it needs the password to sign in again.`,
  signOutBusy: 'Signing out…',
  signOutFailed: 'Could not sign that device out. Check your connection and try again.',
  signedOut: (label: string) => `${label} was signed out`,
  signOutOthers: 'Sign out everywhere else',
  signOutOthersTitle: 'Sign out everywhere else?',
  signOutOthersBody: 'Every other device is signed out at once. This device stays signed in.',
  signOutOthersBusy: 'Signing out…',
  signOutOthersFailed: 'Could not sign the other devices out. Check your connection and try again.',
  signedOutOthers: 'Every other device was signed out',
} as const
