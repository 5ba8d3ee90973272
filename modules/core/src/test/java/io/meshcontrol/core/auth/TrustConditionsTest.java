package io.meshcontrol.core.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TrustConditionsTest {

    @ParameterizedTest(name = "{0} ~ {1}: {2}")
    @CsvSource({
            "repo:acme/app, repo:acme/app, true",
            "repo:acme/app, repo:acme/app2, false",
            "repo:acme/*, repo:acme/app:ref:refs/heads/main, true",
            "repo:acme/*, repo:acme/, true",
            "repo:acme/*, repo:other/app, false",
            "*:ref:refs/heads/main, repo:acme/app:ref:refs/heads/main, true",
            "*:ref:refs/heads/main, repo:acme/app:ref:refs/heads/dev, false",
            "repo:*/app:*, repo:acme/app:environment:prod, true",
            "*, anything at all, true",
            "a.c, abc, false",
            "a+b, a+b, true",
    })
    void starMatchesAnyRunOfCharactersAndEverythingElseIsLiteral(String pattern, String value, boolean matches) {
        assertEquals(matches, TrustConditions.matches(pattern, value));
    }
}
