package io.meshcontrol.core.config;

import java.util.Collection;
import java.util.Comparator;
import java.util.Locale;
import java.util.Optional;

/** "Did you mean" for misspelt keys: the closest known name, if it is close enough to be a typo. */
final class Suggestions {

    private Suggestions() {
    }

    static Optional<String> closest(String unknown, Collection<String> known) {
        // About one slip per five characters: catches typos without pointing grpc_listen_addr at listen_addr.
        int limit = Math.max(1, unknown.length() / 5);
        return known.stream()
                .filter(candidate -> distance(unknown, candidate) <= limit)
                .min(Comparator.comparingInt((String candidate) -> distance(unknown, candidate)).thenComparing(c -> c));
    }

    /** Edit distance counting a swap of neighbours as one edit (optimal string alignment), case-insensitive. */
    static int distance(String a, String b) {
        String x = a.toLowerCase(Locale.ROOT);
        String y = b.toLowerCase(Locale.ROOT);
        int[][] d = new int[x.length() + 1][y.length() + 1];
        for (int i = 0; i <= x.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= y.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= x.length(); i++) {
            for (int j = 1; j <= y.length(); j++) {
                int cost = x.charAt(i - 1) == y.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(d[i - 1][j - 1] + cost, Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1));
                if (i > 1 && j > 1 && x.charAt(i - 1) == y.charAt(j - 2) && x.charAt(i - 2) == y.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[x.length()][y.length()];
    }
}
