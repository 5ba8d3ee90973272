package io.meshcontrol.core.netmap.context;

/** Orders client release numbers ("1.80.3", "1.102.5"): numerically, part by part; a missing part counts as 0. */
public final class ReleaseVersions {

    private ReleaseVersions() {
    }

    /** Negative, zero or positive as {@code a} is older than, the same as or newer than {@code b}. */
    public static int compare(String a, String b) {
        String[] x = a.split("\\.");
        String[] y = b.split("\\.");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            int c = Long.compare(part(x, i), part(y, i));
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    private static long part(String[] parts, int i) {
        if (i >= parts.length) {
            return 0;
        }
        String digits = parts[i].replaceAll("\\D.*", "");
        return digits.isEmpty() ? 0 : Long.parseLong(digits.length() > 18 ? digits.substring(0, 18) : digits);
    }
}
