import ChestWeather
import Glibc

exit(await WeatherHelper.main())
