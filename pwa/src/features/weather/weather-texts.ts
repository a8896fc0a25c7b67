import type { Weather } from '@buble/shared/providers'

/** Spec part 2 §8: the server's message when it gave one, else these. */
export const WEATHER_TEXTS = {
  failed: 'Failed to load weather data',
  offline: 'Unable to load weather data',
  loading: 'Loading weather…',
  sample: 'Sample forecast, not real data',
} as const

/** Spec part 2 §4: what shows beside a failure, so the widget never stands empty. Clearly marked as a sample. */
export const SAMPLE_WEATHER: Weather = {
  location: 'Sample location',
  current: {
    temperature: 18,
    condition: 'Partly cloudy',
    humidity: 65,
    windSpeed: 12,
    visibility: 10,
    icon: 'partly-cloudy',
  },
  forecast: [
    { date: '2000-01-03', day: 'Mon', high: 20, low: 12, condition: 'Clear', icon: 'clear', precipitation: 0 },
    {
      date: '2000-01-04',
      day: 'Tue',
      high: 18,
      low: 11,
      condition: 'Partly cloudy',
      icon: 'partly-cloudy',
      precipitation: 0.5,
    },
    { date: '2000-01-05', day: 'Wed', high: 15, low: 9, condition: 'Rain', icon: 'rain', precipitation: 6.2 },
    { date: '2000-01-06', day: 'Thu', high: 16, low: 10, condition: 'Cloudy', icon: 'cloudy', precipitation: 1.1 },
    { date: '2000-01-07', day: 'Fri', high: 19, low: 12, condition: 'Clear', icon: 'clear', precipitation: 0 },
  ],
}
