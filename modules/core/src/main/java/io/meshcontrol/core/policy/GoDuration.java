package io.meshcontrol.core.policy;

import java.math.BigDecimal;
import java.time.Duration;

/**
 * Durations as Go writes and reads them ({@code 1h30m}, {@code 168h0m1s}): the vendor's {@code checkPeriod} errors
 * quote them in Go's form, so this server does too.
 */
final class GoDuration {

    private GoDuration() {
    }

    /** @throws PolicyException {@code time: invalid duration "abc"} as Go's time.ParseDuration says it */
    static Duration parse(String text) {
        String rest = text;
        boolean negative = false;
        if (rest.startsWith("-") || rest.startsWith("+")) {
            negative = rest.startsWith("-");
            rest = rest.substring(1);
        }
        if (rest.equals("0")) {
            return Duration.ZERO;
        }
        if (rest.isEmpty()) {
            throw invalid(text);
        }
        BigDecimal nanos = BigDecimal.ZERO;
        int i = 0;
        while (i < rest.length()) {
            int start = i;
            while (i < rest.length() && (Character.isDigit(rest.charAt(i)) || rest.charAt(i) == '.')) {
                i++;
            }
            String number = rest.substring(start, i);
            int unitStart = i;
            while (i < rest.length() && !Character.isDigit(rest.charAt(i)) && rest.charAt(i) != '.') {
                i++;
            }
            long unit = unitNanos(rest.substring(unitStart, i));
            if (number.isEmpty() || number.equals(".") || unit == 0) {
                throw invalid(text);
            }
            try {
                nanos = nanos.add(new BigDecimal(number).multiply(BigDecimal.valueOf(unit)));
            } catch (NumberFormatException e) {
                throw invalid(text);
            }
        }
        Duration value = Duration.ofNanos(nanos.longValue());
        return negative ? value.negated() : value;
    }

    /** Go's {@code Duration.String()} for whole seconds and above, which is all a policy needs: {@code 1h0m0s}. */
    static String format(Duration duration) {
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

    private static long unitNanos(String unit) {
        return switch (unit) {
            case "ns" -> 1L;
            case "us", "µs", "μs" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "m" -> 60_000_000_000L;
            case "h" -> 3_600_000_000_000L;
            default -> 0L;
        };
    }

    private static PolicyException invalid(String text) {
        return new PolicyException("time: invalid duration \"" + text + "\"");
    }
}
