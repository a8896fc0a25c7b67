import { type WeatherIcon as Icon, WEATHER_CONDITIONS } from '@buble/shared/providers'

// Emoji: no image to fetch (the CSP allows none from elsewhere) and every platform draws them.
const EMOJI: Readonly<Record<Icon, string>> = {
  clear: '☀️',
  'partly-cloudy': '⛅',
  cloudy: '☁️',
  fog: '🌫️',
  drizzle: '🌦️',
  rain: '🌧️',
  snow: '❄️',
  thunderstorm: '⛈️',
}

/** A weather icon, named for screen readers by its condition. */
export function WeatherIcon({ icon, large = false }: { icon: Icon; large?: boolean }) {
  return (
    <span
      className={large ? 'weather-icon weather-icon-large' : 'weather-icon'}
      role="img"
      aria-label={WEATHER_CONDITIONS[icon]}
    >
      {EMOJI[icon]}
    </span>
  )
}
