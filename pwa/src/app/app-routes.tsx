import { Route, Routes } from 'react-router-dom'
import { AdminScreen } from '../features/admin/admin-screen.tsx'
import { CompleteRegistrationScreen } from '../features/auth/complete-registration-screen.tsx'
import { ForgotPasswordScreen } from '../features/auth/forgot-password-screen.tsx'
import { LoginScreen } from '../features/auth/login-screen.tsx'
import { RegisterScreen } from '../features/auth/register-screen.tsx'
import { ResetPasswordScreen } from '../features/auth/reset-password-screen.tsx'
import { VerifyEmailScreen } from '../features/auth/verify-email-screen.tsx'
import { DashboardScreen } from '../features/bubles/dashboard-screen.tsx'
import { DonateScreen } from '../features/donations/donate-screen.tsx'
import { PrivacyScreen } from '../features/privacy/privacy-screen.tsx'
import { ProfileScreen } from '../features/profile/profile-screen.tsx'
import { SessionExpiredModal } from '../session/session-expired-modal.tsx'
import { BubleScreen } from './buble/buble-screen.tsx'
import { HomeRedirect, RequireAuth, SignedOutOnly } from './guards.tsx'
import { NotFound } from './not-found.tsx'
import { SignedInLayout } from './signed-in-layout.tsx'
import { UpdatePrompt } from './update-prompt.tsx'

/** Every route of spec part 1 §2 built so far, plus the overlays that can appear over any of them. */
export function AppRoutes() {
  return (
    <>
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
      <SessionExpiredModal />
      <UpdatePrompt />
    </>
  )
}
