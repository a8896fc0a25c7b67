/**
 * What a first visit to a route downloads, from a built pwa/dist (issue 20 §3: ≤ 120 KiB of gzipped
 * JavaScript and CSS). The HTML's script, modulepreloads and stylesheets, plus each route chunk with the
 * chunks and CSS it imports statically (Vite's manifest, dist/.vite/manifest.json).
 */

import { readFileSync } from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'

/** The source modules each measured route renders, as the manifest names them. */
export const ROUTES: Record<string, readonly string[]> = {
  '/login': [],
  '/dashboard': ['src/app/signed-in-layout.tsx', 'src/features/bubles/dashboard-screen.tsx'],
  '/bubles/:slug': ['src/app/signed-in-layout.tsx', 'src/app/buble/buble-screen.tsx'],
}

export const BUDGET_BYTES = 120 * 1024

interface ManifestChunk {
  file: string
  src?: string
  isEntry?: boolean
  imports?: string[]
  dynamicImports?: string[]
  css?: string[]
}
type Manifest = Record<string, ManifestChunk>

export interface FirstLoad {
  /** Files under dist/, each once. */
  files: string[]
  /** Their summed gzipped size (level 9, as the .gz beside each is). */
  gzip: number
  /** The source modules bundled into those files. */
  modules: string[]
}

export const readManifest = (dist: string): Manifest =>
  JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8'))

export const gzipSize = (dist: string, file: string): number =>
  gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length

/** The files index.html makes the browser fetch at once. */
export function htmlFiles(dist: string): string[] {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8')
  const files: string[] = []
  for (const tag of html.match(/<(script|link)\b[^>]*>/g) ?? []) {
    const isScript = tag.startsWith('<script') && /type="module"/.test(tag)
    const rel = /rel="([^"]+)"/.exec(tag)?.[1]
    const url = /(?:src|href)="\/?([^"]+)"/.exec(tag)?.[1]
    if (url && (isScript || rel === 'modulepreload' || rel === 'stylesheet')) files.push(url)
  }
  return files
}

/** A route's first load: the HTML's files, and each named module's chunk with its static imports. */
export function firstLoad(dist: string, modules: readonly string[]): FirstLoad {
  const manifest = readManifest(dist)
  const files = new Set(htmlFiles(dist))
  const seen = new Set<string>()
  const visit = (key: string) => {
    if (seen.has(key)) return
    seen.add(key)
    const chunk = manifest[key]
    if (!chunk) throw new Error(`${key} is not a chunk of this build`)
    files.add(chunk.file)
    for (const css of chunk.css ?? []) files.add(css)
    for (const imported of chunk.imports ?? []) visit(imported)
  }
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key)
  for (const module of modules) visit(module)
  const list = [...files].sort()
  return {
    files: list,
    gzip: list.reduce((sum, file) => sum + gzipSize(dist, file), 0),
    modules: [...seen].sort(),
  }
}

/** The file a lazily loaded module (a dynamic import's target) was built into. */
export function chunkOf(dist: string, module: string): string {
  const chunk = readManifest(dist)[module]
  if (!chunk) throw new Error(`${module} is not a chunk of this build`)
  return chunk.file
}
