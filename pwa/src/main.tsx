import './styles/app.css'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { BrowserRouter } from 'react-router-dom'
import { AppRoutes } from './app/app-routes.tsx'
import { registerServiceWorker } from './app/service-worker.ts'
import { startSession } from './app/start-session.ts'
import { config } from './config.ts'
import { SessionProvider } from './session/session-context.tsx'

const services = startSession()
if (config.serviceWorker) registerServiceWorker()

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <SessionProvider services={services}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </SessionProvider>
  </StrictMode>,
)
