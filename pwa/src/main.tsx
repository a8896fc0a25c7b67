import './zod-jitless.ts'
import './styles/app.css'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { BrowserRouter } from 'react-router-dom'
import { AppRoutes } from './app/app-routes.tsx'
import { preloadRoute } from './app/screens.ts'
import { registerServiceWorker } from './app/service-worker.ts'
import { startSession } from './app/start-session.ts'
import { config } from './config.ts'
import { SessionProvider } from './session/session-context.tsx'

preloadRoute(window.location.pathname)
const services = startSession()
if (config.serviceWorker)
  registerServiceWorker().catch((err: unknown) => console.warn('Service worker registration failed', err))

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <SessionProvider services={services}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </SessionProvider>
  </StrictMode>,
)
