import { Suspense } from 'react'
import { Route, Routes } from 'react-router-dom'
import { LoginScreen } from '../features/auth/login-screen.tsx'
import { SessionExpiredNotice } from '../session/session-expired-notice.tsx'
import { FullPageSpinner } from '../ui/spinner.tsx'
import { HomeRedirect, RequireAuth, SignedOutOnly } from './guards.tsx'
import {
  AdminScreen,
  BubleScreen,
  CompleteRegistrationScreen,
  DashboardScreen,
  DonateScreen,
  ForgotPasswordScreen,
  JoinScreen,
  NotFound,
  PrivacyScreen,
  ProfileScreen,
  RegisterScreen,
  ResetPasswordScreen,
  SignedInLayout,
  VerifyEmailScreen,
} from './screens.ts'
import { UpdatePrompt } from './update-prompt.tsx'

/**
 * Every route of spec part 1 §2 built so far, plus the overlays that can appear over any of them. /login, where
 * a signed-out visit lands, is in the first load; every other screen is a chunk of its own (screens.ts).
 */
export function AppRoutes() {
  return (
    <>
      <Suspense fallback={<FullPageSpinner />}>
        <Routes>
          <Route path="/" element={<HomeRedirect />} />
          <Route element={<SignedOutOnly />}>
            <Route path="/login" element={<LoginScreen />} />
            <Route path="/register" element={<RegisterScreen />} />
            <Route path="/forgot-password" element={<ForgotPasswordScreen />} />
            <Route path="/reset-password" element={<ResetPasswordScreen />} />
            <Route path="/complete-registration" element={<CompleteRegistrationScreen />} />
          </Route>
          <Route path="/verify-email" element={<VerifyEmailScreen />} />
          <Route path="/privacy" element={<PrivacyScreen />} />
          <Route path="/donate" element={<DonateScreen />} />
          <Route path="/join/:code" element={<JoinScreen />} />
          <Route element={<RequireAuth />}>
            <Route element={<SignedInLayout />}>
              <Route path="/dashboard" element={<DashboardScreen />} />
              <Route path="/bubles/:slugOrId/:tab?" element={<BubleScreen />} />
              <Route path="/profile" element={<ProfileScreen />} />
              <Route path="/admin" element={<AdminScreen />} />
            </Route>
          </Route>
          <Route path="*" element={<NotFound />} />
        </Routes>
      </Suspense>
      <Suspense fallback={null}>
        <SessionExpiredNotice />
      </Suspense>
      <UpdatePrompt />
    </>
  )
}
