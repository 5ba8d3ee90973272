package io.meshcontrol.core;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.Map;

/**
 * Durations in Go's {@code time.ParseDuration} syntax ({@code 720h}, {@code 1h30m}, {@code 1.5h}, {@code 250ms}),
 * because that is what headscale configurations, the spec and the vendor's policy files ({@code checkPeriod}) use.
 * The one reader of that syntax: configuration, policy, storage and the API all call it.
 *
 * <p>Like Go, a bare {@code 0} is allowed and the result must fit in a signed 64-bit count of nanoseconds (about 292
 * years). Unlike Prometheus-style parsers there is no {@code d} unit: Go has none, so {@code 180d} is refused with a hint.
 */
public final class GoDuration {

    private static final BigInteger MAX_NANOS = BigInteger.valueOf(Long.MAX_VALUE);

    private static final Map<String, Long> NANOS_PER_UNIT = Map.of(
            "ns", 1L,
            "us", 1_000L,
            "\u00b5s", 1_000L, // micro sign, as Go's String() prints it
            "\u03bcs", 1_000L, // Greek mu, which Go also accepts
            "ms", 1_000_000L,
            "s", 1_000_000_000L,
            "m", 60_000_000_000L,
            "h", 3_600_000_000_000L);

    private GoDuration() {
    }

    /**
     * Parses Go duration syntax.
     *
     * @throws IllegalArgumentException with a reason a person can act on, when the text is not a Go duration
     */
    public static Duration parse(String text) {
        String rest = text;
        boolean negative = false;
        if (rest.startsWith("-") || rest.startsWith("+")) {
            negative = rest.charAt(0) == '-';
            rest = rest.substring(1);
        }
        if (rest.equals("0")) {
            return Duration.ZERO;
        }
        if (rest.isEmpty()) {
            throw new IllegalArgumentException("not a duration: " + quoted(text) + " (use e.g. 90s, 30m or 720h)");
        }
        BigInteger total = BigInteger.ZERO;
        int i = 0;
        while (i < rest.length()) {
            int numberStart = i;
            boolean digits = false;
            while (i < rest.length() && Character.isDigit(rest.charAt(i))) {
                i++;
                digits = true;
            }
            if (i < rest.length() && rest.charAt(i) == '.') {
                i++;
                while (i < rest.length() && Character.isDigit(rest.charAt(i))) {
                    i++;
                    digits = true;
                }
            }
            if (!digits) {
                throw new IllegalArgumentException("not a duration: " + quoted(text) + " (use e.g. 90s, 30m or 720h)");
            }
            String number = rest.substring(numberStart, i);
            int unitStart = i;
            while (i < rest.length() && rest.charAt(i) != '.' && !Character.isDigit(rest.charAt(i))) {
                i++;
            }
            String unit = rest.substring(unitStart, i);
            if (unit.isEmpty()) {
                throw new IllegalArgumentException("missing unit in duration " + quoted(text) + " (use e.g. " + number + "s)");
            }
            Long nanosPerUnit = NANOS_PER_UNIT.get(unit);
            if (nanosPerUnit == null) {
                String hint = unit.equals("d") ? " (Go durations have no days: use hours, e.g. 720h)" : " (units: ns, us, ms, s, m, h)";
                throw new IllegalArgumentException("unknown unit " + quoted(unit) + " in duration " + quoted(text) + hint);
            }
            // Go truncates fractions of a nanosecond, so "1.5ns" is 1ns.
            total = total.add(new BigDecimal(number).multiply(BigDecimal.valueOf(nanosPerUnit))
                    .setScale(0, RoundingMode.DOWN).toBigIntegerExact());
            if (total.compareTo(MAX_NANOS) > 0) {
                throw new IllegalArgumentException("duration " + quoted(text) + " is too long (at most about 2562047h)");
            }
        }
        long nanos = total.longValueExact();
        return Duration.ofNanos(negative ? -nanos : nanos);
    }

    /**
     * The shortest Go-syntax text for a duration: {@code 1h30m}, {@code 24h}, {@code 1.5s}, {@code 250ms}, {@code 0s}.
     * Go's own {@code String()} would print {@code 1h30m0s}; both parse to the same value, and the short form reads
     * better in the example file and in messages.
     */
    public static String format(Duration duration) {
        if (duration.isZero()) {
            return "0s";
        }
        String sign = duration.isNegative() ? "-" : "";
        Duration abs = duration.abs();
        long seconds = abs.getSeconds();
        int nanos = abs.getNano();
        if (seconds == 0) {
            if (nanos < 1_000) {
                return sign + nanos + "ns";
            }
            if (nanos < 1_000_000) {
                return sign + decimal(nanos, 1_000) + "us";
            }
            return sign + decimal(nanos, 1_000_000) + "ms";
        }
        StringBuilder text = new StringBuilder(sign);
        long hours = seconds / 3600;
        long minutes = seconds % 3600 / 60;
        long secs = seconds % 60;
        if (hours > 0) {
            text.append(hours).append('h');
        }
        if (minutes > 0) {
            text.append(minutes).append('m');
        }
        if (secs > 0 || nanos > 0) {
            text.append(decimal(secs * 1_000_000_000L + nanos, 1_000_000_000L)).append('s');
        }
        return text.toString();
    }

    /**
     * Go's own {@code Duration.String()} for whole seconds and above, which the vendor's policy errors quote:
     * {@code 1h0m0s}, {@code 168h0m1s}, {@code -1m0s}.
     */
    public static String goString(Duration duration) {
        if (duration.isZero()) {
            return "0s";
        }
        long seconds = Math.abs(duration.getSeconds());
        int nanos = duration.isNegative() ? (int) ((1_000_000_000L - duration.getNano()) % 1_000_000_000L)
                : duration.getNano();
        if (duration.isNegative() && nanos != 0) {
            seconds = Math.abs(duration.getSeconds() + 1);
        }
        StringBuilder out = new StringBuilder(duration.isNegative() ? "-" : "");
        long hours = seconds / 3600;
        long minutes = seconds % 3600 / 60;
        long rest = seconds % 60;
        if (hours > 0) {
            out.append(hours).append('h');
        }
        if (hours > 0 || minutes > 0) {
            out.append(minutes).append('m');
        }
        out.append(rest);
        if (nanos != 0) {
            out.append('.').append(String.format("%09d", nanos).replaceAll("0+$", ""));
        }
        return out.append('s').toString();
    }

    /** Quoted as Go quotes the text in its own duration errors, so an empty or padded value is visible. */
    private static String quoted(String text) {
        return '"' + text.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }

    private static String decimal(long value, long unit) {
        return BigDecimal.valueOf(value).divide(BigDecimal.valueOf(unit)).stripTrailingZeros().toPlainString();
    }
}
