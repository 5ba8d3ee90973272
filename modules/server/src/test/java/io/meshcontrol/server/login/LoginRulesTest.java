package io.meshcontrol.server.login;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LoginRulesTest {

    private static IdentityClaims claims(String email, boolean verified, String groups) {
        return new IdentityClaims("https://login.example.com", "sub", email, verified, "", "",
                groups.isEmpty() ? List.of() : List.of(groups.split(" ")), Instant.EPOCH);
    }

    private static List<String> list(String text) {
        return text.isEmpty() ? List.of() : List.of(text.split(" "));
    }

    /** domains | users | groups | verified required | e-mail | verified | groups | refusal (empty: may log in) */
    @ParameterizedTest(name = "{4} verified={5} groups=[{6}] -> {7}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            "''          | ''                | ''      | true  | ''                 | false | ''      | ''",
            "example.com | ''                | ''      | true  | freya@example.com  | true  | ''      | ''",
            "example.com | ''                | ''      | true  | freya@EXAMPLE.com  | true  | ''      | ''",
            "example.com | ''                | ''      | true  | mal@elsewhere.org  | true  | ''      | accounts of the domain elsewhere.org may not log in here",
            "example.com | ''                | ''      | true  | freya@example.com  | false | ''      | your e-mail address is not verified at the identity provider",
            "example.com | ''                | ''      | false | freya@example.com  | false | ''      | ''",
            "example.com | ''                | ''      | true  | ''                 | true  | ''      | your account has no e-mail address, which this server needs",
            "''          | freya@example.com | ''      | true  | thor@example.com   | true  | ''      | the account thor@example.com may not log in here",
            "''          | freya@example.com | ''      | true  | Freya@Example.com  | true  | ''      | ''",
            "''          | ''                | ops     | true  | ''                 | false | ''      | your account is not in a group allowed to log in here",
            "''          | ''                | ops dev | true  | ''                 | false | dev     | ''",
            "example.com | ''                | ops     | true  | mal@elsewhere.org  | true  | ops     | accounts of the domain elsewhere.org may not log in here",
    })
    void rules(String domains, String users, String groups, boolean required, String email, boolean verified,
            String memberOf, String refusal) {
        LoginRules rules = new LoginRules(list(domains), list(users), list(groups), required);
        assertEquals(refusal.isEmpty() ? Optional.empty() : Optional.of(refusal),
                rules.refusal(claims(email, verified, memberOf)));
    }

    @ParameterizedTest
    @CsvSource({"true, true, true", "true, false, false", "false, false, true"})
    void theEmailIsTrustedWhenVerifiedOrWhenVerificationIsNotRequired(boolean required, boolean verified,
            boolean trusted) {
        LoginRules rules = new LoginRules(List.of(), List.of(), List.of(), required);
        assertEquals(trusted, rules.trustsEmail(claims("freya@example.com", verified, "")));
    }
}
