package io.kvd.bench;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code --duration}: a whole number with a unit of ms, s, m or h ({@code 500ms}, {@code 10s}); bare numbers are seconds. */
final class DurationConverter implements ITypeConverter<Duration> {
    private static final Pattern FORMAT = Pattern.compile("(\\d{1,9})(ms|s|m|h)?");

    @Override
    public Duration convert(String text) {
        Matcher m = FORMAT.matcher(text);
        if (!m.matches()) {
            throw new TypeConversionException("'" + text + "' is not a duration such as 10s, 500ms, 2m");
        }
        long amount = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        return switch (unit) {
            case "ms" -> Duration.ofMillis(amount);
            case "m" -> Duration.ofMinutes(amount);
            case "h" -> Duration.ofHours(amount);
            default -> Duration.ofSeconds(amount);
        };
    }
}
