package io.meshcontrol.core.config;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * An enum whose constants are configuration values. The schema lists the choices from the enum itself, so the
 * accepted words, the example file and the Java type cannot drift apart.
 */
public interface ConfigChoice {

    /** The word written in the configuration file, e.g. {@code info} or {@code TLS-ALPN-01}. */
    String configName();

    /** The configuration words of every constant, in declaration order. */
    static <E extends Enum<E> & ConfigChoice> List<String> names(Class<E> type) {
        return Arrays.stream(type.getEnumConstants()).map(ConfigChoice::configName).toList();
    }

    /** The constant for a configuration word, ignoring case, as people write {@code INFO} and {@code s256} too. */
    static <E extends Enum<E> & ConfigChoice> Optional<E> fromConfigName(Class<E> type, String word) {
        String wanted = word.toLowerCase(Locale.ROOT);
        return Arrays.stream(type.getEnumConstants())
                .filter(choice -> choice.configName().toLowerCase(Locale.ROOT).equals(wanted))
                .findFirst();
    }
}
