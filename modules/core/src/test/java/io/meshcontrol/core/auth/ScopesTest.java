package io.meshcontrol.core.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ScopesTest {

    @ParameterizedTest(name = "{0} covers {1}: {2}")
    @CsvSource({
            "all, users, true",
            "all, devices:core:read, true",
            "all:read, devices:core:read, true",
            "all:read, devices:core, false",
            "devices:core, devices:core:read, true",
            "devices:core:read, devices:core, false",
            "users, dns, false",
            "dns users, users:read, true",
            "'', users:read, false",
    })
    void coverageFollowsTheVendorRule(String held, String wanted, boolean covered) {
        List<String> heldScopes = held.isBlank() ? List.of() : Arrays.asList(held.split(" "));
        assertEquals(covered, Scopes.covers(heldScopes, wanted));
    }

    @ParameterizedTest(name = "[{0}] and [{1}]: [{2}]")
    @CsvSource({
            "all, all, all",
            "all, dns users, dns users",
            "all, all:read, all:read",
            "all:read, dns, dns:read",
            "all:read dns, dns policy_file, dns policy_file:read",
            "dns:read, dns, dns:read",
            "users, dns, ''",
            "'', all, ''",
    })
    void intersectionHoldsWhatBothCoverAndNothingTwice(String a, String b, String both) {
        assertEquals(list(both), Scopes.intersection(list(a), list(b)));
    }

    private static List<String> list(String text) {
        return text.isBlank() ? List.of() : Arrays.asList(text.split(" "));
    }
}
