package io.meshcontrol.api;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as people type them, for every input a person fills in (the CLI's options, the desktop app's fields):
 * Go's syntax ({@code 12h}, {@code 1h30m}, {@code 90s}) and, beyond it, days and weeks ({@code 30d}, {@code 2w}) and
 * words ({@code 90 days}, {@code 1 week}, {@code 12 hours}). The wire of {@code /api/v1} keeps Go's syntax (the
 * spec's); {@link #wire} turns what was typed into it. The console's duration.js reads the same forms.
 *
 * <p>No months or years: their length varies, so {@code 1mo} or {@code 1y} is refused with a hint.
 */
public final class HumanDuration {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d*)?|\\.\\d+)\\s*([a-zµμ]+)");
    private static final Map<String, Long> NANOS_PER_UNIT = units();
    private static final String EXAMPLES = "use e.g. 30d, 2w, 90 days, 12h or 1h30m";

    private HumanDuration() {
    }

    /**
     * What was typed, as a duration.
     *
     * @throws IllegalArgumentException with a reason a person can act on
     */
    public static Duration parse(String text) {
        String rest = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        if (rest.isEmpty()) {
            throw new IllegalArgumentException("no duration given (" + EXAMPLES + ")");
        }
        if (rest.equals("0")) {
            return Duration.ZERO;
        }
        BigDecimal nanos = BigDecimal.ZERO;
        int at = 0;
        Matcher part = PART.matcher(rest);
        while (at < rest.length()) {
            if (rest.charAt(at) == ' ' || rest.charAt(at) == ',') {
                at++;
                continue;
            }
            if (rest.startsWith("and ", at)) {
                at += 4;
                continue;
            }
            if (!part.find(at) || part.start() != at) {
                throw new IllegalArgumentException("not a duration: \"" + text.strip() + "\" (" + EXAMPLES + ")");
            }
            Long perUnit = NANOS_PER_UNIT.get(part.group(2));
            if (perUnit == null) {
                String hint = part.group(2).startsWith("mo") || part.group(2).startsWith("y")
                        ? " (months and years vary in length: use days, e.g. 30d or 365d)" : " (" + EXAMPLES + ")";
                throw new IllegalArgumentException("unknown unit \"" + part.group(2) + "\" in duration \""
                        + text.strip() + "\"" + hint);
            }
            nanos = nanos.add(new BigDecimal(part.group(1)).multiply(BigDecimal.valueOf(perUnit)));
            at = part.end();
        }
        if (nanos.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
            throw new IllegalArgumentException("duration \"" + text.strip() + "\" is too long (at most 106751d)");
        }
        return Duration.ofNanos(nanos.setScale(0, RoundingMode.DOWN).longValueExact());
    }

    /**
     * What was typed, in Go's syntax for an {@code /api/v1} request ({@code 30d} is {@code 720h}); null for null or
     * blank (the field is then left out and the server's default applies).
     *
     * @throws IllegalArgumentException as {@link #parse}
     */
    public static String wire(String text) {
        return text == null || text.isBlank() ? null : goSyntax(parse(text));
    }

    /** Go's syntax for a duration: {@code 720h}, {@code 1h30m}, {@code 1.5s} as {@code 1s500ms}, {@code 0s}. */
    public static String goSyntax(Duration duration) {
        if (duration.isZero()) {
            return "0s";
        }
        StringBuilder text = new StringBuilder(duration.isNegative() ? "-" : "");
        Duration rest = duration.abs();
        append(text, rest.toHours(), "h");
        append(text, rest.toMinutesPart(), "m");
        append(text, rest.toSecondsPart(), "s");
        long nanos = rest.toNanosPart();
        append(text, nanos / 1_000_000, "ms");
        append(text, nanos / 1_000 % 1_000, "us");
        append(text, nanos % 1_000, "ns");
        return text.toString();
    }

    /** For people: {@code 90 days}, {@code 2 weeks}, {@code 1 day}, {@code 12 hours}, {@code 1h30m} otherwise. */
    public static String describe(Duration duration) {
        long seconds = duration.toSeconds();
        if (duration.toNanosPart() != 0 || seconds <= 0) {
            return goSyntax(duration);
        }
        if (seconds % (7 * 86_400) == 0 && seconds / (7 * 86_400) < 5) {
            return plural(seconds / (7 * 86_400), "week");
        }
        if (seconds % 86_400 == 0) {
            return plural(seconds / 86_400, "day");
        }
        if (seconds % 3_600 == 0) {
            return plural(seconds / 3_600, "hour");
        }
        if (seconds % 60 == 0 && seconds < 3_600) {
            return plural(seconds / 60, "minute");
        }
        return goSyntax(duration);
    }

    private static String plural(long count, String unit) {
        return count + " " + unit + (count == 1 ? "" : "s");
    }

    private static void append(StringBuilder text, long count, String unit) {
        if (count != 0) {
            text.append(count).append(unit);
        }
    }

    private static Map<String, Long> units() {
        long minute = 60 * NANOS_PER_SECOND;
        long hour = 60 * minute;
        long day = 24 * hour;
        Map<String, Long> units = new java.util.HashMap<>();
        units.put("ns", 1L);
        for (String micro : new String[] {"us", "µs", "μs"}) {
            units.put(micro, 1_000L);
        }
        units.put("ms", 1_000_000L);
        for (String name : new String[] {"s", "sec", "secs", "second", "seconds"}) {
            units.put(name, NANOS_PER_SECOND);
        }
        for (String name : new String[] {"m", "min", "mins", "minute", "minutes"}) {
            units.put(name, minute);
        }
        for (String name : new String[] {"h", "hr", "hrs", "hour", "hours"}) {
            units.put(name, hour);
        }
        for (String name : new String[] {"d", "day", "days"}) {
            units.put(name, day);
        }
        for (String name : new String[] {"w", "wk", "wks", "week", "weeks"}) {
            units.put(name, 7 * day);
        }
        return Map.copyOf(units);
    }
}
