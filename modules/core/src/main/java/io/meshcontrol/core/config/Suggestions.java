package io.meshcontrol.core.config;

import java.util.Collection;
import java.util.Comparator;
import java.util.Optional;

/** "Did you mean" for misspelt keys: the closest known name, if it is close enough to be a typo. */
final class Suggestions {

    private Suggestions() {
    }

    static Optional<String> closest(String unknown, Collection<String> known) {
        // A third of the length allows a slip or two in short names without matching unrelated ones.
        int limit = Math.max(2, unknown.length() / 3);
        return known.stream()
                .filter(candidate -> distance(unknown, candidate) <= limit)
                .min(Comparator.comparingInt((String candidate) -> distance(unknown, candidate)).thenComparing(c -> c));
    }

    /** Levenshtein distance, case-insensitive. */
    static int distance(String a, String b) {
        String x = a.toLowerCase(java.util.Locale.ROOT);
        String y = b.toLowerCase(java.util.Locale.ROOT);
        int[] previous = new int[y.length() + 1];
        int[] current = new int[y.length() + 1];
        for (int j = 0; j <= y.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= x.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= y.length(); j++) {
                int substitution = previous[j - 1] + (x.charAt(i - 1) == y.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j] + 1, current[j - 1] + 1));
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[y.length()];
    }
}
