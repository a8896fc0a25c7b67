import os from 'node:os'
import path from 'node:path'
import react from '@vitejs/plugin-react'
import { visualizer } from 'rollup-plugin-visualizer'
import { defineConfig, type PluginOption } from 'vite'
import { compression, defineAlgorithm } from 'vite-plugin-compression2'
import { VitePWA } from 'vite-plugin-pwa'

const THEME = '#4f46e5'

// `npm run analyze -w @buble/pwa` (ANALYZE=1): what each module costs, gzipped, in a file outside the repository.
const analyze: PluginOption[] = process.env.ANALYZE
  ? [
      visualizer({
        filename: path.join(os.tmpdir(), 'buble-pwa-stats.json'),
        template: 'raw-data',
        gzipSize: true,
        brotliSize: true,
      }),
    ]
  : []

export default defineConfig({
  plugins: [
    react(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      // The app registers the worker itself (src/app/service-worker.ts): the server's CSP forbids inline scripts.
      injectRegister: null,
      // Every chunk, lazy ones included, so the app opens offline after one visit. Only the plain files: the
      // .br/.gz copies are for the server's Content-Encoding, never for the cache.
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        globIgnores: ['**/*.{br,gz}'],
      },
      manifest: {
        name: 'Buble',
        short_name: 'Buble',
        description: 'Private spaces for your small groups.',
        start_url: '/dashboard',
        scope: '/',
        display: 'standalone',
        theme_color: THEME,
        background_color: '#f6f7fb',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
    }),
    // Brotli and gzip copies beside each text asset, made once at build time so the server only picks a file
    // (api/src/lib/static.ts). PNGs are compressed already; a copy would only cost disk.
    compression({
      include: /\.(js|mjs|css|html|svg|webmanifest|json)$/,
      threshold: 0,
      // Every file gets both, even a tiny one where gzip adds bytes: the server never has to look twice.
      skipIfLargerOrEqual: false,
      algorithms: [defineAlgorithm('brotliCompress'), defineAlgorithm('gzip', { level: 9 })],
    }),
    ...analyze,
  ],
  // The manifest tells the first-load budget (scripts/first-load.ts) which chunks each route pulls.
  // No modulepreload polyfill: every browser that runs the app's ES modules and service worker preloads natively.
  build: { outDir: 'dist', emptyOutDir: true, manifest: true, modulePreload: { polyfill: false } },
  server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
  preview: { proxy: { '/api': 'http://127.0.0.1:8080' } },
})
