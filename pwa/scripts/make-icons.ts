// Renders the app icons from one SVG. Run once after changing the artwork:
//   node --import tsx pwa/scripts/make-icons.ts
// The PNGs are committed, so a build never needs sharp.

import { mkdirSync, writeFileSync } from 'node:fs'
import sharp from 'sharp'

const outDir = new URL('../public/icons/', import.meta.url)

// `inset` shrinks the artwork into the maskable safe zone (the inner 80 % circle).
function artwork(inset: number, rounded: boolean): string {
  const s = 512
  const scale = 1 - inset * 2
  const offset = s * inset
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${s}" height="${s}" viewBox="0 0 ${s} ${s}">
  <title>Buble</title>
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#6d5dfc"/>
      <stop offset="1" stop-color="#2f80ed"/>
    </linearGradient>
  </defs>
  <rect width="${s}" height="${s}" rx="${rounded ? 112 : 0}" fill="url(#bg)"/>
  <g transform="translate(${offset} ${offset}) scale(${scale})">
    <circle cx="230" cy="280" r="150" fill="#ffffff" fill-opacity="0.95"/>
    <circle cx="380" cy="150" r="62" fill="#ffffff" fill-opacity="0.75"/>
    <circle cx="400" cy="330" r="34" fill="#ffffff" fill-opacity="0.6"/>
    <text x="230" y="335" text-anchor="middle" font-family="Arial, Helvetica, sans-serif" font-weight="700"
      font-size="170" fill="#4f46e5">b</text>
  </g>
</svg>`
}

mkdirSync(outDir, { recursive: true })
const svg = artwork(0, true)
writeFileSync(new URL('icon.svg', outDir), svg)
for (const size of [192, 512]) {
  await sharp(Buffer.from(svg))
    .resize(size, size)
    .png()
    .toFile(new URL(`icon-${size}.png`, outDir).pathname)
}
await sharp(Buffer.from(artwork(0.1, false)))
  .resize(512, 512)
  .png()
  .toFile(new URL('maskable-512.png', outDir).pathname)
await sharp(Buffer.from(svg))
  .resize(180, 180)
  .flatten({ background: '#4f46e5' })
  .png()
  .toFile(new URL('apple-touch-icon.png', outDir).pathname)
console.log('icons written to', outDir.pathname)
