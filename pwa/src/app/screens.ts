/**
 * The screens behind the routes, each its own chunk (issue 20 §3): /login carries only the sign-in code, and
 * the signed-in layout (the device store: Dexie, sync) loads with the first signed-in page.
 */

import { lazyPart } from '../ui/lazy-part.ts'

export const RegisterScreen = lazyPart(() => import('../features/auth/register-screen.tsx'), 'RegisterScreen')
export const ForgotPasswordScreen = lazyPart(
  () => import('../features/auth/forgot-password-screen.tsx'),
  'ForgotPasswordScreen',
)
export const ResetPasswordScreen = lazyPart(
  () => import('../features/auth/reset-password-screen.tsx'),
  'ResetPasswordScreen',
)
export const CompleteRegistrationScreen = lazyPart(
  () => import('../features/auth/complete-registration-screen.tsx'),
  'CompleteRegistrationScreen',
)
export const VerifyEmailScreen = lazyPart(() => import('../features/auth/verify-email-screen.tsx'), 'VerifyEmailScreen')
export const PrivacyScreen = lazyPart(() => import('../features/privacy/privacy-screen.tsx'), 'PrivacyScreen')
export const DonateScreen = lazyPart(() => import('../features/donations/donate-screen.tsx'), 'DonateScreen')
export const JoinScreen = lazyPart(() => import('../features/bubles/join-screen.tsx'), 'JoinScreen')
export const SignedInLayout = lazyPart(() => import('./signed-in-layout.tsx'), 'SignedInLayout')
export const DashboardScreen = lazyPart(() => import('../features/bubles/dashboard-screen.tsx'), 'DashboardScreen')
export const BubleScreen = lazyPart(() => import('./buble/buble-screen.tsx'), 'BubleScreen')
export const ProfileScreen = lazyPart(() => import('../features/profile/profile-screen.tsx'), 'ProfileScreen')
export const AdminScreen = lazyPart(() => import('../features/admin/admin-screen.tsx'), 'AdminScreen')
export const NotFound = lazyPart(() => import('./not-found.tsx'), 'NotFound')

const SIGNED_IN: Array<[RegExp, { preload: () => Promise<unknown> }]> = [
  [/^\/dashboard\/?$/, DashboardScreen],
  [/^\/bubles\//, BubleScreen],
  [/^\/profile\/?$/, ProfileScreen],
  [/^\/admin\/?$/, AdminScreen],
]
const SIGNED_OUT: Array<[RegExp, { preload: () => Promise<unknown> }]> = [
  [/^\/register\/?$/, RegisterScreen],
  [/^\/forgot-password\/?$/, ForgotPasswordScreen],
  [/^\/reset-password\/?$/, ResetPasswordScreen],
  [/^\/complete-registration\/?$/, CompleteRegistrationScreen],
  [/^\/verify-email\/?$/, VerifyEmailScreen],
  [/^\/privacy\/?$/, PrivacyScreen],
  [/^\/donate\/?$/, DonateScreen],
  [/^\/join\/[^/]+\/?$/, JoinScreen],
]

/**
 * Starts loading the chunks of the page the app opens at, before React renders: they arrive while the session
 * initializes, instead of one round trip per nested route after it.
 */
export function preloadRoute(pathname: string): void {
  const ignore = (err: unknown) => console.warn('Could not load the page', err)
  const signedIn = SIGNED_IN.find(([path]) => path.test(pathname))
  if (signedIn) {
    SignedInLayout.preload().catch(ignore)
    signedIn[1].preload().catch(ignore)
    return
  }
  SIGNED_OUT.find(([path]) => path.test(pathname))?.[1]
    .preload()
    .catch(ignore)
}
