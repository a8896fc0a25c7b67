import { feelsLike, type Weather } from '@buble/shared/providers'
import { WeatherIcon } from './weather-icon.tsx'

const degrees = (value: number) => `${value}°C`

/** Current conditions and the 5-day forecast, for real weather and the sample alike. */
export function WeatherReport({ weather, label }: { weather: Weather; label: string }) {
  const { current } = weather
  return (
    <section className="weather-report" aria-label={label}>
      <p className="weather-place">{weather.location}</p>
      <div className="weather-now">
        <WeatherIcon icon={current.icon} large />
        <p className="weather-temperature">{degrees(current.temperature)}</p>
        <p className="weather-condition">{current.condition}</p>
      </div>
      <dl className="facts weather-facts">
        <div>
          <dt>Feels like</dt>
          <dd>{degrees(feelsLike(current.temperature))}</dd>
        </div>
        <div>
          <dt>Humidity</dt>
          <dd>{current.humidity}%</dd>
        </div>
        <div>
          <dt>Wind</dt>
          <dd>{current.windSpeed} km/h</dd>
        </div>
        <div>
          <dt>Visibility</dt>
          <dd>{current.visibility} km</dd>
        </div>
      </dl>
      <ol className="weather-forecast" aria-label="5-day forecast">
        {weather.forecast.map((day) => (
          <li key={day.date} className="weather-day">
            <span className="weather-day-name">{day.day}</span>
            <WeatherIcon icon={day.icon} />
            <span className="weather-day-range">
              <span className="visually-hidden">High </span>
              {degrees(day.high)}
              {' / '}
              <span className="visually-hidden">Low </span>
              <span className="muted">{degrees(day.low)}</span>
            </span>
            <span className="weather-day-rain">
              <span className="visually-hidden">Precipitation </span>
              {day.precipitation} mm
            </span>
          </li>
        ))}
      </ol>
    </section>
  )
}
